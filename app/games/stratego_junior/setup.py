"""Setups (``rules/stratego_junior.md`` section 3): checking a placement, making random and
sensible ones, saved setups (decks), and putting both seats' setups on the board.

A setup is a :class:`~.actions.Setup` in its owner's orientation: towers from the owner's left to
right, rows front row first, each from the owner's left to right. The same setup (or saved deck)
works for either colour.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TypeGuard

from ..core.errors import BadAction
from ..core.rules import JSON
from .actions import Setup
from .data import DATA
from .state import PLAY, StrategoState, with_castles

D = DATA


def check_setup(towers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """Check a placement's shape and pieces (spec section 3): exactly the side's 3 big castles in
    the towers and its 16 small castles in 4 rows of 4 (numbers from ``pieces.yaml``).

    :raises BadAction: with its ``reason`` (the message says the same in English): ``towers``
        (not the side's big castles, one per tower; ``towers``: how many, ``castles``: their ids),
        ``rows`` (not ``rows`` rows of ``columns`` castles), ``unknown_castle`` (``castle``: the
        id), ``formation`` (not exactly the side's small castles; ``castles``: each wrong one as
        ``{"castle", "count", "need"}``, ``need`` 0 for a castle that is not small).
    """
    n_rows, n_cols = len(D.formation[0]), D.columns
    want_big = Counter({D.kinds[k]: D.counts[k] for k in D.big})
    towers_wrong = {"towers": D.towers, "castles": sorted(want_big)}
    rows_wrong = {"rows": n_rows, "columns": n_cols}
    if not isinstance(towers, list | tuple) or len(towers) != D.towers:
        raise BadAction(
            f"stratego_junior: 'towers' must list the {D.towers} big castles, got {towers!r}",
            reason="towers",
            params=towers_wrong,
        )
    if not isinstance(rows, list | tuple) or len(rows) != n_rows:
        raise BadAction(
            f"stratego_junior: 'rows' must be {n_rows} rows (front row first), got {rows!r}",
            reason="rows",
            params=rows_wrong,
        )
    for i, row in enumerate(rows):
        if not isinstance(row, list | tuple) or len(row) != n_cols:
            raise BadAction(
                f"stratego_junior: row {i} must list {n_cols} castles, got {row!r}", reason="rows", params=rows_wrong
            )
    for pid in [*towers, *(p for row in rows for p in row)]:
        if not isinstance(pid, str) or pid not in D.index:
            raise BadAction(
                f"stratego_junior: unknown castle {pid!r}; known: {list(D.kinds)}",
                reason="unknown_castle",
                params={"castle": pid if isinstance(pid, str) else repr(pid)},
            )
    big = Counter(towers)
    if big != want_big:
        raise BadAction(
            f"stratego_junior: the towers hold exactly {sorted(want_big)}, got {list(towers)}",
            reason="towers",
            params=towers_wrong,
        )
    small = Counter(p for row in rows for p in row)
    want_small = Counter({D.kinds[k]: D.counts[k] for k in D.small if D.counts[k]})
    if small != want_small:
        wrong = [(k, small.get(k, 0), n) for k, n in want_small.items() if small.get(k, 0) != n]
        wrong += [(k, n, 0) for k, n in small.items() if k not in want_small]
        problems = [f"{k}: {have} instead of {need}" if need else f"{k}: not a small castle" for k, have, need in wrong]
        total = sum(want_small.values())
        raise BadAction(
            f"stratego_junior: the formation must hold the side's {total} small castles ({'; '.join(problems)})",
            reason="formation",
            params={"castles": [{"castle": k, "count": have, "need": need} for k, have, need in wrong]},
        )


def is_valid_setup(setup: object) -> TypeGuard[Setup]:
    """Whether ``setup`` is a :class:`~.actions.Setup` that :func:`check_setup` accepts."""
    if not isinstance(setup, Setup):
        return False
    try:
        check_setup(setup.towers, setup.rows)
    except BadAction:
        return False
    return True


def make_setup(towers: Sequence[str], rows: Sequence[Sequence[str]]) -> Setup:
    """A checked setup. :raises BadAction: as :func:`check_setup`."""
    check_setup(towers, rows)
    return Setup.of(towers, rows)


def random_setup(rng: random.Random) -> Setup:
    """A uniformly random valid placement (towers and formation shuffled with ``rng``)."""
    towers = [D.kinds[k] for k in D.big]
    rng.shuffle(towers)
    pool = [D.kinds[k] for k in D.small_pool]
    rng.shuffle(pool)
    c = D.columns
    return Setup.of(towers, [pool[i * c : (i + 1) * c] for i in range(len(D.formation[0]))])


def _depth_wish(kind: int) -> float:
    """How far back ``kind`` likes to stand in :func:`sensible_setup` (0 = front row)."""
    if not D.movable[kind]:
        return 3.0  # dragons guard the back row: fewer squares to stand on for a back-row attack
    strength = D.strength[kind] or 0
    if D.beats[kind]:
        return 1.5  # dwarves and wizards: specialists kept behind the front, ready to answer
    top = max(s for s in D.strength if s is not None)
    return 0.5 + 1.5 * (strength / top)  # mid pieces in front, the strongest a row behind


def sensible_setup(rng: random.Random) -> Setup:
    """A reasonable placement: mid-strength castles in front, the strongest and the specialists
    behind them, dragons on the back row; big castles in random slots (all equal in both games)."""
    towers = [D.kinds[k] for k in D.big]
    rng.shuffle(towers)
    n_rows = len(D.formation[0])
    scale = (n_rows - 1) / 3.0
    pool = sorted(D.small_pool, key=lambda k: _depth_wish(k) * scale + rng.random() * 1.2)
    c = D.columns
    rows = []
    for i in range(n_rows):
        row = [D.kinds[k] for k in pool[i * c : (i + 1) * c]]
        rng.shuffle(row)
        rows.append(row)
    return Setup.of(towers, rows)


def _representative_setups() -> tuple[Setup, ...]:
    out = [sensible_setup(random.Random(seed)) for seed in (1, 2, 3)]
    out += [random_setup(random.Random(seed)) for seed in (4, 5, 6)]
    return tuple(dict.fromkeys(out))


#: The handful of setups ``legal_actions`` lists during the setup phase (any valid one is legal).
SETUPS: tuple[Setup, ...] = _representative_setups()


def setup_to_json(setup: Setup) -> dict[str, JSON]:
    """``{"towers": [ids], "rows": [[ids], ...]}`` (the payload of a setup action, and a deck)."""
    value: dict[str, JSON] = setup.to_value()
    return value


def validate_deck(data: JSON) -> dict[str, JSON]:
    """Check a saved setup and return its normal form ``{"towers": [3 ids], "rows": [[4 ids] x
    4]}`` (the setup action's payload, in the owner's orientation; ``{"setup": {...}}`` is accepted
    too). A deck works for either colour.

    :raises BadAction: not an object with ``towers`` and ``rows`` (``reason`` ``shape``), or not
        exactly one side's castles (the message says which; ``reason`` as :func:`check_setup`).
    """
    if isinstance(data, dict) and set(data) == {"setup"}:
        data = data["setup"]
    if not isinstance(data, dict) or set(data) != {"towers", "rows"}:
        raise BadAction(
            f"stratego_junior: a saved setup is {{'towers': [...], 'rows': [[...], ...]}}, got {data!r}",
            reason="shape",
        )
    return setup_to_json(make_setup(data["towers"], data["rows"]))


def deck_schema() -> dict[str, JSON]:
    """The JSON Schema of a saved setup (:func:`validate_deck`): 3 big castles in ``towers``, 4
    rows of 4 small castles, by id, or that object wrapped as ``{"setup": ...}``. That the pieces
    are exactly one side's (a permutation) is the one rule JSON Schema cannot state."""
    big: JSON = sorted({D.kinds[k] for k in D.big})
    small: JSON = sorted({D.kinds[k] for k in D.small if D.counts[k]})
    n_rows, n_cols = len(D.formation[0]), D.columns
    row: JSON = {"type": "array", "minItems": n_cols, "maxItems": n_cols, "items": {"enum": small}}
    setup: dict[str, JSON] = {
        "type": "object",
        "required": ["towers", "rows"],
        "additionalProperties": False,
        "properties": {
            "towers": {"type": "array", "minItems": D.towers, "maxItems": D.towers, "items": {"enum": big}},
            "rows": {"type": "array", "minItems": n_rows, "maxItems": n_rows, "items": row},
        },
    }
    wrapped: JSON = {
        "type": "object",
        "required": ["setup"],
        "additionalProperties": False,
        "properties": {"setup": setup},
    }
    return {"anyOf": [setup, wrapped]}


def place_setups(state: StrategoState, red: Setup, blue: Setup) -> StrategoState:
    """``state`` with both setups on the board (phase ``"play"``, nobody's turn started yet).

    Uids follow the squares' order, seat 0's castles first, so they say nothing about identities.
    The setups must be valid (:func:`is_valid_setup`).
    """
    at: dict[int, int] = {}
    towers: list[tuple[int, ...]] = []
    for seat, setup in enumerate((red, blue)):
        for row_squares, row in zip(D.formation[seat], setup.rows, strict=True):
            for square, pid in zip(row_squares, row, strict=True):
                at[square] = D.index[pid]
        slots = [-1] * D.towers
        for slot, pid in zip(D.tower_order[seat], setup.towers, strict=True):
            slots[slot] = D.index[pid]
        towers.append(tuple(slots))
    board = [-1] * D.squares
    kinds: list[int] = []
    owners: list[int] = []
    pos: list[int] = []
    for seat in (0, 1):
        for square in sorted(D.formation_squares[seat]):
            board[square] = len(kinds)
            kinds.append(at[square])
            owners.append(seat)
            pos.append(square)
    return with_castles(
        state,
        tuple(kinds),
        tuple(owners),
        phase=PLAY,
        board=tuple(board),
        pos=tuple(pos),
        towers=(towers[0], towers[1]),
    )
