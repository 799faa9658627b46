// Entry point of the match page: load the game's module and start the shared match client.
import { pageData } from "/static/js/api.js";
import { MatchClient } from "/static/js/match_client.js";
import { watchRatings } from "/static/js/match_ratings.js";
import { watchRematch } from "/static/js/match_rematch.js";
import { watchSpectators } from "/static/js/match_spectators.js";
import { MatchTable } from "/static/js/match_table.js";
import { TurnAlerts } from "/static/js/turn_alerts.js";

const app = document.getElementById("match-app");
const data = pageData("match-data");
const $ = (id) => document.getElementById(id);

async function main() {
  let module;
  try {
    module = await import(app.dataset.module);
  } catch (err) {
    console.error(err);
    module = await import("/static/js/games/generic.js");
  }
  const client = new MatchClient({
    matchId: Number(app.dataset.matchId),
    module,
    user: data.user,
    match: data.match,
    expirySeconds: data.expiry_seconds ?? null,
    // the result screen's rematch offer, who is connected and the chat (match_table.js), and the
    // spectator count where the match has spectators
    notices: data.match.options && data.match.options.spectators === false
      ? ["rematch", "presence", "chat"] : ["rematch", "spectators", "presence", "chat"],
    elements: {
      root: $("game-root"), seats: $("seats"), log: $("log"), seed: $("seed-info"), conn: $("conn-status"),
      offline: $("offline-banner"), error: $("error-banner"), errorText: $("error-text"),
      errorDismiss: $("error-dismiss"), away: $("away-banner"), back: $("back-button"), resign: $("resign-button"),
      replayLink: $("replay-item"),
    },
  });
  window.matchClient = client; // for debugging and the browser tests
  watchRatings(client, $("rating-changes"), data.match);
  watchRematch(client, $("rematch-panel"), data.match);
  watchSpectators(client, $("spectator-count"));
  window.matchTable = new MatchTable(client, {
    notices: $("table-notices"), chatLines: $("chat-lines"), chatPhrases: $("chat-phrases"), chatNote: $("chat-note"),
  });
  window.turnAlerts = new TurnAlerts(client, { sound: $("turn-sound"), notify: $("turn-notify") },
    app.dataset.gameTitle || "");
  await client.start();
}

main();
