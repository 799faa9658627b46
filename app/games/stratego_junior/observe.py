"""What each seat may see (``rules/stratego_junior.md`` sections 1, 4.2 A and 5.5): the castle
and tower JSON used by observations and events, the shared part of an observation, and the
hidden-information declaration (:func:`secrets`).

A castle is ``{"known"?: true, "moved"?: true, "owner", "piece"?, "sq": [r, c], "uid"}``; a tower
``{"owner", "piece"?, "tower": slot}``. ``piece`` (the identity) appears only for the viewer's own
castles, for an opponent's castle the viewer has seen revealed when the memory aid is on, and for
everything once the game is over. Keys are inserted in sorted order, so the text is the same with
or without ``sort_keys``.
"""

from __future__ import annotations

from ..core.rules import JSON
from .board import GEOMETRY, rc
from .data import COLOURS, DATA
from .state import OVER, RETURN, SETUP, StrategoState, to_act

D = DATA


def piece_json(
    uid: int, owner: int, kind: int | None, square: int | None, *, known: bool = False, moved: bool = False
) -> dict[str, JSON]:
    """A castle as JSON (see the module docstring); ``kind`` / ``square`` ``None`` leave out
    ``piece`` / ``sq``."""
    d: dict[str, JSON] = {}
    if known:
        d["known"] = True
    if moved:
        d["moved"] = True
    d["owner"] = owner
    if kind is not None:
        d["piece"] = D.kinds[kind]
    if square is not None:
        d["sq"] = rc(square)
    d["uid"] = uid
    return d


def tower_json(owner: int, kind: int | None, slot: int) -> dict[str, JSON]:
    """A big castle as JSON, ``{"owner", "piece"?, "tower": slot}`` (``kind`` ``None``: hidden)."""
    d: dict[str, JSON] = {"owner": owner}
    if kind is not None:
        d["piece"] = D.kinds[kind]
    d["tower"] = slot
    return d


def observation(state: StrategoState, viewer: int | None, memory: bool, *, reveal: bool = False) -> dict[str, JSON]:
    """The observation both variants share, with the variant's own keys (``access``,
    ``attackable``, ``returning``, ``restricted``) set to ``None`` for the variant to fill.

    ``{"game", "variant", "seat", "colour", "phase", "to_act", "to_move", "turn", "geometry",
    "castles": [castle], "towers": [[tower] x 3, [tower] x 3], "removed": [[...], [...]], "die",
    "access", "attackable", "returning", "restricted", "memory_aid", "over", "outcome",
    "options"}``; an empty tower slot is ``{"empty": true, "owner", "tower"}``.

    :param viewer: a seat, or ``None`` for a spectator.
    :param memory: show the opponent's castles the viewer has seen revealed (the memory aid; always
        on for a computer player).
    :param reveal: show every castle and tower (the match has ended, by resignation too, before
        the game reached ``over``); ``"over"`` still tells whether the game itself ended.
    """
    over = state.phase == OVER
    everything = over or reveal
    revealed, moved = state.revealed, state.moved
    kinds, owners = state.kinds, state.owners
    castles = []
    for square, uid in enumerate(state.board):
        if uid < 0:
            continue
        owner = owners[uid]
        known = uid in revealed
        show = everything or owner == viewer or (memory and known)
        castles.append(
            piece_json(
                uid,
                owner,
                kinds[uid] if show else None,
                square,
                known=known and (show or owner == viewer),
                moved=uid in moved,
            )
        )
    towers = []
    for seat in (0, 1):
        row = state.towers[seat]
        towers.append(
            [
                tower_json(seat, row[t] if (everything or seat == viewer) else None, t)
                if row[t] >= 0
                else {"empty": True, "owner": seat, "tower": t}
                for t in range(D.towers)
            ]
        )
    removed = []
    for seat in (0, 1):
        out = []
        for uid in state.removed[seat]:
            show = everything or seat == viewer or uid in revealed
            out.append(piece_json(uid, seat, kinds[uid] if show else None, None, known=uid in revealed and show))
        out += [{"known": True, "owner": seat, "piece": D.kinds[k]} for k in state.big_out[seat]]
        removed.append(out)
    return {
        "game": "stratego_junior",
        "variant": state.config.variant,
        "seat": viewer,
        "colour": None if viewer is None else COLOURS[viewer],
        "phase": state.phase,
        "to_act": sorted(to_act(state)),
        "to_move": None if state.phase == SETUP else state.to_move,
        "turn": state.turn,
        "geometry": GEOMETRY,
        "castles": castles,
        "towers": towers,
        "removed": removed,
        "die": D.kinds[state.die] if state.die >= 0 else None,
        "access": None,
        "attackable": None,
        "returning": None,
        "restricted": None,
        "memory_aid": memory,
        "over": over,
        "outcome": None if state.outcome is None else state.outcome.to_json(),
        "options": state.config.to_json(),
    }


def secrets(state: StrategoState, viewer: int | None) -> list[str]:
    """JSON fragments that must not appear in ``viewer``'s serialised observation or events:
    for every castle of another seat whose identity ``viewer`` has not seen,
    ``'"piece": "<id>", "sq": [r, c]'`` (also for a returned castle staged but not yet shown),
    and for every hidden big castle ``'"owner": o, "piece": "<id>", "tower": t'``. Empty once
    the game is over (everything is shown)."""
    if state.phase == OVER:
        return []
    out = []
    revealed = state.revealed
    for square, uid in enumerate(state.board):
        if uid >= 0 and state.owners[uid] != viewer and uid not in revealed:
            r, c = rc(square)
            out.append(f'"piece": "{D.kinds[state.kinds[uid]]}", "sq": [{r}, {c}]')
    for seat in (0, 1):
        if seat == viewer:
            continue
        for t, k in enumerate(state.towers[seat]):
            if k >= 0:
                out.append(f'"owner": {seat}, "piece": "{D.kinds[k]}", "tower": {t}')
    if state.phase == RETURN and viewer != state.to_move:
        for k, target in state.staged:
            if target >= 0:
                r, c = rc(target)
                out.append(f'"piece": "{D.kinds[k]}", "sq": [{r}, {c}]')
            else:
                out.append(f'"owner": {state.to_move}, "piece": "{D.kinds[k]}", "tower": {-1 - target}')
    return out
