// The clan pages (templates/clans.html, clan.html): every button and form calls /api/clans
// (app/clans/routes.py) and, when it worked, shows the page again as the server now renders it;
// a refusal is shown in the words of static/js/messages.js, from its code and parameters.
import { api, showError } from "/static/js/api.js";
import { errorText, knows, say } from "/static/js/messages.js";

const errorBox = document.getElementById("clan-error");
const clanBox = document.getElementById("clan");
const pageTag = clanBox ? clanBox.dataset.tag : null;

const path = (tag, ...rest) => ["/api/clans", encodeURIComponent(tag), ...rest.map((p) => encodeURIComponent(String(p)))].join("/");

/**
 * The words for a refusal of a clan form: a refused field (validation_error) says the rule for that
 * field ("clan.validation_error.<field>.<type>", else "clan.validation_error.<field>"); anything
 * else, or a field of another form (`clanFields` false: the invitation's player name), as errorText.
 */
function clanErrorText(err, clanFields) {
  if (clanFields && err && err.code === "validation_error" && err.params) {
    const field = err.params.field;
    const first = (err.params.errors || []).find((e) => e && e.field === field) || {};
    for (const key of [`clan.validation_error.${field}.${first.type}`, `clan.validation_error.${field}`]) {
      if (field && knows(key)) return say(key, err.params);
    }
  }
  return errorText(err);
}

/**
 * Show `message` where the player is looking: in the error box of the form `control` is in (next
 * to its button), else in the page's (showError scrolls it into view).
 */
function refuse(control, message) {
  const form = control && control.closest("form");
  showError((form && form.querySelector(".form-error")) || errorBox, message);
}

/**
 * Run `call`; when it worked go to `next` (a path, or a function of the answer giving one; none:
 * this page again), else show the refusal (refuse) and let the control be used again.
 */
async function act(control, call, next, clanFields = false) {
  for (const box of document.querySelectorAll(".form-error")) showError(box, "");
  if (control) control.disabled = true;
  try {
    const answer = await call();
    const target = typeof next === "function" ? next(answer) : next;
    if (target) window.location.assign(target);
    else window.location.reload();
  } catch (err) {
    refuse(control, clanErrorText(err, clanFields));
    if (control) control.disabled = false;
  }
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-action]");
  if (!button) return;
  const { action, invitation, user, role, confirm: confirmKey } = button.dataset;
  const tag = button.dataset.tag || pageTag;
  if (confirmKey && !window.confirm(say(`clan.confirm.${confirmKey}`))) return;
  const calls = {
    request: () => act(button, () => api("POST", path(tag, "requests"))),
    accept: () => act(button, () => api("POST", path(tag, "invitations", invitation, "accept"))),
    decline: () => act(button, () => api("POST", path(tag, "invitations", invitation, "decline"))),
    leave: () => act(button, () => api("POST", path(tag, "leave")), "/clans"),
    role: () => act(button, () => api("POST", path(tag, "members", user, "role"), { role })),
    remove: () => act(button, () => api("POST", path(tag, "members", user, "remove"))),
    disband: () => act(button, () => api("POST", path(tag, "disband")), "/clans"),
  };
  if (calls[action]) calls[action]();
});

const foundForm = document.getElementById("found-form");
if (foundForm) {
  foundForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const f = foundForm.elements;
    const body = {
      name: f.name.value.trim(),
      tag: f.tag.value.trim(),
      region: f.region.value,
      colour: f.colour.value,
      description: f.description.value,
    };
    if (!body.name) return refuse(foundForm, say("form.enter_name"));
    act(
      document.getElementById("found-submit"),
      () => api("POST", "/api/clans", body),
      (page) => `/clans/${encodeURIComponent(page.clan.tag)}`,
      true,
    );
  });
}

const inviteForm = document.getElementById("invite-form");
if (inviteForm) {
  inviteForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = inviteForm.elements.name.value.trim();
    if (!name) return refuse(inviteForm, say("form.enter_name"));
    act(inviteForm.querySelector("button"), () => api("POST", path(pageTag, "invitations"), { name }));
  });
}

const updateForm = document.getElementById("update-form");
if (updateForm) {
  updateForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const f = updateForm.elements;
    const body = { region: f.region.value, colour: f.colour.value, description: f.description.value };
    act(updateForm.querySelector("button"), () => api("PATCH", path(pageTag), body), undefined, true);
  });
}
