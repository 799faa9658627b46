// The result screen's rating changes: once a match that counts for the ratings has ended, ask
// /api/matches/{id}/ratings until the ratings consumer has applied it (usually within a second),
// then show each seat's change: "alice 1500 → 1658 (+158)", "?" while a rating is provisional.

import { api, el, playerLink } from "/static/js/api.js";
import { formatNumber, say } from "/static/js/messages.js";

const POLL_MS = 500;
const POLL_FOR_MS = 60000;

/** "+158", "−12", "±0" */
function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
}

/** Draw the applied changes (`body` is the API's answer) into `box`. */
export function renderRatingChanges(box, body) {
  const items = body.changes.map((c) => el("li", { dataset: { seat: c.seat, testid: `rating-change-${c.seat}` } },
    playerLink(c.user), " ",
    el("span", { class: `delta ${c.delta > 0 ? "up" : c.delta < 0 ? "down" : ""}` },
      `${c.rating_before} → ${c.rating_after}${c.provisional ? "?" : ""} (${signed(c.delta)})`),
    c.points ? el("span", { class: "muted", text: ` · ${say("table.ratings.points", { count: c.points, points: formatNumber(c.points) })}` }) : null));
  box.replaceChildren(el("h2", { text: say("table.ratings.title") }), el("ul", {}, ...items),
    el("p", {}, el("a", { href: `/ladders/${encodeURIComponent(body.pool)}`, text: say("table.ratings.ladder") })));
  box.dataset.state = "applied";
  box.hidden = false;
}

/** Show the rating changes in `box` when `client`'s match ends, if it is rated (`match.origin`). */
export function watchRatings(client, box, match) {
  if (!box || !match || match.origin !== "rated") return;
  let started = false;
  const poll = async () => {
    const until = performance.now() + POLL_FOR_MS;
    box.hidden = false;
    box.dataset.state = "waiting";
    box.replaceChildren(el("p", { class: "muted", text: say("table.ratings.updating") }));
    while (performance.now() < until) {
      try {
        const body = await api("GET", `/api/matches/${match.id}/ratings`);
        if (!body.counts) {
          box.dataset.state = "not_counted";
          box.replaceChildren(el("p", { class: "muted", text: say("table.ratings.not_counted") }));
          return;
        }
        if (body.applied) {
          renderRatingChanges(box, body);
          return;
        }
      } catch (err) {
        console.warn("ratings not available yet", err);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    box.dataset.state = "late";
    box.replaceChildren(el("p", { class: "muted", text: say("table.ratings.late") }));
  };
  const check = (snap) => {
    if (!started && snap && snap.status === "finished") {
      started = true;
      poll();
    }
  };
  client.on("snapshot", check);
  check(client.snapshot);
}
