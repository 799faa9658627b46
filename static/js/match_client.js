// The shared match client: one websocket per match page (DESIGN.md sections 4 and 7).
//
// It opens /ws/matches/{id}, says hello with the last version it has, applies the snapshots the
// server sends, reconnects by itself with exponential backoff (showing "offline — reconnecting"),
// shows per-seat clocks, who is away (with an "I'm back" button for your own seat), a log of the
// events (each line a link to the replay at its step), and error frames as a dismissable message. The game itself is drawn by a game module:
//
//   export async function setup(client)            // optional: load card data before the first render
//   export function render(root, snapshot, client) // draw the snapshot; call client.act(action) to play
//   export function describeEvent(event, entry, client)  // optional: one log line for an engine event
//
// `client` gives the module: seat (null for spectators), snapshot, events (every event entry
// received, oldest first), pending (the act in flight or null), act(action), seatName(seat),
// remainingMs(seat), on the replay page `replay` (true: the result links to no replay, the page is
// one), and on(name, fn) for "snapshot" / "error" / "status", and for any other
// frame type the server sends, each emitted under its own type: the extra frames the page asked
// for with `notices` (hello's "notices", any of "rematch", "spectators", "presence", "chat";
// app/gateway/frames.py; the table's "presence" and "chat" are drawn by match_table.js).
//
// With "chat" among the notices every hello also says `chat_since` (the last line id received:
// a reconnect gets only newer lines); with "presence", `presence` holds the seats with an open
// connection (a Set), shown on the seat cards.
//
// Clocks: the server sends `remaining_ms` per seat; the client counts down from the moment the
// snapshot arrived (performance.now()), never comparing its own wall clock with the server's. In a
// time bank match (clock.clock === "bank") every person's seat shows its bank: counting down while
// the seat must act, standing still (class "paused") while it waits.

import { api, el, formatTimeControl, levelName, playerLink, steadyText } from "/static/js/api.js";
import { errorText, pageLocale, say } from "/static/js/messages.js";
import { sha256Hex } from "/static/js/sha256.js";

const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 15000;
const PING_EVERY_MS = 20000;
const PONG_WAIT_MS = 10000;
const POLICY_VIOLATION = 1008;

/** "1:05", "0:09" for a number of milliseconds. */
export function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  if (m >= 60) return say("table.clock.hours", { h: Math.floor(m / 60), m: String(m % 60).padStart(2, "0") });
  return `${m}:${String(s).padStart(2, "0")}`;
}

/** A server timestamp (ISO 8601; naive ones are UTC) as a Date, or null. */
export function parseTime(iso) {
  if (!iso) return null;
  const d = new Date(/(Z|[+-]\d\d:?\d\d)$/.test(iso) ? iso : `${iso}Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A player's name as shown everywhere: a bot account's (`user.is_bot`) carries the "BOT" mark. */
export function userName(user) {
  return user.is_bot ? `BOT ${user.name}` : user.name; // "BOT": a mark, the same in every language
}

/** A seat's name without its number: the player's, "Computer · Medium", "(free seat)". */
function plainSeatName(seats, seat) {
  const s = (seats || []).find((x) => x.seat === seat);
  if (!s) return say("table.seat", { n: seat + 1 });
  if (s.user) return userName(s.user);
  if (s.bot) return say("table.computer", { level: levelName(s.bot) });
  return say("table.free_seat");
}

/**
 * The display name of a seat from a snapshot's or match's `seats`, as the seat cards, the board,
 * the log and the replay all say it: two seats of the same name (two computers of one level)
 * also say their seat number ("Computer · Medium · seat 3").
 * @param {object[]|null} seats  the `seats` of a snapshot or of the match info
 * @param {number} seat
 * @returns {string}
 */
export function seatName(seats, seat) {
  const name = plainSeatName(seats, seat);
  const same = (seats || []).filter((x) => plainSeatName(seats, x.seat) === name).length;
  return same > 1 ? say("table.seat.named", { name, n: seat + 1 }) : name;
}

/** "1 hour", "90 minutes", "45 seconds" in the page's language (as app/i18n/jinja.py's
 * ``duration`` filter; the words "table.duration.*" of messages.js, plural by the number). */
export function formatDuration(seconds) {
  if (!seconds) return say("table.duration.while");
  for (const [size, unit] of [[86400, "day"], [3600, "hour"], [60, "minute"], [1, "second"]]) {
    if (seconds % size === 0) return say(`table.duration.${unit}`, { count: seconds / size });
  }
  return say("table.duration.second", { count: seconds });
}

/** Why an aborted match ended: {headline, detail} (as templates/_aborted.html). */
export function abortedText(result, expirySeconds = null) {
  const reason = (result && result.reason) || "";
  const key = reason === "cancelled" || reason === "expired" ? reason : "other";
  return {
    reason,
    headline: say(`aborted.${key}.headline`),
    detail: say(`aborted.${key}.detail`, { duration: formatDuration(expirySeconds) }),
  };
}

/**
 * Who resigned, as the result says it: ["You resigned."] for the viewer's own seat, ["Ann
 * resigned."] for another; from the outcome's `resigned` seats (a two-seat resignation stored
 * without them: the losing seat).
 * @param {object} outcome  the match result ({results, reason, resigned?})
 * @param {number|null} seat  the viewer's seat (null: a spectator)
 * @param {(seat: number) => string} nameOf  a seat's display name
 * @returns {string[]}
 */
export function resignedLines(outcome, seat, nameOf) {
  if (!outcome) return [];
  let seats = outcome.resigned || [];
  if (!seats.length && outcome.reason === "resigned") seats = [(outcome.results || []).indexOf("loss")];
  return seats.filter((s) => s >= 0).map((s) => (s === seat ? say("result.you_resigned") : say("result.resigned", { who: nameOf(s) })));
}

/** The panel shown instead of the game for a match that never started (status "aborted"). */
export function abortedNotice(snapshot, { expirySeconds = null, replay = false } = {}) {
  const t = abortedText(snapshot.result, expirySeconds);
  return el("div", { class: "aborted", id: "match-aborted", dataset: { reason: t.reason } },
    el("h2", { class: "aborted-headline", text: t.headline }),
    el("p", { text: `${t.detail} ${say(replay ? "aborted.nothing_to_replay" : "aborted.nothing_played")}` }),
    el("p", {}, el("a", { class: "btn", href: "/lobby", text: say("aborted.back") })));
}

/**
 * A "Join this match" button for a logged-in visitor of a waiting match with a free seat (a
 * log-in link for an anonymous one; null for a seated player). Game modules put it in their
 * "waiting for players" panel.
 */
export function joinButton(snapshot, client) {
  const free = (snapshot.seats || []).some((s) => !s.user && !s.bot);
  if (!free || !client || (snapshot.seat !== null && snapshot.seat !== undefined)) return null;
  const id = snapshot.match_id ?? client.matchId;
  if (!client.user) {
    return el("p", {}, el("a", { class: "btn", href: `/login?next=${encodeURIComponent(`/matches/${id}`)}`, text: say("table.join.log_in") }));
  }
  const button = el("button", { type: "button", class: "btn btn-big", id: "join-match", text: say("table.join") });
  const error = el("span", { class: "form-error", hidden: true });
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await api("POST", `/api/matches/${id}/join`);
      button.textContent = say("table.join.joined");
    } catch (err) {
      error.textContent = errorText(err);
      error.hidden = false;
      button.disabled = false;
    }
  });
  return el("p", {}, button, " ", error);
}

/**
 * A "Cancel this match" button for the creator of a waiting match (null for anyone else).
 * Game modules put it in their "waiting for players" panel. It asks first, in the page, as the
 * lobby does: "Cancel this match? [Yes, cancel it] [No, keep it]"; the question stays through
 * the redraws a snapshot brings (kept on the client as `cancelAsking`).
 */
export function cancelButton(client, snapshot) {
  if (!client || !client.cancel || snapshot.status !== "waiting") return null;
  const creator = client.match ? client.match.created_by : null;
  if (!client.user || creator !== client.user.id) return null;
  const box = el("span", { class: "cancel-match-box", id: "cancel-match-box" });
  const ask = () => {
    const yes = el("button", { type: "button", class: "btn btn-small btn-danger", id: "cancel-match-yes",
      text: say("lobby.confirm_cancel.yes"), dataset: { action: "confirm-cancel" } });
    const no = el("button", { type: "button", class: "btn btn-small btn-ghost", id: "cancel-match-no",
      text: say("lobby.confirm_cancel.no"), dataset: { action: "keep" } });
    yes.addEventListener("click", async () => {
      yes.disabled = no.disabled = true;
      if (await client.cancel()) return;
      yes.disabled = no.disabled = false;
    });
    no.addEventListener("click", () => {
      client.cancelAsking = false;
      offer();
    });
    box.replaceChildren(el("span", { class: "confirm-inline", role: "group", dataset: { testid: "confirm-cancel" } },
      el("span", { text: say("lobby.confirm_cancel") }), " ", yes, " ", no));
  };
  const offer = () => {
    const button = el("button", { type: "button", class: "btn btn-ghost btn-danger", id: "cancel-match", text: say("table.cancel") });
    button.addEventListener("click", () => {
      client.cancelAsking = true;
      ask();
    });
    box.replaceChildren(button);
  };
  if (client.cancelAsking) ask();
  else offer();
  return box;
}

/** Fill the "Fair play" box: the seed's hash from the start, the seed and its check at the end. */
export function renderSeedInfo(box, { seed_hash: hash, seed, status }) {
  if (!box) return;
  const key = `${hash}|${seed || ""}|${status === "aborted"}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  if (status === "aborted") {
    box.replaceChildren(el("p", { class: "muted", id: "seed-unused",
      text: say("table.seed.unused") }));
    return;
  }
  const parts = [
    el("p", { class: "muted", text: say("table.seed.hash") }),
    el("code", { class: "hash", id: "seed-hash", text: hash || "–" }),
  ];
  if (seed) {
    const check = el("p", { class: "seed-check", id: "seed-check", text: say("table.seed.checking") });
    parts.push(el("p", { class: "muted", text: say("table.seed.revealed") }),
      el("code", { class: "hash", id: "seed-value", text: seed }), check);
    sha256Hex(seed).then((digest) => {
      const ok = digest === hash;
      check.textContent = ok ? `✓ ${say("table.seed.ok")}` : `✗ ${say("table.seed.bad")}`;
      check.className = ok ? "seed-check ok" : "seed-check bad";
    });
  } else {
    parts.push(el("p", { class: "muted", text: say("table.seed.later") }));
  }
  box.replaceChildren(...parts);
}

/**
 * Where a seat's player is: "away" (the computer plays for the seat: the snapshot's clock.away),
 * "connected" (a socket of theirs is open: `presence`, a Set of seats), "gone"; null for a
 * computer seat, a free seat, or when `presence` is not known (the replay page).
 */
export function seatPresence(snapshot, seat, presence) {
  const s = (snapshot.seats || []).find((x) => x.seat === seat);
  if (!s || !s.user) return null;
  if (((snapshot.clock && snapshot.clock.away) || []).includes(seat)) return "away";
  if (!presence || snapshot.status === "finished" || snapshot.status === "aborted") return null;
  return presence.has(seat) ? "connected" : "gone";
}

/** Draw the players bar (names, whose turn, clocks, presence, results). Used by the match and
 * replay pages; `presence` (a Set of connected seats) adds "connected" / "gone" to each person's seat. */
export function renderSeats(box, snapshot, { me = null, clockText = null, presence = null } = {}) {
  if (!box) return;
  const toAct = new Set(snapshot.to_act || []);
  const chosen = new Set(snapshot.chosen || []);
  const away = new Set((snapshot.clock && snapshot.clock.away) || []);
  const simultaneous = toAct.size > 1;
  const cards = (snapshot.seats || []).map((s) => {
    const badges = [];
    if (s.seat === me) badges.push(el("span", { class: "badge badge-you", text: say("table.badge.you") }));
    if (s.bot) badges.push(el("span", { class: "badge", text: say("table.badge.computer") }));
    // a seat whose player resigned while the match goes on (the computer plays it): no presence,
    // the state says so instead
    const resigned = Boolean(s.resigned) && snapshot.status === "active";
    const where = resigned ? null : away.has(s.seat) ? "away" : seatPresence(snapshot, s.seat, presence);
    if (where) {
      badges.push(el("span", {
        class: `badge badge-presence badge-${where}`, text: say(`presence.${where}`),
        dataset: { presence: where, testid: `presence-${s.seat}` },
      }));
    }
    // the seat's state, a code of "table.state.*" (data-state keeps the code)
    let state = "";
    if (snapshot.status === "finished") {
      state = { win: "won", loss: "lost", draw: "draw" }[s.result] || "";
    } else if (snapshot.status === "aborted") {
      state = s.user || s.bot ? "" : "nobody_joined";
    } else if (snapshot.status === "waiting") {
      state = s.user || s.bot ? "ready" : "waiting";
    } else if (resigned) {
      state = "resigned";
    } else if (chosen.has(s.seat)) {
      state = "chosen";
    } else if (toAct.has(s.seat)) {
      state = simultaneous ? "choosing" : "to_move";
    }
    // (in a simultaneous turn "choosing…" and "has chosen ✓" keep one size: another seat's choice
    // must not move the table under a player who is clicking)
    const status = simultaneous && (state === "choosing" || state === "chosen")
      ? steadyText("span", { class: "seat-status", dataset: { state } }, say(`table.state.${state}`),
        [say("table.state.chosen"), say("table.state.choosing")])
      : el("span", { class: "seat-status", text: state ? say(`table.state.${state}`) : "", dataset: { state } });
    const clock = el("span", { class: "seat-clock", dataset: { clockSeat: s.seat } });
    if (clockText) clock.textContent = clockText(s.seat) || "";
    return el("div", {
      class: `seat-card${toAct.has(s.seat) && !chosen.has(s.seat) ? " seat-active" : ""}${s.seat === me ? " seat-me" : ""}`,
      dataset: { seat: s.seat, testid: `seat-${s.seat}` },
    },
    el("div", { class: "seat-name" }, el("span", { class: "seat-dot", "aria-hidden": "true" }),
      s.user ? playerLink(s.user) : seatName(snapshot.seats, s.seat), ...badges),
    el("div", { class: "seat-state" }, status, clock));
  });
  box.replaceChildren(...cards);
}

export class MatchClient {
  /**
   * @param {object} opts
   * @param {number} opts.matchId
   * @param {object} opts.module   the game module (render, setup?, describeEvent?)
   * @param {object|null} opts.user  {id, name} of the logged-in user, or null
   * @param {object} [opts.match]  the match info the page was rendered with
   * @param {object} opts.elements {root, seats, log, seed, conn, offline, error, errorText, errorDismiss, away, back, resign, replayLink}
   *   (replayLink: the element to show once the match is over, e.g. the list item holding the link)
   * @param {number|null} [opts.expirySeconds]  how long a match may wait for players (for "expired")
   * @param {string[]} [opts.notices]  extra frames to ask for in every hello: any of "rematch",
   *   "spectators", "presence", "chat" (app/gateway/messages.py NOTICES)
   */
  constructor({ matchId, module, user, match, elements, expirySeconds = null, notices = [] }) {
    this.matchId = matchId;
    this.notices = notices;
    this.expirySeconds = expirySeconds;
    this.module = module;
    this.user = user;
    this.ui = elements;
    this.match = match || null;
    this.snapshot = null;
    this.version = 0;
    this.events = [];
    this.seat = null;
    this.pending = null;
    this.connected = false;
    this.socket = null;
    this.attempts = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.pongTimer = null;
    this.stopped = false;
    this.ackCounter = 0;
    this.clockBase = { at: performance.now(), remaining: {} };
    this.listeners = { snapshot: [], error: [], status: [] };
    /** the last chat line id received (asked for again after a reconnect: only newer ones come) */
    this.chatSince = 0;
    /** the seats with an open connection (a Set), once a presence frame came; null before */
    this.presence = null;
    this.frames = 0;
    /** the match's options (turn_seconds and the game's own), from the page */
    this.options = match ? match.options : null;
    if (match) {
      this.seatsFromPage = match.seats;
      const mine = user ? match.seats.find((s) => s.user && s.user.id === user.id) : null;
      this.seat = mine ? mine.seat : null;
    }
  }

  on(name, fn) {
    (this.listeners[name] ||= []).push(fn);
  }

  emit(name, value) {
    for (const fn of this.listeners[name] || []) {
      try {
        fn(value);
      } catch (err) {
        console.error(err);
      }
    }
  }

  get isSpectator() {
    return this.seat === null || this.seat === undefined;
  }

  seatName(seat) {
    return seatName((this.snapshot && this.snapshot.seats) || this.seatsFromPage, seat);
  }

  /** Milliseconds left on `seat`'s clock now, or null when it has none. */
  remainingMs(seat) {
    const ms = this.clockBase.remaining[String(seat)];
    if (ms === undefined || ms === null) return null;
    return Math.max(0, ms - (performance.now() - this.clockBase.at));
  }

  /** A time bank match's bank of `seat` now (ms): running while it must act, else where it stopped;
   * null in a per-turn match or for a seat without a bank (the computer's). */
  bankMs(seat) {
    const clock = (this.snapshot && this.snapshot.clock) || {};
    if (clock.clock !== "bank") return null;
    const running = this.remainingMs(seat);
    if (running !== null && !(clock.away || []).includes(seat)) return running;
    const stopped = (clock.bank_ms || {})[String(seat)];
    return stopped === undefined ? null : stopped;
  }

  async start() {
    const { ui } = this;
    if (ui.errorDismiss) ui.errorDismiss.addEventListener("click", () => this.showError(null));
    if (ui.back) ui.back.addEventListener("click", () => this.back());
    if (ui.resign) {
      ui.resign.addEventListener("click", () => {
        if (window.confirm(say("table.resign.confirm"))) this.resign();
      });
    }
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden && !this.connected) this.reconnectNow();
    });
    this.clockInterval = setInterval(() => this.tickClocks(), 250);
    if (this.module.setup) {
      try {
        await this.module.setup(this);
      } catch (err) {
        console.error("game module setup failed", err);
      }
    }
    this.connect();
  }

  // ---------------------------------------------------------------- connection

  url() {
    const proto = window.location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${window.location.host}/ws/matches/${this.matchId}`;
  }

  setStatus(state, text) {
    if (this.ui.conn) {
      this.ui.conn.dataset.state = state;
      this.ui.conn.textContent = text;
    }
    if (this.ui.offline) this.ui.offline.hidden = state !== "offline";
    this.emit("status", state);
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    let socket;
    try {
      socket = new WebSocket(this.url());
    } catch (err) {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (this.socket !== socket) return;
      this.connected = true;
      this.setStatus("online", say("table.conn.online"));
      this.send({
        type: "hello",
        since: this.version,
        ...(this.notices.length ? { notices: this.notices } : {}),
        ...(this.notices.includes("chat") ? { chat_since: this.chatSince } : {}),
      });
      this.startPings();
    });
    socket.addEventListener("message", (event) => {
      if (this.socket !== socket) return;
      this.gotFrame();
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch (err) {
        return;
      }
      this.handleFrame(frame);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.connected = false;
      this.stopPings();
      if (this.pending) {
        // the act may or may not have arrived; the snapshot after reconnecting tells
        this.pending = null;
        this.render();
      }
      if (event.code === POLICY_VIOLATION) {
        this.stopped = true;
        this.setStatus("closed", say("table.conn.closed"));
        return;
      }
      this.scheduleReconnect();
    });
    socket.addEventListener("error", () => {
      // a close event follows
    });
  }

  scheduleReconnect() {
    if (this.stopped || this.retryTimer) return;
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** this.attempts);
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.attempts += 1;
    this.setStatus("offline", say("table.conn.retry_in", { count: Math.ceil(delay / 1000) }));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.setStatus("offline", say("table.conn.retrying"));
      this.connect();
    }, delay);
  }

  reconnectNow() {
    if (this.connected || this.stopped) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.connect();
  }

  /** Close the socket as if the network dropped (the client reconnects by itself). */
  dropConnection() {
    if (this.socket) this.socket.close(4000, "dropped");
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.clockInterval);
    this.stopPings();
    if (this.socket) this.socket.close(1000, "bye");
  }

  startPings() {
    this.stopPings();
    this.pingTimer = setInterval(() => {
      if (!this.connected) return;
      this.send({ type: "ping" });
      clearTimeout(this.pongTimer);
      this.pongTimer = setTimeout(() => {
        // no answer: the connection is dead even if the browser has not noticed
        if (this.socket) this.socket.close(4001, "no pong");
      }, PONG_WAIT_MS);
    }, PING_EVERY_MS);
  }

  stopPings() {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    this.pingTimer = this.pongTimer = null;
  }

  gotFrame() {
    clearTimeout(this.pongTimer);
    this.pongTimer = null;
  }

  send(frame) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  // ---------------------------------------------------------------- frames

  handleFrame(frame) {
    this.frames += 1;
    if (frame.type === "snapshot") this.applySnapshot(frame);
    else if (frame.type === "error") this.applyError(frame);
    else if (frame.type === "presence") this.applyPresence(frame);
    else if (frame.type === "chat") {
      for (const line of frame.lines || []) this.chatSince = Math.max(this.chatSince, line.id);
      this.emit("chat", frame);
    } else if (frame.type !== "pong") this.emit(frame.type, frame); // the extra frames asked for
  }

  applySnapshot(snap) {
    this.attempts = 0;
    if (this.snapshot && snap.version < this.snapshot.version) return; // an older one, overtaken
    const lastVersion = this.events.length ? this.events[this.events.length - 1].version : 0;
    const fresh = (snap.events || []).filter((e) => e.version > lastVersion);
    this.events.push(...fresh);
    this.snapshot = snap;
    this.version = snap.version;
    this.seat = snap.seat;
    this.clockBase = { at: performance.now(), remaining: { ...((snap.clock && snap.clock.remaining_ms) || {}) } };
    if (this.pending && (snap.ack === this.pending.ack || !(snap.legal || []).length)) this.pending = null;
    this.appendLog(fresh);
    this.renderChrome();
    this.render();
    this.emit("snapshot", snap);
  }

  applyPresence(frame) {
    this.presence = new Set(frame.connected || []);
    if (this.snapshot) renderSeats(this.ui.seats, this.snapshot, this.seatOptions());
    this.emit("presence", frame);
  }

  seatOptions() {
    return { me: this.seat, clockText: (seat) => this.clockText(seat), presence: this.presence };
  }

  applyError(frame) {
    if (this.pending && frame.ack && frame.ack === this.pending.ack) this.pending = null;
    this.showError(errorText(frame), frame.code, frame.message);
    this.emit("error", frame);
    this.render();
  }

  // ---------------------------------------------------------------- actions

  /** Send `action` (one of snapshot.legal) for this seat; returns the ack id, or null if offline. */
  act(action) {
    if (!this.snapshot) return null;
    this.ackCounter += 1;
    const ack = `a${Date.now().toString(36)}-${this.ackCounter}`;
    const ok = this.send({ type: "act", action, version: this.snapshot.version, ack });
    if (!ok) {
      this.showError(say("error.offline"), "offline");
      return null;
    }
    this.pending = { ack, action, version: this.snapshot.version };
    this.showError(null);
    this.render();
    return ack;
  }

  /** "I'm back": take the seat back from the computer. */
  back() {
    this.send({ type: "back" });
  }

  /** Say the quick-chat phrase `phrase` (a code, e.g. "good_luck"); returns the ack id, or null if offline. */
  chat(phrase) {
    this.ackCounter += 1;
    const ack = `c${Date.now().toString(36)}-${this.ackCounter}`;
    return this.send({ type: "chat", phrase, ack }) ? ack : null;
  }

  /** Give up the match (the page asks for confirmation first). */
  resign() {
    this.send({ type: "resign" });
  }

  /** Cancel this waiting match (its creator only). Resolves true when the server agreed; the
   * aborted snapshot follows over the websocket (or is fetched here if it is slow to come). */
  async cancel() {
    try {
      const info = await api("POST", `/api/matches/${this.matchId}/cancel`);
      this.showError(null);
      if (info && this.snapshot && this.snapshot.status !== info.status) {
        const snap = await api("GET", `/api/matches/${this.matchId}/snapshot?since=${this.version}`).catch(() => null);
        if (snap && (!this.snapshot || snap.version > this.snapshot.version)) this.applySnapshot(snap);
      }
      return true;
    } catch (err) {
      this.showError(errorText(err), err.code);
      return false;
    }
  }

  // ---------------------------------------------------------------- drawing

  /** Show `text` in the error banner (hide it for no text); `detail`, the server's message for
   * developers, goes to the banner's tooltip only. */
  showError(text, code, detail = "") {
    const { error, errorText: textBox } = this.ui;
    if (!error) return;
    if (!text) {
      error.hidden = true;
      return;
    }
    textBox.textContent = text;
    error.dataset.code = code || "";
    if (detail) error.title = detail;
    else error.removeAttribute("title");
    error.hidden = false;
  }

  render() {
    if (!this.snapshot || !this.ui.root) return;
    if (this.snapshot.status === "aborted") {
      this.ui.root.replaceChildren(abortedNotice(this.snapshot, { expirySeconds: this.expirySeconds }));
      return;
    }
    try {
      this.module.render(this.ui.root, this.snapshot, this);
    } catch (err) {
      console.error("render failed", err);
      this.ui.root.replaceChildren(el("p", { class: "form-error", text: say("table.draw_failed", { message: err.message }) }));
    }
  }

  renderChrome() {
    const snap = this.snapshot;
    renderSeats(this.ui.seats, snap, this.seatOptions());
    renderSeedInfo(this.ui.seed, snap);
    const away = (snap.clock && snap.clock.away) || [];
    if (this.ui.away) this.ui.away.hidden = !(this.seat !== null && snap.status === "active" && away.includes(this.seat));
    if (this.ui.replayLink) this.ui.replayLink.hidden = snap.status !== "finished";
    // a seat that resigned in a larger game (the computer plays it on) has nothing left to resign
    const resigned = (snap.seats || []).some((s) => s.seat === this.seat && s.resigned);
    if (this.ui.resign) this.ui.resign.hidden = !(this.seat !== null && snap.status === "active" && !resigned);
    document.body.dataset.matchStatus = snap.status;
    this.tickClocks();
  }

  /** The clock `seat` shows now: its bank in a time bank match, else the time left of its turn. */
  clockMs(seat) {
    const bank = this.bankMs(seat);
    return bank !== null ? bank : this.remainingMs(seat);
  }

  clockText(seat) {
    const ms = this.clockMs(seat);
    return ms === null ? "" : formatClock(ms);
  }

  tickClocks() {
    const clock = (this.snapshot && this.snapshot.clock) || {};
    for (const node of document.querySelectorAll("[data-clock-seat]")) {
      const seat = Number(node.dataset.clockSeat);
      const ms = this.clockMs(seat);
      const running = this.remainingMs(seat) !== null;
      node.textContent = ms === null ? "" : formatClock(ms);
      node.classList.toggle("low", ms !== null && running && ms < 10000);
      node.classList.toggle("paused", ms !== null && !running);
      if (clock.clock === "bank") {
        node.dataset.bank = "true";
        node.title = say("table.clock.bank", { clock: formatTimeControl(clock) });
      }
    }
  }

  describeEntry(entry) {
    const who = entry.seat === null || entry.seat === undefined || entry.seat < 0 ? null : this.seatName(entry.seat);
    const lines = [];
    let own;
    if (this.module.describeInput) {
      try {
        own = this.module.describeInput(entry, this);
      } catch (err) {
        own = undefined;
      }
    }
    if (typeof own === "string") lines.push(own);
    else if (own !== null) switch (entry.kind) {
      case "start":
      case "timeout":
      case "bot":
      case "back":
      case "resign":
        lines.push(say(`log.${entry.kind}`, { who }));
        break;
      case "action":
        // a simultaneous choice reaches the other seats as a hidden action until it is revealed
        lines.push(say(entry.hidden ? "log.action_hidden" : "log.action", { who }));
        break;
      case "end":
        if (entry.result && (entry.result.results || []).length === 0 && entry.result.reason) {
          const t = abortedText(entry.result, this.expirySeconds);
          lines.push(`${t.headline}. ${t.detail}`);
        } else {
          lines.push(say("log.end"));
        }
        break;
      default:
        break;
    }
    for (const ev of entry.events || []) {
      let text = null;
      if (this.module.describeEvent) {
        try {
          text = this.module.describeEvent(ev, entry, this);
        } catch (err) {
          text = null;
        }
      }
      if (text) lines.push(text);
    }
    return lines;
  }

  /**
   * A log line as a link to the replay at its step (`#step=<version>`: step N is version N). A
   * running match's replay shows this viewer's own past only (app/matches/reads.py), and opens in
   * another tab so the live table stays open.
   */
  stepLink(entry, text) {
    const live = !this.snapshot || this.snapshot.status !== "finished";
    return el("a", {
      class: "log-text log-step", href: `/matches/${this.matchId}/replay#step=${entry.version}`, text,
      target: live ? "_blank" : null, rel: live ? "noopener" : null, title: say("log.step_link"),
    });
  }

  appendLog(entries) {
    const log = this.ui.log;
    if (!log || !entries.length) return;
    const stick = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    for (const entry of entries) {
      const lines = this.describeEntry(entry);
      if (!lines.length) continue;
      const at = parseTime(entry.at);
      const time = at && !Number.isNaN(at.getTime()) ? at.toLocaleTimeString(pageLocale(), { hour: "2-digit", minute: "2-digit", second: "2-digit" }) : "";
      log.append(el("li", { class: `log-entry log-${entry.kind}`, dataset: { version: entry.version } },
        el("span", { class: "log-time", text: time }),
        this.stepLink(entry, lines.join(" "))));
    }
    if (stick) log.scrollTop = log.scrollHeight;
  }
}
