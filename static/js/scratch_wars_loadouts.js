// The Scratch Wars loadout editor (/decks/scratch_wars): list, create, edit, rename and delete
// your saved loadouts through /api/decks; the server's validation messages are shown as they come.
import { api, el, showError } from "/static/js/api.js";
import { deckErrorText, errorText, say } from "/static/js/messages.js";
import { loadoutBuilder, loadoutLine } from "/static/js/scratch_wars_builder.js";
import { icon, loadCatalog } from "/static/js/scratch_wars_cards.js";

const GAME = "scratch_wars";
const $ = (id) => document.getElementById(id);

let cat;
let builder;
let decks = [];
let editing = null; // the deck being edited, or null for a new one
const renaming = new Set();
const deleting = new Set();

function status(text) {
  const box = $("sw-deck-status");
  box.textContent = text || "";
  box.hidden = !text;
}

function startNew() {
  editing = null;
  $("sw-editor-title").textContent = say("sw.decks.new");
  $("sw-name").value = "";
  $("sw-save").textContent = say("sw.decks.save");
  $("sw-save-new").hidden = true;
  builder.set({ hero: null, weapons: [] });
  showError($("sw-deck-error"), "");
  status("");
  drawList();
}

function edit(deck) {
  editing = deck;
  $("sw-editor-title").textContent = say("sw.decks.edit_title", { name: deck.name });
  $("sw-name").value = deck.name;
  $("sw-save").textContent = say("sw.decks.save_changes");
  $("sw-save-new").hidden = false;
  builder.set(deck.data);
  showError($("sw-deck-error"), "");
  status("");
  drawList();
  $("sw-editor-panel").scrollIntoView({ behavior: "smooth", block: "start" });
}

async function refresh() {
  try {
    decks = (await api("GET", `/api/decks?game=${GAME}`)).decks;
    showError($("sw-list-error"), "");
  } catch (err) {
    showError($("sw-list-error"), errorText(err));
  }
  drawList();
}

function drawList() {
  const list = $("sw-deck-list");
  if (!decks.length) {
    list.replaceChildren(el("li", { class: "muted", text: say("sw.decks.none") }));
    return;
  }
  list.replaceChildren(...decks.map((deck) => {
    const hero = cat.hero[deck.data.hero];
    const item = el("li", { class: `sw-deck-item${editing && editing.id === deck.id ? " sw-deck-current" : ""}`, dataset: { deckId: deck.id, name: deck.name } });
    const head = el("div", { class: "sw-deck-head" },
      el("span", { class: "sw-deck-hero-badge", title: hero ? hero.name : "" }, icon("heart", { title: "" }), el("span", { text: hero ? String(hero.lives_duel) : "?" })),
      el("div", { class: "sw-deck-text" },
        el("strong", { class: "sw-deck-name", text: deck.name }),
        el("span", { class: "muted small", text: loadoutLine(cat, deck.data) })));
    const actions = el("div", { class: "sw-deck-actions" });
    if (renaming.has(deck.id)) {
      const input = el("input", { class: "sw-rename-input", value: deck.name, maxlength: 60, "aria-label": say("sw.decks.new_name") });
      const error = el("span", { class: "form-error", hidden: true });
      const ok = el("button", { type: "button", class: "btn btn-small", text: say("sw.decks.ok"), dataset: { action: "rename-ok" } });
      ok.addEventListener("click", async () => {
        try {
          const saved = await api("PUT", `/api/decks/${deck.id}`, { name: input.value.trim() });
          renaming.delete(deck.id);
          showError($("sw-deck-error"), "");
          status(say("sw.decks.renamed", { name: saved.name }));
          if (editing && editing.id === deck.id) {
            editing = saved;
            $("sw-name").value = saved.name;
            $("sw-editor-title").textContent = say("sw.decks.edit_title", { name: saved.name });
          }
          await refresh();
        } catch (err) {
          showError(error, deckErrorText(err, { name: input.value.trim() }));
        }
      });
      input.addEventListener("keydown", (e) => { if (e.key === "Enter") ok.click(); });
      actions.append(input, ok, el("button", { type: "button", class: "btn btn-small btn-ghost", text: say("sw.decks.cancel"),
        onclick: () => { renaming.delete(deck.id); drawList(); } }), error);
    } else if (deleting.has(deck.id)) {
      actions.append(el("span", { class: "sw-confirm-text", text: say("sw.decks.delete_q") }),
        el("button", { type: "button", class: "btn btn-small btn-danger", text: say("sw.decks.delete_yes"), dataset: { action: "delete-yes" },
          onclick: async () => {
            try {
              await api("DELETE", `/api/decks/${deck.id}`);
              deleting.delete(deck.id);
              if (editing && editing.id === deck.id) startNew();
              status(say("sw.decks.deleted", { name: deck.name }));
              await refresh();
            } catch (err) {
              showError($("sw-list-error"), errorText(err));
            }
          } }),
        el("button", { type: "button", class: "btn btn-small btn-ghost", text: say("sw.decks.keep"), onclick: () => { deleting.delete(deck.id); drawList(); } }));
    } else {
      actions.append(
        el("button", { type: "button", class: "btn btn-small", text: say("sw.decks.edit"), dataset: { action: "edit" }, onclick: () => edit(deck) }),
        el("button", { type: "button", class: "btn btn-small btn-ghost", text: say("sw.decks.rename"), dataset: { action: "rename" },
          onclick: () => { renaming.add(deck.id); drawList(); } }),
        el("button", { type: "button", class: "btn btn-small btn-ghost btn-danger", text: say("sw.decks.delete"), dataset: { action: "delete" },
          onclick: () => { deleting.add(deck.id); drawList(); } }));
    }
    item.append(head, actions);
    return item;
  }));
}

/** A save in flight: a second click (a double click) waits for it instead of saving twice. */
let saving = false;

async function save(asNew) {
  if (saving) return;
  showError($("sw-deck-error"), "");
  status("");
  const value = builder.value();
  const name = $("sw-name").value.trim();
  if (!name) {
    showError($("sw-deck-error"), say("sw.decks.need_name"));
    $("sw-name").focus();
    return;
  }
  if (!value.hero) {
    showError($("sw-deck-error"), say("sw.decks.need_hero"));
    return;
  }
  const data = { hero: value.hero, weapons: value.weapons };
  saving = true;
  try {
    let saved;
    if (editing && !asNew) saved = await api("PUT", `/api/decks/${editing.id}`, { name, data });
    else saved = await api("POST", "/api/decks", { game: GAME, name, data });
    status(say("sw.decks.saved", { name: saved.name }));
    await refresh();
    edit(saved);
    status(say("sw.decks.saved", { name: saved.name }));
  } catch (err) {
    // 422 bad_deck (the rules' reason) or 409 name_taken, as the server says it
    showError($("sw-deck-error"), deckErrorText(err, { name }));
  } finally {
    saving = false;
  }
}

async function main() {
  cat = await loadCatalog();
  builder = loadoutBuilder(cat, { idPrefix: "sw" });
  $("sw-builder-slot").replaceChildren(builder.node);
  $("sw-new").addEventListener("click", startNew);
  $("sw-deck-form").addEventListener("submit", (e) => { e.preventDefault(); save(false); });
  $("sw-save-new").addEventListener("click", () => save(true));
  await refresh();
  document.body.dataset.swReady = "1";
}

main();
