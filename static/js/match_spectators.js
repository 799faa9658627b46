// The match page's spectator count: "3 spectators", live from the server's `spectators` frames
// (app/matches/table_roster.py: spectator sockets in every server process). Words:
// static/js/messages.js ("spectators.*").

import { say } from "/static/js/messages.js";

/** Show `client`'s match's spectator count in `node` (from the first frame on). */
export function watchSpectators(client, node) {
  if (!node) return;
  client.on("spectators", (frame) => {
    if (frame.match_id !== client.matchId) return;
    node.textContent = say("spectators.count", { count: frame.count });
    node.dataset.count = String(frame.count);
    node.hidden = false;
  });
}
