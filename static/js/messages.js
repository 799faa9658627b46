// The words of the pages for the codes the server sends: errors (HTTP bodies and websocket
// `error` frames: {code, message, params}), the match log's entry kinds, why a match ended, and
// Battle Runes' resolution steps. The server sends codes and parameters; `message` is English for
// developers and is shown only for a code this table does not know.
//
// One table, `WORDS`, key -> template. An error's key is "error.<code>", or "error.<code>.<reason>"
// when its params carry a `reason` that has an entry of its own. A template is
//   - a string with {name} placeholders filled from the params ("Passwords need at least {min} characters."),
//   - or a list of such strings, most specific first: the first whose placeholders are all in the
//     params is used, so "You already have {count} matches waiting" falls back to a sentence
//     without the number when the server did not send `count`.
// To translate, build a table with the same keys and call useWords(table); keys missing there
// fall back to English.
//
// {message} in an error template is the server's English sentence. Only two codes use it, for
// reasons the rules engines do not yet send as codes: bad_deck (why a deck breaks the game's
// rules) and bad_options (which option or seat is refused); a translated table can leave it out.

/** English, the default table. Keys: "error.<code>", "log.<kind>", "reason.<reason>", "br.step.<code>". */
export const WORDS = {
  // ---------------------------------------------------------------- errors
  // (params as app/errors.py's ErrorCode documents them)
  "error.stale_version": "The match moved on before your move arrived. Here is the new position; please choose again.",
  "error.not_your_turn": "It is not your turn.",
  "error.illegal_action": "That move is not allowed.",
  "error.bad_message": ["That message was not understood (“{field}”).", "That message was not understood."],
  "error.game_over": "The match is over.",
  "error.rate_limited": ["Slow down: try again in {retry_after} seconds.", "Slow down: too many messages."],
  "error.unauthorized": "You are not allowed to do that here. Are you logged in?",
  "error.forbidden": "You are not allowed to do that.",
  "error.not_found": [
    "There is no match {match_id}.", "There is no game “{game}”.", "That saved deck does not exist (any more).",
    "This does not exist (any more).",
  ],
  "error.not_started": "The match has not started yet: waiting for players.",
  "error.not_waiting": "This match is no longer waiting for players.",
  "error.match_full": "This match has no free seat left.",
  "error.already_joined": "You already have a seat in this match.",
  "error.too_many_matches": [
    "You already have {limit} matches waiting for players; cancel one first.",
    "You already have too many matches waiting for players; cancel one first.",
  ],
  "error.not_finished": "The replay opens when the match is over.",
  "error.bad_options": ["These match settings are not accepted: {message}.", "These match settings are not accepted."],
  "error.validation_error": ["Something in the form is not right (“{field}”).", "Something in the form is not right."],
  "error.name_taken": ["The name “{name}” is taken: choose another one.", "That name is taken: choose another one."],
  "error.bad_name": "That name is not allowed.",
  "error.bad_name.length": ["A name has {min} to {max} characters; this one has {length}.", "That name is too short or too long."],
  "error.bad_name.characters": "That name contains characters that are not allowed.",
  "error.weak_password": "Choose a stronger password.",
  "error.weak_password.too_short": ["Passwords need at least {min} characters.", "That password is too short."],
  "error.weak_password.too_long": ["Passwords can have at most {max} characters.", "That password is too long."],
  "error.weak_password.repeated": "A password cannot be one character repeated.",
  "error.weak_password.same_as_name": "A password cannot be the same as the name.",
  "error.bad_credentials": "Wrong name or password.",
  "error.bad_deck": ["The rules do not allow this deck: {message}.", "The rules do not allow this deck."],
  "error.internal_error": "Something went wrong on the server. Please try again.",
  "error.network": "The server cannot be reached. Check your connection and try again.",
  "error.offline": "You are offline: your move was not sent. It will be possible again once reconnected.",
  "error.conflict": "That clashes with something that changed meanwhile; please try again.",
  "error.bad_request": "The server did not understand that request.",
  "error.method_not_allowed": "The server does not allow that here.",
  "error.error": ["The server answered {status}.", "The server refused that."],
  "error.http": "The server answered {status}.",

  // ---------------------------------------------------------------- forms and decks (checked in the page)
  "form.enter_name": "Enter a name.",
  "form.enter_password": "Enter a password.",
  "form.passwords_differ": "The two passwords are not the same.",
  "deck.name_taken": "You already have a {item} called “{name}”: choose another name.",
  "deck.login_first": "Log in to use saved {items}.",

  // ---------------------------------------------------------------- the match log (entry kinds)
  "log.start": "The match has started.",
  "log.action": "{who} played.",
  "log.action_hidden": "{who} has chosen (hidden until it is revealed).",
  "log.timeout": "{who}'s time ran out: the computer played for them.",
  "log.bot": "{who} played.",
  "log.back": "{who} is back.",
  "log.resign": "{who} resigned.",
  "log.end": "The match is over. The seed is revealed.",

  // ---------------------------------------------------------------- the replay's step lines ({picked}: " S1, S2, R1" or "")
  "replay.start": "The match starts. The seed's hash is fixed.",
  "replay.chance": "Chance: shuffle.",
  "replay.action": "{who} chose{picked}.",
  "replay.timeout": "{who}'s time ran out; the computer chose{picked}.",
  "replay.bot": "{who} chose{picked}.",
  "replay.back": "{who} is back.",
  "replay.resign": "{who} resigned.",
  "replay.end": "The match is over; the seed is revealed.",

  // ---------------------------------------------------------------- a match that never started
  "aborted.cancelled.headline": "This match was cancelled",
  "aborted.cancelled.detail": "Its creator cancelled it before an opponent joined.",
  "aborted.expired.headline": "This match expired",
  "aborted.expired.detail": "Nobody joined it within {duration}, so it was closed.",
  "aborted.other.headline": "This match was called off",
  "aborted.other.detail": "It ended before it started.",

  // ---------------------------------------------------------------- why a match ended
  "reason.resigned": "a player resigned",
  "reason.abandoned": "the match was abandoned",
  "reason.timeout": "a player's time ran out",
  "reason.cancelled": "cancelled",
  "reason.expired": "expired",

  // ---------------------------------------------------------------- Battle Runes: one step of a turn
  // (the engine's step {code, params}; `seat` params are replaced by the player's name as `who`)
  "br.step.enables": "enables bonuses",
  "br.step.annulled": "turn annulled: Fire or Water was played",
  "br.step.zero_no_effect": "no effect: no Fire or Water played",
  "br.step.points": ["+{base} {what}, +{bonus} {bonus_what} ({condition})", "+{base} {what}"],
  "br.step.cross": "+{gain} {what} (own {source})",
  "br.step.doubled": "own {what} doubled to {value}",
  "br.step.equal": "equal {what}: no effect",
  "br.step.leads": "{who} leads in {what}: +{gain}",
  "br.step.swap_self": "own construction and destruction swapped",
  "br.step.swap_opp": "opponent's construction and destruction swapped",
  "br.step.swap_s": "construction swapped between the seats",
  "br.step.swap_r": "destruction swapped between the seats",
  "br.step.swap_all": "whole scores swapped: now {a} / {b}",
  "br.step.swap_all_no_effect": "no effect: Fire and Water were not both played",
  "br.what.S": "construction",
  "br.what.R": "destruction",
  "br.condition.water_any": "Water was played",
  "br.condition.water_self": "own Water",
  "br.condition.water_opp": "opponent's Water",
  "br.condition.fire_any": "Fire was played",
  "br.condition.fire_self": "own Fire",
  "br.condition.fire_opp": "opponent's Fire",
  "br.condition.opp_no_modifier": "opponent played no modifier",
  "br.condition.opp_no_destruction": "opponent played no destruction",
  "br.condition.opp_no_construction": "opponent played no construction",
};

let words = WORDS;

/** Use another table (a translation); keys it lacks still come from English. */
export function useWords(table) {
  words = { ...WORDS, ...(table || {}) };
}

function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (_, key) => String(params[key]));
}

function satisfied(template, params) {
  return [...template.matchAll(/\{(\w+)\}/g)].every(([, key]) => params[key] !== undefined && params[key] !== null);
}

/** Is `key` in the table? */
export function knows(key) {
  return words[key] !== undefined;
}

/**
 * The words for `key` with `params` filled in. An unknown key, or one whose every template needs a
 * parameter that is missing, gives `fallback` (or the key itself when there is none).
 * @param {string} key  e.g. "error.name_taken", "log.timeout"
 * @param {object} [params]
 * @param {string} [fallback]
 */
export function say(key, params = {}, fallback = undefined) {
  const entry = words[key];
  const p = params || {};
  if (entry !== undefined) {
    const list = Array.isArray(entry) ? entry : [entry];
    const template = list.find((t) => satisfied(t, p));
    if (template !== undefined) return fill(template, p);
  }
  return fallback !== undefined && fallback !== null && fallback !== "" ? String(fallback) : key;
}

/**
 * The words for an error: an ApiError (static/js/api.js), an error frame, or anything with
 * `{code, message, params}`. `message` (English, for developers) is shown only for a code the
 * table does not know.
 */
export function errorText(err) {
  if (!err) return "";
  const code = err.code || "internal_error";
  const params = { ...(err.params || {}) };
  if ((code === "bad_deck" || code === "bad_options") && err.message) params.message = String(err.message).replace(/[.\s]+$/, "");
  const fallback = err.message || say("error.internal_error");
  if (params.reason !== undefined && knows(`error.${code}.${params.reason}`)) {
    return say(`error.${code}.${params.reason}`, params, say(`error.${code}`, params, fallback));
  }
  return say(`error.${code}`, params, fallback);
}

/** The words for an error saving a deck called `name` (what one deck is called: `item`, e.g. "setup"). */
export function deckErrorText(err, { item, name }) {
  if (err && err.code === "name_taken") return say("deck.name_taken", { item, name });
  return errorText(err);
}
