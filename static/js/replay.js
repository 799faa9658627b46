// The replay page: steps through a finished match (first / prev / next / last, a slider and the
// arrow keys), drawing each step's view with the game's module and listing the step's events.
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
    matchId: replay.match.id,
    seat: null,
    isSpectator: true,
    showPicks: true, // a replay shows each seat's choice as soon as it was made
    events: replay.steps.slice(0, i + 1),
    pending: null,
    seatName: seatNameOf,
    clockText: () => "",
    remainingMs: () => null,
    act: () => null,
  };
}

function describe(step, client) {
  const lines = [];
  const who = step.seat !== null && step.seat >= 0 ? seatNameOf(step.seat) : null;
  const label = module.shortLabel || ((id) => id);
  const picked = step.action && step.action.runes ? ` ${step.action.runes.map(label).join(", ")}` : "";
  const kind = step.kind === "commit" ? "action" : step.kind;
  if (knows(`replay.${kind}`)) lines.push(say(`replay.${kind}`, { who, picked }));
  for (const ev of step.events || []) {
    const text = module.describeEvent ? module.describeEvent(ev, step, client) : ev.kind;
    if (text) lines.push(text);
  }
  return lines;
}

function show(i) {
  const steps = replay.steps;
  index = Math.max(0, Math.min(steps.length - 1, i));
  const step = steps[index];
  const last = index === steps.length - 1;
  const client = fakeClient(index);
  const snapshot = {
    type: "snapshot", match_id: replay.match.id, game: replay.match.game, version: step.version, seat: null,
    status: last ? "finished" : "active", view: step.view, to_act: [], chosen: chosenAt(index), legal: [],
    clock: { turn_seconds: 0, remaining_ms: {}, away: [] }, events: client.events,
    result: last ? replay.match.result : null, seed_hash: replay.match.seed_hash, seats: replay.match.seats,
  };
  if (!last && step.view && step.view.over) snapshot.status = "finished";
  try {
    module.render($("game-root"), snapshot, client);
  } catch (err) {
    $("game-root").replaceChildren(el("p", { class: "form-error", text: `Cannot draw this step: ${err.message}` }));
  }
  renderSeats($("seats"), snapshot, {});
  $("step-info").replaceChildren(
    el("p", { class: "step-head" }, el("strong", { text: `Step ${index + 1} of ${steps.length}` }),
      el("span", { class: "muted", text: ` · version ${step.version} · ${step.kind}` })),
    el("ul", { class: "step-lines", id: "step-lines" }, ...describe(step, client).map((t) => el("li", { text: t }))));
  $("replay-pos").textContent = `${index + 1} / ${steps.length}`;
  $("replay-slider").value = String(index);
  $("replay-first").disabled = $("replay-prev").disabled = index === 0;
  $("replay-next").disabled = $("replay-last").disabled = last;
  app.dataset.step = String(index);
  history.replaceState(null, "", `#step=${index + 1}`);
}

async function main() {
  module = await import(app.dataset.module).catch(() => import("/static/js/games/generic.js"));
  if (module.setup) await module.setup(null);
  try {
    replay = await api("GET", `/api/matches/${app.dataset.matchId}/replay`);
  } catch (err) {
    $("game-root").replaceChildren(el("p", { class: "form-error", text: errorText(err) }));
    return;
  }
  renderSeedInfo($("seed-info"), replay.match);
  $("replay-slider").max = String(replay.steps.length - 1);
  $("replay-first").addEventListener("click", () => show(0));
  $("replay-prev").addEventListener("click", () => show(index - 1));
  $("replay-next").addEventListener("click", () => show(index + 1));
  $("replay-last").addEventListener("click", () => show(replay.steps.length - 1));
  $("replay-slider").addEventListener("input", (e) => show(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target && ["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName) && e.target.type !== "range") return;
    if (e.key === "ArrowLeft") show(index - 1);
    else if (e.key === "ArrowRight") show(index + 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(replay.steps.length - 1);
  });
  const m = /step=(\d+)/.exec(window.location.hash);
  show(m ? Number(m[1]) - 1 : 0);
}

main();
