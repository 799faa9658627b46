// The table around the board (issue 16), for every game's match page:
//
//  - notices on the board when a seat's clock runs out (an event of kind "timeout"), when the
//    computer takes a seat over (the seat enters the snapshot's clock.away) and when its player
//    comes back (it leaves clock.away), in #table-notices just above the board; each stays
//    NOTICE_MS, the newest first;
//  - the quick chat: the server's "chat" frames (lines {id, seat, phrase, at}, phrase a code) in
//    #chat-lines, one per id, in the words of messages.js ("chat.<phrase>"); the players get one
//    button per preset phrase (spectators read only). Free text does not exist.
//
// Presence ("connected" / "away" / "gone" on each seat card) is drawn by match_client.js's
// renderSeats from the "presence" frames; turn alerts are in turn_alerts.js.

import { el } from "/static/js/api.js";
import { say } from "/static/js/messages.js";

/** The phrases a player may say (app/matches/chat.py's PHRASES). */
export const PHRASES = ["hello", "good_luck", "well_played", "thanks", "oops"];
/** How long a notice stays on the board (ms). */
export const NOTICE_MS = 20000;
/** Chat lines kept on the page. */
const MAX_LINES = 60;

/**
 * The notices that the snapshot `next` brings after `prev` (null for the first one: nothing, a
 * page just loaded shows the state, not its history): [{kind: "timeout"|"takeover"|"back", seat}].
 * A timeout of a seat that was or becomes away is the computer playing for it: no notice of its own.
 */
export function tableNotices(prev, next) {
  if (!prev || next.status !== "active") return [];
  const awayBefore = new Set((prev.clock && prev.clock.away) || []);
  const awayNow = new Set((next.clock && next.clock.away) || []);
  const out = [];
  const timedOut = new Set();
  for (const entry of next.events || []) {
    if (entry.version <= prev.version || entry.kind !== "timeout") continue;
    if (awayBefore.has(entry.seat) || awayNow.has(entry.seat) || timedOut.has(entry.seat)) continue;
    timedOut.add(entry.seat);
    out.push({ kind: "timeout", seat: entry.seat });
  }
  for (const seat of awayNow) if (!awayBefore.has(seat)) out.push({ kind: "takeover", seat });
  for (const seat of awayBefore) if (!awayNow.has(seat)) out.push({ kind: "back", seat });
  return out;
}

export class MatchTable {
  /**
   * @param {MatchClient} client
   * @param {object} elements {notices, chatLines, chatPhrases, chatNote}
   */
  constructor(client, { notices, chatLines, chatPhrases, chatNote }) {
    this.client = client;
    this.ui = { notices, chatLines, chatPhrases, chatNote };
    this.prev = null;
    this.lines = new Map();
    client.on("snapshot", (snap) => this.onSnapshot(snap));
    client.on("chat", (frame) => this.onChat(frame));
    this.drawChat();
  }

  onSnapshot(snap) {
    for (const notice of tableNotices(this.prev, snap)) this.showNotice(notice);
    this.prev = snap;
    this.drawPhrases();
  }

  /** Put a notice on the board: {kind, seat}. */
  showNotice({ kind, seat }) {
    const box = this.ui.notices;
    if (!box) return;
    const mine = seat === this.client.seat;
    const text = say(`notice.${kind}${mine ? ".you" : ""}`, { who: this.client.seatName(seat) });
    const notice = el("div", {
      class: `table-notice table-notice-${kind}${mine ? " table-notice-mine" : ""}`,
      role: "status",
      dataset: { kind, seat, testid: `notice-${kind}-${seat}` },
      text,
    });
    box.prepend(notice);
    while (box.children.length > 3) box.lastElementChild.remove();
    box.hidden = false;
    setTimeout(() => {
      notice.remove();
      if (!box.children.length) box.hidden = true;
    }, NOTICE_MS);
  }

  onChat(frame) {
    for (const line of frame.lines || []) this.lines.set(line.id, line);
    const ids = [...this.lines.keys()].sort((a, b) => a - b);
    for (const id of ids.slice(0, Math.max(0, ids.length - MAX_LINES))) this.lines.delete(id);
    this.drawChat();
  }

  drawChat() {
    const box = this.ui.chatLines;
    if (!box) return;
    const lines = [...this.lines.values()].sort((a, b) => a.id - b.id);
    if (!lines.length) {
      box.replaceChildren(el("li", { class: "chat-empty muted", text: say("chat.empty") }));
      return;
    }
    const stick = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
    box.replaceChildren(...lines.map((line) => el("li", {
      class: `chat-line${line.seat === this.client.seat ? " chat-mine" : ""}`,
      dataset: { id: line.id, seat: line.seat, phrase: line.phrase },
      text: say("chat.line", { who: this.client.seatName(line.seat), text: say(`chat.${line.phrase}`, {}, line.phrase) }),
    })));
    if (stick) box.scrollTop = box.scrollHeight;
  }

  /** The phrase buttons, for a player of the match; a note for a spectator. */
  drawPhrases() {
    const { chatPhrases: box, chatNote: note } = this.ui;
    const player = !this.client.isSpectator && !!this.client.user;
    if (note) {
      note.textContent = player ? "" : say("chat.spectator");
      note.hidden = player;
    }
    if (!box) return;
    if (!player) {
      box.replaceChildren();
      return;
    }
    if (box.children.length) return;
    box.replaceChildren(...PHRASES.map((phrase) => {
      const button = el("button", {
        type: "button", class: "btn btn-small btn-ghost chat-phrase", dataset: { phrase, testid: `chat-${phrase}` },
        text: say(`chat.${phrase}`),
      });
      button.addEventListener("click", () => {
        if (!this.client.chat(phrase)) this.client.showError(say("error.offline"), "offline");
      });
      return button;
    }));
  }
}
