// "My Stratego Junior setups" (/decks/stratego_junior): list, create, edit, rename and delete the
// saved setups (decks of the game stratego_junior, /api/decks), with the match page's placement
// editor. A setup's data is {towers: [ids], rows: [[ids] x depth]} in its owner's orientation, of
// the board the server describes (the page's game-data: geometry and catalog).
import { api, el, showError } from "/static/js/api.js";
import { deckErrorText, errorText, say } from "/static/js/messages.js";
import {
  GAME, castleCount, castleTile, draftFrom, draftPayload, emptyDraft, isComplete, placementEditor, setup,
} from "/static/js/games/stratego_junior.js";

const $ = (id) => document.getElementById(id);
const listBox = $("sj-deck-list");
const editorBox = $("sj-deck-editor");
const title = $("sj-editor-title");
const pageError = $("sj-decks-error");

let decks = [];
let current = null; // the deck being edited, or null for a new one
let renaming = null; // deck id
let deleting = null; // deck id
const st = { draft: null, sel: null, hint: "", colour: 0, name: "", msg: "", ok: false };

function message(err, name) {
  return deckErrorText(err, { name });
}

async function refresh() {
  try {
    const res = await api("GET", `/api/decks?game=${GAME}`);
    decks = res.decks || [];
    showError(pageError, "");
  } catch (err) {
    showError(pageError, errorText(err));
  }
  drawList();
}

function mini(data) {
  const rows = (data && data.rows) || [];
  const towers = (data && data.towers) || [];
  return el("div", { class: "sj-mini-wrap", "aria-hidden": "true" },
    el("div", { class: "sj-mini" }, ...rows.flat().map((p) => castleTile(p, { owner: 0, title: "" }))),
    el("div", { class: "sj-mini-towers" }, ...towers.map((p) => castleTile(p, { owner: 0, big: true, title: "" }))));
}

function drawList() {
  if (!decks.length) {
    listBox.replaceChildren(el("li", { class: "muted", id: "sj-no-decks", text: say("sj.setups.none") }));
    return;
  }
  listBox.replaceChildren(...decks.map((deck) => {
    const item = el("li", { class: `sj-deck-item${current && current.id === deck.id ? " current" : ""}`, dataset: { deckId: deck.id, testid: "deck" } });
    const error = el("p", { class: "form-error sj-deck-error", hidden: true });
    const head = el("div", { class: "sj-deck-head" });
    if (renaming === deck.id) {
      const input = el("input", { type: "text", value: deck.name, maxlength: "60", "aria-label": say("sj.setups.new_name"), class: "sj-rename-input" });
      const save = el("button", { type: "button", class: "btn btn-small", text: say("sj.setups.save_name"), dataset: { action: "rename-save" } });
      const cancel = el("button", { type: "button", class: "btn btn-small btn-ghost", text: say("sj.setups.cancel") });
      const doSave = async () => {
        const name = input.value.trim();
        if (!name) {
          showError(error, say("sj.setups.needs_name"));
          return;
        }
        try {
          const updated = await api("PUT", `/api/decks/${deck.id}`, { name });
          renaming = null;
          if (current && current.id === deck.id) {
            current = updated;
            st.name = updated.name;
            drawEditor();
          }
          await refresh();
        } catch (err) {
          showError(error, message(err, name));
        }
      };
      save.addEventListener("click", doSave);
      input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); doSave(); } });
      cancel.addEventListener("click", () => { renaming = null; drawList(); });
      head.append(el("div", { class: "sj-rename" }, input, save, cancel));
      setTimeout(() => input.focus(), 0);
    } else {
      const edit = el("button", { type: "button", class: "btn btn-small", text: say("sj.setups.edit"), dataset: { action: "edit" } });
      edit.addEventListener("click", () => openDeck(deck));
      const rename = el("button", { type: "button", class: "btn btn-small btn-ghost", text: say("sj.setups.rename"), dataset: { action: "rename" } });
      rename.addEventListener("click", () => { renaming = deck.id; deleting = null; drawList(); });
      const del = el("button", { type: "button", class: "btn btn-small btn-ghost btn-danger", text: say("sj.setups.delete"), dataset: { action: "delete" } });
      del.addEventListener("click", () => { deleting = deck.id; renaming = null; drawList(); });
      head.append(el("span", { class: "sj-deck-name", text: deck.name }), el("span", { class: "sj-deck-actions" }, edit, rename, del));
    }
    item.append(head);
    if (deleting === deck.id) {
      const yes = el("button", { type: "button", class: "btn btn-small btn-danger", text: say("sj.setups.delete_yes"), dataset: { action: "delete-yes" } });
      const no = el("button", { type: "button", class: "btn btn-small btn-ghost", text: say("sj.setups.delete_no") });
      yes.addEventListener("click", async () => {
        try {
          await api("DELETE", `/api/decks/${deck.id}`);
          deleting = null;
          if (current && current.id === deck.id) newSetup();
          await refresh();
        } catch (err) {
          showError(error, errorText(err));
        }
      });
      no.addEventListener("click", () => { deleting = null; drawList(); });
      item.append(el("p", { class: "sj-confirm-delete" }, `${say("sj.setups.delete_confirm", { name: deck.name })} `, yes, " ", no));
    }
    item.append(mini(deck.data), error);
    return item;
  }));
}

function openDeck(deck) {
  current = deck;
  st.draft = draftFrom(deck.data);
  st.sel = null;
  st.hint = "";
  st.name = deck.name;
  st.msg = "";
  drawEditor();
  drawList();
  editorBox.scrollIntoView({ behavior: "smooth", block: "start" });
}

function newSetup() {
  current = null;
  st.draft = emptyDraft();
  st.sel = null;
  st.hint = "";
  st.name = "";
  st.msg = "";
  drawEditor();
  drawList();
}

/** A save in flight: a second click (a double click) waits for it instead of saving twice (the
 * second POST was refused as a name already taken, and said so under the saved setup). */
let saving = false;

async function save(asNew) {
  if (saving) return;
  const name = (st.name || "").trim();
  if (!name) {
    st.msg = say("sj.save.need_name");
    st.ok = false;
    drawEditor();
    return;
  }
  saving = true;
  for (const id of ["sj-deck-save", "sj-deck-save-new"]) {
    const button = document.getElementById(id);
    if (button) button.disabled = true;
  }
  try {
    const body = { game: GAME, name, data: draftPayload(st.draft) };
    const deck = current && !asNew
      ? await api("PUT", `/api/decks/${current.id}`, { name, data: body.data })
      : await api("POST", "/api/decks", body);
    current = deck;
    st.name = deck.name;
    st.msg = say("sj.setups.saved", { name: deck.name });
    st.ok = true;
    await refresh();
  } catch (err) {
    st.msg = message(err, name);
    st.ok = false;
  } finally {
    saving = false;
  }
  drawEditor();
}

function drawEditor() {
  title.textContent = current ? say("sj.setups.editing", { name: current.name }) : say("sj.setups.new");
  const complete = isComplete(st.draft);
  const nameInput = el("input", {
    type: "text", id: "sj-deck-name", maxlength: "60", placeholder: say("sj.setups.name_placeholder"),
    value: st.name || "", "aria-label": say("sj.save.name"),
  });
  nameInput.addEventListener("input", () => { st.name = nameInput.value; });
  nameInput.addEventListener("keydown", (e) => { if (e.key === "Enter" && complete) { e.preventDefault(); save(false); } });
  const saveButton = el("button", { type: "button", class: "btn", id: "sj-deck-save", disabled: !complete },
    current ? say("sj.setups.save_changes") : say("sj.setups.save"));
  saveButton.addEventListener("click", () => save(false));
  const saveNew = current ? el("button", { type: "button", class: "btn btn-ghost", id: "sj-deck-save-new", disabled: !complete, text: say("sj.setups.save_new") }) : null;
  if (saveNew) saveNew.addEventListener("click", () => save(true));
  const box = el("div", { class: "sj-save" },
    el("div", { class: "sj-save-row" }, nameInput, saveButton, saveNew),
    el("p", { class: `sj-save-msg${st.ok ? " ok" : st.msg ? " bad" : ""}`, id: "sj-deck-msg", role: "status", text: st.msg || "" }),
    complete ? null : el("p", { class: "muted small", text: say("sj.setups.place_all", { count: castleCount() }) }));
  const editor = placementEditor(st, {
    redraw: () => { st.msg = ""; drawEditor(); }, ownHalf: true, extra: box,
  });
  editorBox.replaceChildren(el("p", { class: "muted small", text: say("sj.setups.edge") }), editor);
}

$("sj-new").addEventListener("click", newSetup);

async function main() {
  try {
    await setup();
  } catch (err) {
    editorBox.replaceChildren(el("p", { class: "form-error", text: errorText(err) }));
    return;
  }
  st.draft = emptyDraft();
  drawEditor();
  await refresh();
}

main();
