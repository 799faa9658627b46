// Half-made choices that survive a reload of the match page (issue 16, "What players expect at
// the table"): the runes picked so far in Battle Runes, the castles placed so far in a Stratego
// Junior setup, the Scratch Wars loadout being built. A draft lives in sessionStorage (this tab
// only: nothing leaves the browser) under the match id and the seat, with the state version it
// was saved at and the decision it belongs to (`stamp`: a Battle Runes turn, the setup or the
// loadout phase). A simultaneous choice sees the version move on when the other seat commits,
// so a draft is kept while its decision is open and dropped as soon as the decision moves on.
//
// Fantasy súboj and Treasure Beasts keep no draft: each of their choices is one action sent at
// once (a Fantasy súboj attacker, a draft pick, each step of a Treasure Beasts attack, each loss),
// which the server keeps, so a reload shows the choice where it was
// (tests/browser/test_every_phase.py).

const PREFIX = "tta-draft";

function storage() {
  try {
    return window.sessionStorage;
  } catch (err) {
    return null; // storage blocked: drafts are simply not kept
  }
}

/** The storage key of the draft of `seat` in match `matchId`. */
export function draftKey(matchId, seat) {
  return `${PREFIX}:${matchId}:${seat}`;
}

/**
 * The draft saved for this decision, or null. A draft of another decision (an older turn or
 * phase) or unreadable is removed.
 * @param {number} matchId
 * @param {number} seat
 * @param {string} stamp the decision the caller is in (e.g. "turn:3", "setup", "loadout")
 * @returns {any} the data given to saveDraft, or null
 */
export function readDraft(matchId, seat, stamp) {
  const store = storage();
  if (!store || matchId == null) return null;
  const key = draftKey(matchId, seat);
  try {
    const raw = store.getItem(key);
    if (!raw) return null;
    const saved = JSON.parse(raw);
    if (saved && saved.stamp === stamp) return saved.data;
  } catch (err) {
    /* a damaged entry: dropped below */
  }
  store.removeItem(key);
  return null;
}

/**
 * Save `data` (JSON-safe) as the draft of `seat` in `matchId` for decision `stamp`, at state
 * `version`; `data` null drops it.
 */
export function saveDraft(matchId, seat, stamp, version, data) {
  const store = storage();
  if (!store || matchId == null) return;
  if (data == null) {
    store.removeItem(draftKey(matchId, seat));
    return;
  }
  try {
    store.setItem(draftKey(matchId, seat), JSON.stringify({ stamp, version, data }));
  } catch (err) {
    /* storage full or blocked: the draft is not kept */
  }
}

/** Forget the draft of `seat` in `matchId` (the choice was sent, or the match ended). */
export function dropDraft(matchId, seat) {
  const store = storage();
  if (store && matchId != null) store.removeItem(draftKey(matchId, seat));
}
