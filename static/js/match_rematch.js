// The result screen's rematch: once the match is over, a player gets "Rematch" (or "Play the
// computer again" when every other seat was the computer) and the live state of the offer from the
// server's `rematch` frames (app/gateway/frames.py; the rules in app/matches/rematch.py): the
// other player sees "X offers a rematch" with Accept and Decline, the offerer "Waiting for X…"
// with Withdraw. Once every player has agreed the rematch has started, and each player's page
// goes to it; a spectator gets a link to watch it. Words: static/js/messages.js ("rematch.*").

import { api, el } from "/static/js/api.js";
import { errorText, say } from "/static/js/messages.js";

/** `seats` (numbers) as "ann and bob" by the client's names ("table.and"). */
function names(client, seats) {
  const list = seats.map((s) => client.seatName(s));
  return list.length > 1 ? say("table.and", { list: list.slice(0, -1).join(", "), last: list[list.length - 1] }) : list.join("");
}

/** Draw the rematch panel in `box` and keep it live for `client`'s match (`match`: the page's info). */
export function watchRematch(client, box, match) {
  if (!box || !match) return;
  let state = null;
  let error = "";
  let moved = false;

  const isPlayer = () => client.seat !== null && client.seat !== undefined;
  const computerOnly = () => (client.snapshot.seats || []).filter((s) => s.seat !== client.seat).every((s) => !!s.bot);
  const rated = () => (state ? state.rated : match.origin === "rated");

  async function send(path) {
    error = "";
    try {
      state = await api("POST", `/api/matches/${client.matchId}/${path}`);
    } catch (err) {
      error = errorText(err);
    }
    draw();
  }

  function button(id, text, onclick, extra = "") {
    return el("button", { type: "button", class: `btn btn-small ${extra}`.trim(), id, text, onclick: (event) => {
      event.currentTarget.disabled = true;
      onclick();
    } });
  }

  function draw() {
    const snap = client.snapshot;
    if (!snap || snap.status !== "finished") {
      box.hidden = true;
      return;
    }
    const s = state || { status: "none", agreed: [], waiting_for: [], offered_by: null, declined_by: null, rematch_id: null };
    const parts = [];
    const me = client.seat;
    if (s.status === "accepted" && s.rematch_id) {
      const href = `/matches/${s.rematch_id}`;
      parts.push(el("p", { id: "rematch-status", text: say("rematch.started") }),
        el("p", {}, el("a", { class: "btn", id: "rematch-link", href, text: say(isPlayer() ? "rematch.go" : "rematch.watch") })));
      if (isPlayer() && !moved) {
        moved = true;
        window.location.assign(href);
      }
    } else if (!isPlayer()) {
      box.hidden = true;
      return;
    } else if (s.status === "open" && s.agreed.includes(me)) {
      const key = s.offered_by === me ? "rematch.offered_by_you" : "rematch.waiting";
      parts.push(el("p", { id: "rematch-status", text: say(key, { whom: names(client, s.waiting_for) }) }),
        el("p", {}, button("rematch-withdraw", say("rematch.withdraw"), () => send("rematch/decline"), "btn-ghost")));
    } else if (s.status === "open") {
      const key = s.rated ? "rematch.offered_to_you_rated" : "rematch.offered_to_you";
      parts.push(el("p", { id: "rematch-status", text: say(key, { who: client.seatName(s.offered_by) }) }),
        el("p", {}, button("rematch-accept", say("rematch.accept"), () => send("rematch/accept")), " ",
          button("rematch-decline", say("rematch.decline"), () => send("rematch/decline"), "btn-ghost")));
    } else {
      if (s.status === "declined" && s.declined_by !== null) {
        let line;
        if (s.declined_by === me) line = say("rematch.declined_by_you");
        else if (s.declined_by === s.offered_by) line = say("rematch.withdrawn", { who: client.seatName(s.declined_by) });
        else line = say("rematch.declined_by", { who: client.seatName(s.declined_by) });
        parts.push(el("p", { id: "rematch-status", text: line }));
      }
      const text = computerOnly() ? say("rematch.computer_again") : say(rated() ? "rematch.offer_rated" : "rematch.offer");
      parts.push(el("p", {}, button("rematch-offer", text, () => send("rematch"))));
    }
    if (error) parts.push(el("p", { class: "form-error", role: "alert", id: "rematch-error", text: error }));
    box.replaceChildren(...parts);
    box.dataset.state = s.status;
    box.hidden = false;
  }

  // the panel follows the game's result box (#result, drawn by the game's module in #game-root),
  // so the result reads first; the game redraws its board on every snapshot, so it is placed again
  // after each redraw. Before there is a result it stays where the page has it (templates/match.html).
  const home = box.parentNode;
  const anchor = box.nextSibling;
  const gameRoot = document.getElementById("game-root");
  function place() {
    const result = gameRoot ? gameRoot.querySelector("#result") : null;
    if (result) {
      if (result.nextElementSibling !== box) result.after(box);
    } else if (box.parentNode !== home && home) {
      home.insertBefore(box, anchor && anchor.parentNode === home ? anchor : null);
    }
  }
  if (gameRoot && typeof MutationObserver !== "undefined") {
    new MutationObserver(place).observe(gameRoot, { childList: true, subtree: true });
  }
  place();

  client.on("rematch", (frame) => {
    if (frame.match_id !== client.matchId) return;
    state = frame;
    draw();
  });
  client.on("snapshot", draw);
}
