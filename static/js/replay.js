// The replay page: steps through a match (first / prev / next / last, a slider, the arrow keys and
// the move list: one line per step, each a link to it), drawing each step's view with the game's
// module and listing the step's events. The step is in the address (`#step=N`, 1-based; step N is
// the match's version N): a shared link opens at that step, and a change of the hash (a click in
// the move list, the browser's back button, an edited address) shows its step without a reload.
//
// A finished match shows everything to everybody. A running one (opened from the match page's
// log) is shown as its viewer saw it live: the server builds every step with that seat's view and
// keeps the other seats' hidden choices hidden (app/matches/reads.py, MatchReads.replay); its
// steps are drawn as that seat's, with nothing to play and no half-made choice read or kept.
import { api, el, pageData } from "/static/js/api.js";
import { renderSeats, renderSeedInfo, seatName } from "/static/js/match_client.js";
import { errorText, knows, say } from "/static/js/messages.js";

const app = document.getElementById("replay-app");
const data = pageData("match-data");
const $ = (id) => document.getElementById(id);
const INPUT_KINDS = new Set(["action", "commit", "timeout", "bot"]);

let module;
let replay;
let index = 0;

function seatNameOf(seat) {
  return seatName(replay.match.seats, seat);
}

/** Seats that had chosen (hidden then) at step i, for the players bar. */
function chosenAt(i) {
  const chosen = new Set();
  for (const step of replay.steps.slice(0, i + 1)) {
    const kinds = (step.events || []).map((e) => e.kind);
    if (kinds.includes("turn_resolved") || kinds.includes("hands_dealt")) chosen.clear();
    else if (INPUT_KINDS.has(step.kind) && step.seat !== null && step.seat >= 0) chosen.add(step.seat);
  }
  return [...chosen];
}

function fakeClient(i) {
  return {
    matchId: replay.complete ? replay.match.id : null, // null: drafts (static/js/drafts.js) are left alone
    seat: replay.seat,
    isSpectator: replay.seat === null,
    showPicks: true, // a replay shows each seat's choice as soon as it was made
    replay: true, // the game modules leave out their "Watch the replay" link: this is the replay
    events: replay.steps.slice(0, i + 1),
    pending: null,
    seatName: seatNameOf,
    clockText: () => "",
    remainingMs: () => null,
    act: () => null,
  };
}

/** A chance step by what chance did, from its action's key: the cards shuffled ("shuffle"), dice
 * rolled ("dice", their faces), a die rolled ("die"), a wheel spun ("start_spin", "segment"),
 * loadouts drawn ("loadouts"); "hidden" while the outcome is still secret. */
function chanceLine(step) {
  const action = step.action && typeof step.action === "object" ? step.action : null;
  const key = action ? Object.keys(action)[0] : step.hidden ? "hidden" : "";
  const dice = action && Array.isArray(action.dice) ? action.dice.join(" ") : "";
  return knows(`replay.chance.${key}`) ? say(`replay.chance.${key}`, { dice }) : say("replay.chance");
}

/** The seats as they were at step i: a seat is marked resigned from its "resign" step on. */
function seatsAt(i) {
  const resigned = new Set(replay.steps.slice(0, i + 1).filter((s) => s.kind === "resign").map((s) => s.seat));
  return replay.match.seats.map((s) => ({ ...s, resigned: resigned.has(s.seat) }));
}

function describe(step, client) {
  const lines = [];
  const who = step.seat !== null && step.seat >= 0 ? seatNameOf(step.seat) : null;
  const label = module.shortLabel || ((id) => id);
  // every replay.* sentence ends right after {picked} with its full stop: a list ending in an
  // abbreviation ("S ⇄ R soup.") gives it its own ("soup.", not "soup..")
  const picked = step.action && step.action.runes ? ` ${step.action.runes.map(label).join(", ")}`.replace(/\.$/, "") : "";
  const kind = step.kind === "commit" ? "action" : step.kind;
  if (kind === "chance") lines.push(chanceLine(step));
  else if (knows(`replay.${kind}`)) lines.push(say(`replay.${kind}`, { who, picked }));
  for (const ev of step.events || []) {
    const text = module.describeEvent ? module.describeEvent(ev, step, client) : ev.kind;
    if (text) lines.push(text);
  }
  return lines;
}

/** The step of the address (`#step=N`, 1-based) as an index, or null when it names none. */
function stepFromHash() {
  const m = /(?:^#|&)step=(\d+)/.exec(window.location.hash);
  return m ? Number(m[1]) - 1 : null;
}

/** The move list: one line per step that says something, each a link to its step. */
function renderMoveList() {
  const items = [];
  replay.steps.forEach((step, i) => {
    const lines = describe(step, fakeClient(i));
    if (!lines.length) return;
    items.push(el("li", { class: "move", dataset: { step: i + 1 } },
      el("a", { class: "move-link", href: `#step=${i + 1}` },
        el("span", { class: "move-no", text: `${i + 1}.` }), " ", lines.join(" "))));
  });
  $("move-list").replaceChildren(...items);
}

/** Mark the line of step `i` (or the last line before it) as the current one, in sight. */
function markMove(i) {
  const list = $("move-list");
  let current = null;
  for (const li of list.children) {
    li.removeAttribute("aria-current");
    if (Number(li.dataset.step) <= i + 1) current = li;
  }
  if (!current) return;
  current.setAttribute("aria-current", "step");
  const top = current.offsetTop - list.offsetTop;
  if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  }
}

function show(i) {
  const steps = replay.steps;
  index = Math.max(0, Math.min(steps.length - 1, i));
  const step = steps[index];
  const last = index === steps.length - 1;
  const ended = last && replay.complete;
  const client = fakeClient(index);
  const snapshot = {
    type: "snapshot", match_id: client.matchId, game: replay.match.game, version: step.version, seat: replay.seat,
    status: ended ? "finished" : "active", view: step.view, to_act: [], chosen: chosenAt(index), legal: [],
    clock: { turn_seconds: 0, remaining_ms: {}, away: [] }, events: client.events,
    result: ended ? replay.match.result : null, seed_hash: replay.match.seed_hash, seats: seatsAt(index),
  };
  if (!last && step.view && step.view.over) snapshot.status = "finished";
  try {
    module.render($("game-root"), snapshot, client);
  } catch (err) {
    $("game-root").replaceChildren(el("p", { class: "form-error", text: say("replay.draw_failed", { message: err.message }) }));
  }
  renderSeats($("seats"), snapshot, { me: replay.seat });
  $("step-info").replaceChildren(
    el("p", { class: "step-head" }, el("strong", { text: say("replay.step_of", { n: index + 1, total: steps.length }) }),
      el("span", { class: "muted", text: ` · ${say("replay.version", { version: step.version })} · ${say(`replay.kind.${step.kind}`, {}, step.kind)}` })),
    el("ul", { class: "step-lines", id: "step-lines" }, ...describe(step, client).map((t) => el("li", { text: t }))));
  $("replay-pos").textContent = `${index + 1} / ${steps.length}`;
  $("replay-slider").value = String(index);
  $("replay-first").disabled = $("replay-prev").disabled = index === 0;
  $("replay-next").disabled = $("replay-last").disabled = last;
  app.dataset.step = String(index + 1);
  markMove(index);
  // the address follows without a history entry per key press (replaceState fires no hashchange)
  if (stepFromHash() !== index) history.replaceState(null, "", `#step=${index + 1}`);
}

async function main() {
  module = await import(app.dataset.module).catch(() => import("/static/js/games/generic.js"));
  if (module.setup) await module.setup(null);
  try {
    replay = await api("GET", `/api/matches/${app.dataset.matchId}/replay`);
  } catch (err) {
    $("game-root").replaceChildren(el("p", { class: "form-error", id: "replay-error", text: errorText(err) }));
    return;
  }
  renderSeedInfo($("seed-info"), replay.match);
  if (!replay.complete) {
    const as = replay.seat === null ? say("replay.live.spectator") : say("replay.live.seat", { who: seatNameOf(replay.seat) });
    $("replay-live").textContent = `${say("replay.live")} ${as}`;
    $("replay-live").hidden = false;
  }
  $("replay-slider").max = String(replay.steps.length - 1);
  $("replay-slider").disabled = false; // the controls are disabled until the steps are here to show
  $("replay-first").addEventListener("click", () => show(0));
  $("replay-prev").addEventListener("click", () => show(index - 1));
  $("replay-next").addEventListener("click", () => show(index + 1));
  $("replay-last").addEventListener("click", () => show(replay.steps.length - 1));
  $("replay-slider").addEventListener("input", (e) => show(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target && ["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName) && e.target.type !== "range") return;
    if (e.altKey || e.ctrlKey || e.metaKey) return; // the browser's own shortcuts (Alt+← is "back")
    let to = null;
    if (e.key === "ArrowLeft") to = index - 1;
    else if (e.key === "ArrowRight") to = index + 1;
    else if (e.key === "Home") to = 0;
    else if (e.key === "End") to = replay.steps.length - 1;
    if (to === null) return;
    e.preventDefault(); // a focused slider would move a second step, the page would scroll
    show(to);
  });
  window.addEventListener("hashchange", () => {
    const to = stepFromHash();
    if (to !== null && to !== index) show(to);
  });
  renderMoveList();
  const start = stepFromHash();
  show(start === null ? 0 : start);
  app.dataset.ready = "true";
}

main();
