// Fallback game module for games without their own drawing yet: shows the view as text and the
// legal actions as buttons, so every game is playable from the browser.
import { el } from "/static/js/api.js";
import { cancelButton } from "/static/js/match_client.js";
import { say } from "/static/js/messages.js";

export function render(root, snapshot, client) {
  const parts = [];
  if (snapshot.status === "waiting") {
    parts.push(el("h2", { text: say("table.generic.waiting") }));
    const cancel = cancelButton(client, snapshot);
    if (cancel) parts.push(el("p", {}, cancel));
  }
  if (snapshot.result) {
    parts.push(el("div", { class: "result", id: "result" }, el("div", { class: "result-headline", text: say("table.generic.over") }),
      el("pre", { text: JSON.stringify(snapshot.result, null, 2) })));
  }
  const legal = snapshot.legal || [];
  if (legal.length && !client.pending) {
    parts.push(el("h3", { text: say("table.generic.your_move") }),
      el("div", { class: "legal-list" }, ...legal.map((action) => el("button", {
        type: "button", class: "btn btn-small", text: JSON.stringify(action), onclick: () => client.act(action),
      }))));
  } else if (client.pending) {
    parts.push(el("p", { class: "muted", text: say("table.generic.sending") }));
  }
  parts.push(el("h3", { text: say("table.generic.view") }), el("pre", { class: "view-json", text: JSON.stringify(snapshot.view, null, 2) }));
  root.replaceChildren(...parts);
}

export function describeEvent(ev) {
  return ev.kind ? ev.kind.replace(/_/g, " ") : null;
}
