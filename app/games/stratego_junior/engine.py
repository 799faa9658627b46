"""Stratego Junior rules engine, variants Quest and Victory (``rules/stratego_junior.md``), on the
core contract of DESIGN.md section 2.

Seat 0 is **red** (rows 5-8 by default, moves first), seat 1 is **blue** (rows 0-3). Squares are
``(row, column)`` on the wire and ``row * columns + column`` inside; geometry, castle counts,
strengths and die faces come from ``pieces.yaml`` (:mod:`.data`).

Flow of a match (spec section 3, then 4 or 5):

1. **Setup**: ``to_act == {0, 1}``; each seat sends one :data:`Setup` (all 3 big castles and all
   16 small ones) in its own orientation; the driver holds the first until both are in, and the
   setup actions are visible only to their own seat (:meth:`StrategoJunior.action_visible_to`).
2. **Quest** (section 4): a turn is either a tower attack (when the seat has back-row access) or
   a roll: the die is a public chance step (``{CHANCE}``), then the seat flips one attackable
   castle. When the seat has no access the roll is its only option and the engine goes straight
   to the chance step. A Black Knight hands the turn to its owner, who places the returned
   castles one by one (their squares hidden from everyone else until all are placed), then plays.
3. **Victory** (section 5): a turn is one move, one attack or one back-row attack on a tower.

Actions are tuples (see :meth:`StrategoJunior.decode_action` for the JSON):
``("setup", towers, rows)``, ``("move", from, to)``, ``("attack", from, to)``,
``("tower", from | -1, slot)``, ``("roll",)``, ``("flip", sq)``, ``("place", sq)``,
``("place_tower", slot)``, ``("decline_return",)`` and the chance outcome ``("die", kind)``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..core.base import BaseRules
from ..core.errors import BadAction, BadOptions, GameOver, IllegalAction
from ..core.rules import CHANCE, Event, Outcome
from .data import ATTACKER, COLOURS, DATA, DEFENDER, catalog_entries

JSON = Any
D = DATA

QUEST = "quest"
VICTORY = "victory"

SETUP = "setup"  #: both seats place their castles
PLAY = "play"  #: the seat to move chooses (Victory: any action; Quest: roll or tower attack)
ROLL = "roll"  #: Quest: chance rolls the die
FLIP = "flip"  #: Quest: the seat to move flips an attackable castle
RETURN = "return"  #: Quest: the Black Knight's owner places the returned castles
OVER = "over"
_PHASES = (SETUP, PLAY, ROLL, FLIP, RETURN, OVER)

#: A setup in the owner's orientation: ``("setup", towers, rows)``; towers from the owner's left to
#: right, rows front row first, each from the owner's left to right (all piece ids).
Setup = tuple
Action = tuple
#: ``(uid, from, to)`` of a Victory move, for the back-and-forth rule.
MoveRecord = tuple[int, int, int]

_NO_HISTORY: tuple[None, None] = (None, None)
_EMPTY_FS: frozenset[int] = frozenset()


# ============================================================================== config and state


@dataclass(frozen=True, slots=True)
class Config:
    """The match options a state carries (see :attr:`StrategoJunior.default_options`)."""

    variant: str = VICTORY
    memory_aid: bool = False
    move_cap: int = 0
    black_knight_returns_jester: bool = True
    black_knight_return_optional: bool = False

    def to_json(self) -> dict[str, JSON]:
        """The options as a JSON object."""
        return {"variant": self.variant, "memory_aid": self.memory_aid, "move_cap": self.move_cap,
                "black_knight_returns_jester": self.black_knight_returns_jester,
                "black_knight_return_optional": self.black_knight_return_optional}


@dataclass(frozen=True)
class StrategoState:
    """An immutable Stratego Junior position. Castles on the grid are numbered (``uid``); the
    numbers are public and say nothing about identities (they follow the squares' order when the
    castles are placed).

    :param config: the match options.
    :param phase: ``"setup"`` | ``"play"`` | ``"roll"`` | ``"flip"`` | ``"return"`` | ``"over"``.
    :param to_move: the seat whose turn it is (during ``"return"``: the seat placing castles).
    :param turn: turns completed (Quest: rolls and tower attacks; Victory: actions).
    :param board: per square, the uid on it or -1.
    :param kinds: per uid, its kind (index into ``DATA.kinds``); secret until revealed.
    :param owners: per uid, its seat.
    :param pos: per uid, its square, or -1 once removed.
    :param towers: per seat, per tower slot, the big castle's kind or -1 (empty slot).
    :param revealed: uids whose identity has been shown to everybody (flip, combat).
    :param moved: uids that have moved (Victory; public, and tells that they are not dragons).
    :param history: per seat, its (previous, last) actions as :data:`MoveRecord` for moves and
        ``None`` for anything else (the back-and-forth rule, spec 5.4).
    :param removed: per seat, uids of its small castles taken off the board, oldest first (Quest:
        those not yet returned by a Black Knight).
    :param big_out: per seat, kinds of its big castles taken out, oldest first.
    :param die: Quest, phase ``"flip"``: the die face rolled this turn (kind), else -1.
    :param returning: Quest, phase ``"return"``: kinds still to place, in placing order.
    :param staged: Quest, phase ``"return"``: placed so far, ``(kind, target)`` with target a square
        or ``-1 - slot`` for a tower slot; hidden from the other seat until the last is placed.
    :param outcome: the result once over.
    """

    config: Config
    phase: str
    to_move: int
    turn: int
    board: tuple[int, ...]
    kinds: tuple[int, ...] = ()
    owners: tuple[int, ...] = ()
    pos: tuple[int, ...] = ()
    towers: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    revealed: frozenset[int] = _EMPTY_FS
    moved: frozenset[int] = _EMPTY_FS
    history: tuple[tuple[Any, Any], tuple[Any, Any]] = (_NO_HISTORY, _NO_HISTORY)
    removed: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    big_out: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    die: int = -1
    returning: tuple[int, ...] = ()
    staged: tuple[tuple[int, int], ...] = ()
    outcome: Outcome | None = None
    #: the legal actions of ``to_move``, filled on first use; not part of the value
    cache: Any = field(default=None, compare=False, repr=False)
    #: per seat, the uids that can ever move (derived from ``kinds`` and ``owners``, filled on first
    #: use and carried along while they do not change); not part of the value
    movers: Any = field(default=None, compare=False, repr=False)

    @property
    def variant(self) -> str:
        """``"quest"`` or ``"victory"``."""
        return self.config.variant


# ============================================================================== geometry helpers


def rc(sq: int) -> list[int]:
    """``[row, column]`` of a square (the wire form; a new list)."""
    return list(_RC[sq])


_RC = tuple(divmod(sq, D.columns) for sq in range(D.squares))


def reachable(board: Sequence[int], opponent: int) -> set[int]:
    """Quest reachability (spec 4.1): the middle squares plus the empty squares of ``opponent``'s
    formation joined to them orthogonally through empty squares of that formation."""
    mine = D.formation_squares[opponent]
    seen = set(D.middle)
    stack = list(D.middle)
    adj = D.adj
    while stack:
        s = stack.pop()
        for n in adj[s]:
            if n not in seen and n in mine and board[n] < 0:
                seen.add(n)
                stack.append(n)
    return seen


def attackable(board: Sequence[int], opponent: int, reach: set[int] | None = None) -> list[int]:
    """Quest: squares of ``opponent``'s castles next to a reachable square (spec 4.1), sorted."""
    if reach is None:
        reach = reachable(board, opponent)
    mine = D.formation_squares[opponent]
    adj = D.adj
    return sorted({n for s in reach for n in adj[s] if n in mine and board[n] >= 0})


def has_access(board: Sequence[int], opponent: int, reach: set[int] | None = None) -> bool:
    """Quest back-row access (spec 4.1): a square of ``opponent``'s back row is reachable."""
    if reach is None:
        reach = reachable(board, opponent)
    return any(s in reach for s in D.back_row[opponent])


def forbidden_move(state: StrategoState, seat: int) -> tuple[int, int] | None:
    """The back-and-forth rule (spec 5.4, AMBIGUITY 6): ``(from, to)`` that ``seat`` may not move
    now, or ``None``. After piece p went X->Y and then Y->X on the seat's two latest turns, p may
    not go X->Y; any other action lifts it."""
    prev, last = state.history[seat]
    if prev is None or last is None:
        return None
    uid, y, x = last  # the last move went Y -> X ...
    if prev[0] == uid and prev[1] == x and prev[2] == y and state.board[x] == uid:  # ... after X -> Y
        return (x, y)
    return None


def movers(state: StrategoState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per seat, the uids of its castles that can ever move (not dragons), cached on the state."""
    found = state.movers
    if found is None:
        kinds, movable = state.kinds, D.movable
        found = tuple(tuple(u for u, o in enumerate(state.owners) if o == seat and movable[kinds[u]])
                      for seat in (0, 1))
        object.__setattr__(state, "movers", found)
    return found


def victory_actions(state: StrategoState, seat: int) -> tuple[Action, ...]:
    """Every Victory action of ``seat`` (spec 5.1): moves and attacks of its movable castles to
    orthogonal neighbours (by uid, then neighbour order), then back-row attacks on each remaining
    tower by each of its castles standing on the opponent's back row."""
    board, owners, pos = state.board, state.owners, state.pos
    steps = _STEPS
    forbid = forbidden_move(state, seat)
    out: list[Action] = []
    append = out.append
    for uid in movers(state)[seat]:
        a = pos[uid]
        if a < 0:
            continue
        for b, move, attack in steps[a]:
            occ = board[b]
            if occ < 0:
                append(move)
            elif owners[occ] != seat:
                append(attack)
    if forbid is not None and board[forbid[1]] < 0:
        out.remove(("move", forbid[0], forbid[1]))
    other = 1 - seat
    towers = state.towers[other]
    slots = _ALL_SLOTS if -1 not in towers else [t for t, k in enumerate(towers) if k >= 0]
    if slots:
        for a in D.back_row[other]:
            occ = board[a]
            if occ >= 0 and owners[occ] == seat:
                for t in slots:
                    append(_TOWER_ACTIONS[a][t])
    return tuple(out)


#: Per square, ``(neighbour, ("move", sq, neighbour), ("attack", sq, neighbour))``: the action
#: tuples are built once, so listing actions allocates nothing and ``in`` matches by identity.
_STEPS = tuple(tuple((b, ("move", a, b), ("attack", a, b)) for b in D.adj[a]) for a in range(D.squares))
_TOWER_ACTIONS = tuple(tuple(("tower", a, t) for t in range(D.towers)) for a in range(D.squares))
_ALL_SLOTS = tuple(range(D.towers))


# ============================================================================== setups


def setup_kinds(towers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """Check a placement's shape and pieces (spec section 3).

    :raises BadAction: wrong shape, an unknown id, or not exactly the side's castles (the message
        says which).
    """
    n_rows, n_cols = len(D.formation[0]), D.columns
    if not isinstance(towers, list | tuple) or len(towers) != D.towers:
        raise BadAction(f"stratego_junior: 'towers' must list the {D.towers} big castles, got {towers!r}")
    if not isinstance(rows, list | tuple) or len(rows) != n_rows:
        raise BadAction(f"stratego_junior: 'rows' must be {n_rows} rows (front row first), got {rows!r}")
    for i, row in enumerate(rows):
        if not isinstance(row, list | tuple) or len(row) != n_cols:
            raise BadAction(f"stratego_junior: row {i} must list {n_cols} castles, got {row!r}")
    for pid in [*towers, *(p for row in rows for p in row)]:
        if not isinstance(pid, str) or pid not in D.index:
            raise BadAction(f"stratego_junior: unknown castle {pid!r}; known: {list(D.kinds)}")
    big = Counter(towers)
    want_big = Counter({D.kinds[k]: D.counts[k] for k in D.big})
    if big != want_big:
        raise BadAction(f"stratego_junior: the towers hold exactly {sorted(want_big)}, got {list(towers)}")
    small = Counter(p for row in rows for p in row)
    want_small = Counter({D.kinds[k]: D.counts[k] for k in D.small if D.counts[k]})
    if small != want_small:
        problems = [f"{k}: {small.get(k, 0)} instead of {n}" for k, n in want_small.items() if small.get(k, 0) != n]
        problems += [f"{k}: not a small castle" for k in small if k not in want_small]
        total = sum(want_small.values())
        raise BadAction(f"stratego_junior: the formation must hold the side's {total} small castles "
                        f"({'; '.join(problems)})")


def make_setup(towers: Sequence[str], rows: Sequence[Sequence[str]]) -> Setup:
    """A checked :data:`Setup` action. :raises BadAction: as :func:`setup_kinds`."""
    setup_kinds(towers, rows)
    return ("setup", tuple(towers), tuple(tuple(r) for r in rows))


def random_setup(rng: random.Random) -> Setup:
    """A uniformly random valid placement (towers and formation shuffled with ``rng``)."""
    towers = [D.kinds[k] for k in D.big]
    rng.shuffle(towers)
    pool = [D.kinds[k] for k in D.small_pool]
    rng.shuffle(pool)
    c = D.columns
    return ("setup", tuple(towers), tuple(tuple(pool[i * c:(i + 1) * c]) for i in range(len(D.formation[0]))))


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
        row = [D.kinds[k] for k in pool[i * c:(i + 1) * c]]
        rng.shuffle(row)
        rows.append(tuple(row))
    return ("setup", tuple(towers), tuple(rows))


def _representative_setups() -> tuple[Setup, ...]:
    out = [sensible_setup(random.Random(seed)) for seed in (1, 2, 3)]
    out += [random_setup(random.Random(seed)) for seed in (4, 5, 6)]
    return tuple(dict.fromkeys(out))


#: The handful of setups :meth:`StrategoJunior.legal_actions` lists (any valid one is legal).
SETUPS: tuple[Setup, ...] = _representative_setups()


def setup_to_json(setup: Setup) -> dict[str, JSON]:
    """``{"towers": [ids], "rows": [[ids], ...]}`` (the payload of a setup action, and a deck)."""
    return {"towers": list(setup[1]), "rows": [list(r) for r in setup[2]]}


# ============================================================================== the rules


def _piece(uid: int, owner: int, kind: int | None, sq: int | None, *, known: bool = False,
           moved: bool = False) -> dict[str, JSON]:
    """A castle as JSON, keys inserted in sorted order (``known``, ``moved``, ``owner``,
    ``piece``, ``sq``, ``uid``) so the text is the same with or without ``sort_keys``."""
    d: dict[str, JSON] = {}
    if known:
        d["known"] = True
    if moved:
        d["moved"] = True
    d["owner"] = owner
    if kind is not None:
        d["piece"] = D.kinds[kind]
    if sq is not None:
        d["sq"] = rc(sq)
    d["uid"] = uid
    return d


def _tower(owner: int, kind: int | None, slot: int) -> dict[str, JSON]:
    d: dict[str, JSON] = {"owner": owner}
    if kind is not None:
        d["piece"] = D.kinds[kind]
    d["tower"] = slot
    return d


class StrategoJunior(BaseRules):
    """The Stratego Junior rules (``rules/stratego_junior.md``): 2 seats, variants Quest / Victory.

    Events (``kind``: data; all public unless said):

    * ``setup_done``: ``{"seats": [0, 1], "first": 0}`` (no identities).
    * ``die_rolled``: ``{"seat", "face"}`` (Quest, public chance).
    * ``flip``: ``{"seat", "die", "castle": piece, "falls"}`` (Quest 4.2 A; the identity is
      revealed to everybody).
    * ``moved``: ``{"seat", "uid", "from", "to"}`` (Victory; no identity).
    * ``combat``: ``{"seat", "from", "to", "attacker": piece, "defender": piece, "winner":
      "attacker" | "defender" | "none"}`` (Victory 5.2; both identities revealed).
    * ``tower_attacked``: ``{"seat", "owner", "tower", "piece", "attacker": piece without identity
      | null}`` (the big castle is revealed).
    * ``removed``: ``{"cause": "flip" | "combat" | "tower" | "black_knight", "castles": [piece |
      tower]}``; the Victory Black Knight's victim is listed without its identity.
    * ``castles_returning``: ``{"owner", "pieces": [ids], "count"}`` (Quest Black Knight).
    * ``castle_placed``: ``{"owner", "piece", "sq" | "tower"}`` seen by the owner only; others
      see ``{"owner"}``.
    * ``castles_returned``: ``{"owner", "castles": [piece], "towers": [tower]}`` with identities
      for the owner; others see the same without ``piece``.
    * ``return_declined``: ``{"owner"}`` (option ``black_knight_return_optional``).
    * ``game_over``: the outcome JSON plus ``"winner"`` (seat or null).

    A piece is ``{"owner", "piece"?, "sq": [row, col], "uid"}``; a tower ``{"owner", "piece"?,
    "tower": slot}``.
    """

    name: ClassVar[str] = "stratego_junior"
    title: ClassVar[str] = "Stratego Junior"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_options: ClassVar[Mapping[str, JSON]] = {
        "variant": VICTORY,
        "memory_aid": False,
        "move_cap": 0,
        "black_knight_returns_jester": True,
        "black_knight_return_optional": False,
    }
    option_choices: ClassVar[Mapping[str, tuple[JSON, ...]]] = {"variant": (QUEST, VICTORY)}
    option_ranges: ClassVar[Mapping[str, tuple[float, float]]] = {"move_cap": (0, 10_000)}
    #: option sets the shared conformance suite runs besides the defaults
    conformance_variants: ClassVar[tuple[Mapping[str, JSON], ...]] = (
        {"variant": QUEST},
        {"variant": QUEST, "memory_aid": True, "black_knight_return_optional": True},
        {"variant": VICTORY, "memory_aid": True, "move_cap": 60},
    )

    # ------------------------------------------------------------------ options and positions

    def normalize_options(self, options: Mapping[str, JSON]) -> dict[str, JSON]:
        """Fill defaults and check the options.

        * ``variant``: ``"quest"`` | ``"victory"`` (default).
        * ``memory_aid``: keep identities a seat has seen marked in its view (spec 4.2 A.4, 5.5).
        * ``move_cap``: 0 = none; else the game is a draw after that many turns (AMBIGUITY 8; in
          Quest a turn is a roll or a tower attack).
        * ``black_knight_returns_jester`` / ``black_knight_return_optional``: the Quest Black
          Knight alternatives of AMBIGUITY 5 (defaults: the jester returns; returning is
          mandatory).

        :raises BadOptions: unknown key, wrong type, unknown variant, ``move_cap`` < 0.
        """
        out = super().normalize_options(options)
        out["move_cap"] = int(out["move_cap"])
        if out["move_cap"] < 0:
            raise BadOptions(f"{self.name}: move_cap must be >= 0 (0 = no cap), got {out['move_cap']}")
        return out

    def initial_state(self, num_players: int, options: Mapping[str, JSON]) -> StrategoState:
        """The setup phase: both seats to place (spec section 3).

        :raises BadOptions: ``num_players`` != 2 or bad options.
        """
        self.check_players(num_players)
        config = Config(**self.normalize_options(options))
        empty = (-1,) * D.towers
        return StrategoState(config, SETUP, 0, 0, (-1,) * D.squares, towers=(empty, empty))

    def position(
        self,
        castles: Mapping[tuple[int, int], str],
        *,
        variant: str = VICTORY,
        to_move: int = 0,
        towers: Sequence[Sequence[str | None]] | None = None,
        removed: Mapping[int, Sequence[str]] | None = None,
        revealed: Iterable[tuple[int, int]] = (),
        moved: Iterable[tuple[int, int]] = (),
        die: str | None = None,
        options: Mapping[str, JSON] | None = None,
        turn: int = 0,
    ) -> StrategoState:
        """A position for tests, puzzles and analysis (the start of ``to_move``'s turn).

        :param castles: ``{(row, col): "red king" | "blue dragon" | ...}``; uids follow the squares.
        :param towers: per seat, the kind in each tower slot (``None`` = empty); default
            ``flag, black_knight, jester`` in slots 0, 1, 2 for both.
        :param removed: per seat, kinds already taken off (small ones get uids off the board; big
            ones count as taken out and must not be in ``towers``).
        :param revealed: squares whose castles have been revealed to both; :param moved: squares
            whose castles have moved.
        :param die: Quest: a face already rolled, so the state waits for the flip.
        :raises ValueError: an unknown seat or kind, or a castle off its side's rules.
        """
        config = Config(**self.normalize_options({**(options or {}), "variant": variant}))
        board = [-1] * D.squares
        kinds: list[int] = []
        owners: list[int] = []
        pos: list[int] = []
        for (r, c), text in sorted(castles.items()):
            colour, kind = text.split()
            seat = COLOURS.index(colour)
            if D.index[kind] in D.big:
                raise ValueError(f"{kind} is a big castle: put it in towers")
            sq = D.sq(r, c)
            board[sq] = len(kinds)
            kinds.append(D.index[kind])
            owners.append(seat)
            pos.append(sq)
        tower_rows = towers or ((D.kinds[D.flag], D.kinds[D.black_knight], D.kinds[D.jester]),) * 2
        tw = tuple(tuple(-1 if k is None else D.index[k] for k in row) for row in tower_rows)
        removed_uids: list[list[int]] = [[], []]
        big_out: list[list[int]] = [[], []]
        for seat, names in (removed or {}).items():
            for name in names:
                k = D.index[name]
                if k in D.big:
                    big_out[seat].append(k)
                else:
                    removed_uids[seat].append(len(kinds))
                    kinds.append(k)
                    owners.append(seat)
                    pos.append(-1)
        state = StrategoState(
            config, PLAY, to_move, turn, tuple(board), tuple(kinds), tuple(owners), tuple(pos),
            (tw[0], tw[1]),
            frozenset(board[D.sq(r, c)] for r, c in revealed),
            frozenset(board[D.sq(r, c)] for r, c in moved),
            (_NO_HISTORY, _NO_HISTORY),
            (tuple(removed_uids[0]), tuple(removed_uids[1])),
            (tuple(big_out[0]), tuple(big_out[1])),
        )
        if die is not None:
            return _with(state, phase=FLIP, die=D.index[die])
        new, events = _start_turn(state, to_move, [])
        return new

    # ------------------------------------------------------------------ queries

    def to_act(self, state: StrategoState) -> frozenset[int]:
        """``{0, 1}`` during setup, ``{CHANCE}`` while the Quest die rolls, the seat to move (or the
        seat placing returned castles), empty when over."""
        phase = state.phase
        if phase == SETUP:
            return _BOTH_SEATS
        if phase == OVER:
            return _NOBODY
        if phase == ROLL:
            return _CHANCE_ONLY
        return _SEAT[state.to_move]

    def legal_actions(self, state: StrategoState, seat: int) -> Sequence[Action]:
        """The legal actions of ``seat`` now; empty when it is not to act.

        Setup: a few representative setups (:data:`SETUPS`); any valid placement is legal
        (:meth:`is_legal`). Victory: moves, attacks and back-row attacks (spec 5.1). Quest:
        tower attacks (with access) and ``("roll",)`` (when a castle is attackable), the flips
        after a roll, the placements while returning castles.
        """
        phase = state.phase
        if phase == SETUP:
            return SETUPS if seat in (0, 1) else ()
        if phase in (OVER, ROLL) or seat != state.to_move:
            return ()
        return _legal(state)

    def is_legal(self, state: StrategoState, seat: int, action: Any) -> bool:
        """Any valid placement during setup; otherwise membership in :meth:`legal_actions`."""
        if state.phase == SETUP:
            if seat not in (0, 1) or not isinstance(action, tuple) or len(action) != 3 or action[0] != "setup":
                return False
            try:
                setup_kinds(action[1], action[2])
            except BadAction:
                return False
            return True
        if state.phase in (OVER, ROLL) or seat != state.to_move:
            return False
        return _is_listed(state, action)

    def validate_deck(self, data: JSON) -> JSON:
        """Check a saved setup and return its normal form ``{"towers": [3 ids], "rows": [[4 ids] x
        4]}`` (the setup action's payload, in the owner's orientation; ``{"setup": {...}}`` is
        accepted too). A deck works for either colour.

        :raises BadAction: not an object with ``towers`` and ``rows``, or not exactly one side's
            castles (the message says which).
        """
        if isinstance(data, dict) and set(data) == {"setup"}:
            data = data["setup"]
        if not isinstance(data, dict) or set(data) != {"towers", "rows"}:
            raise BadAction(f"{self.name}: a saved setup is {{'towers': [...], 'rows': [[...], ...]}}, got {data!r}")
        return setup_to_json(make_setup(data["towers"], data["rows"]))

    def sample_chance(self, state: StrategoState, rng: random.Random) -> Action:
        """Roll the Quest die: ``("die", kind)``, every face of ``die_faces`` equally likely
        (AMBIGUITY 2).

        :raises IllegalAction: ``state`` is not a chance node.
        """
        if state.phase != ROLL:
            raise IllegalAction(f"{self.name}: no chance node in phase {state.phase!r}")
        return ("die", D.die_faces[rng.randrange(len(D.die_faces))])

    def outcome(self, state: StrategoState) -> Outcome | None:
        """The result once over, else ``None``. Reasons: ``flag_captured``, ``no_legal_action``,
        ``move_cap`` (a draw)."""
        return state.outcome

    def action_visible_to(self, state: StrategoState, seat: int, action: Any) -> frozenset[int] | None:
        """Setups and the placements of returned castles are seen by their seat only; the die and
        every other action are public."""
        if seat == CHANCE:
            return None
        if state.phase in (SETUP, RETURN):
            return frozenset({seat})
        return None

    # ------------------------------------------------------------------ apply

    def apply(self, state: StrategoState, actions: Mapping[int, Action]) -> tuple[StrategoState, list[Event]]:
        """Apply both setups, the die, or the seat to move's action.

        :returns: the new state and its events (see the class docstring).
        :raises GameOver: the game has ended.
        :raises IllegalAction: the wrong seats, or an action that is not legal here.
        """
        phase = state.phase
        if phase == PLAY and state.config.variant == VICTORY and len(actions) == 1:  # the hot path
            seat = state.to_move
            action = actions.get(seat)
            if action is not None and _is_listed(state, action):  # else: the checks below explain
                kind = action[0]
                if kind == "move":
                    return _victory_move(state, seat, action[1], action[2])
                if kind == "attack":
                    return _victory_attack(state, seat, action[1], action[2])
                return _tower_attack(state, seat, action[1], action[2])
        if phase == OVER:
            raise GameOver("the game is over")
        to_act = self.to_act(state)
        if set(actions) != to_act:
            raise IllegalAction(f"{self.name}: expected actions of {sorted(to_act)}, got {sorted(actions)}")
        if phase == SETUP:
            for seat in (0, 1):
                if not self.is_legal(state, seat, actions[seat]):
                    raise IllegalAction(f"{self.name}: seat {seat}'s setup is not a valid placement")
            return _apply_setup(state, actions[0], actions[1])
        if phase == ROLL:
            die = actions[CHANCE]
            if not (isinstance(die, tuple) and len(die) == 2 and die[0] == "die" and die[1] in D.die_faces):
                raise IllegalAction(f"{self.name}: the chance action here is a die face, got {die!r}")
            return _with(state, phase=FLIP, die=die[1]), [
                Event("die_rolled", {"seat": state.to_move, "face": D.kinds[die[1]]})]
        seat = state.to_move
        action = actions[seat]
        if not self.is_legal(state, seat, action):
            raise IllegalAction(f"{self.name}: {action!r} is not legal for seat {seat} in phase {phase!r}")
        kind = action[0]
        if state.config.variant == VICTORY:
            if kind == "move":
                return _victory_move(state, seat, action[1], action[2])
            if kind == "attack":
                return _victory_attack(state, seat, action[1], action[2])
            return _tower_attack(state, seat, action[1], action[2])
        if kind == "roll":
            return _with(state, phase=ROLL), []
        if kind == "flip":
            return _quest_flip(state, seat, action[1])
        if kind == "tower":
            return _tower_attack(state, seat, -1, action[2])
        return _quest_place(state, seat, action)

    # ------------------------------------------------------------------ views

    def observe(self, state: StrategoState, viewer: int | None) -> dict[str, JSON]:
        """What ``viewer`` (a seat, or ``None`` for a spectator) may see.

        ``{"game", "variant", "seat", "colour", "phase", "to_act", "to_move", "turn", "geometry",
        "castles": [piece], "towers": [[tower] x 3, [tower] x 3], "removed": [[...], [...]],
        "die", "access": [bool, bool], "attackable": [[r, c]], "returning", "restricted",
        "memory_aid", "over", "outcome", "options"}``.

        A piece is ``{"known"?: true, "moved"?: true, "owner", "piece"?, "sq": [r, c], "uid"}``:
        ``piece`` for the viewer's own castles, and for an opponent's castle that was revealed
        (``known``) when the memory aid is on; once the game is over everything is shown.
        """
        return _observe(state, viewer, state.config.memory_aid)

    def bot_observation(self, state: StrategoState, seat: int) -> dict[str, JSON]:
        """:meth:`observe` with the memory aid forced on: a computer remembers every flip and
        combat it saw, as a person could."""
        return _observe(state, seat, True)

    def secrets(self, state: StrategoState, viewer: int | None) -> list[str]:
        """JSON fragments that must not appear in ``viewer``'s serialised observation or events:
        for every castle of another seat whose identity ``viewer`` has not seen,
        ``'"piece": "<id>", "sq": [r, c]'`` (also for a returned castle staged but not yet shown),
        and for every hidden big castle ``'"owner": o, "piece": "<id>", "tower": t'``. Empty once
        the game is over (everything is shown)."""
        if state.phase == OVER:
            return []
        out = []
        revealed = state.revealed
        for sq, uid in enumerate(state.board):
            if uid >= 0 and state.owners[uid] != viewer and uid not in revealed:
                r, c = rc(sq)
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

    def catalog(self) -> dict[str, JSON]:
        """The castle kinds for the rules page: ``{"pieces": [{"id", "strength", "count", "big",
        "movable", "beats", "on_die"}]}``."""
        return {"pieces": catalog_entries()}

    def geometry(self) -> dict[str, JSON]:
        """The board (:meth:`~.data.GameData.geometry_json`)."""
        return D.geometry_json()

    # ------------------------------------------------------------------ JSON

    def encode_action(self, action: Action) -> JSON:
        """Action to JSON (see :meth:`decode_action`)."""
        kind = action[0]
        if kind == "move" or kind == "attack":
            return {kind: {"from": rc(action[1]), "to": rc(action[2])}}
        if kind == "tower":
            if action[1] < 0:
                return {"attack_tower": {"tower": action[2]}}
            return {"attack_tower": {"from": rc(action[1]), "tower": action[2]}}
        if kind == "flip":
            return {"flip": rc(action[1])}
        if kind == "roll":
            return {"roll": True}
        if kind == "die":
            return {"die": D.kinds[action[1]]}
        if kind == "place":
            return {"place": rc(action[1])}
        if kind == "place_tower":
            return {"place": {"tower": action[1]}}
        if kind == "decline_return":
            return {"decline_return": True}
        if kind == "setup":
            return {"setup": setup_to_json(action)}
        raise BadAction(f"{self.name}: unknown action {action!r}")

    def decode_action(self, obj: JSON) -> Action:
        """Parse an action:

        * ``{"setup": {"towers": [3 ids], "rows": [[4 ids] x 4]}}``: own orientation, towers and
          each row from the owner's left to right, rows front row first;
        * Victory: ``{"move": {"from": [r, c], "to": [r, c]}}``, ``{"attack": {"from", "to"}}``,
          ``{"attack_tower": {"from": [r, c], "tower": slot}}``;
        * Quest: ``{"roll": true}``, ``{"flip": [r, c]}``, ``{"attack_tower": {"tower": slot}}``,
          ``{"place": [r, c]}`` / ``{"place": {"tower": slot}}``, ``{"decline_return": true}``;
        * chance: ``{"die": "<face>"}``.

        :raises BadAction: not one of these shapes, a square off the board, an unknown id.
        """
        if not isinstance(obj, dict) or len(obj) != 1:
            raise BadAction(f"{self.name}: an action is an object with one key, got {obj!r}")
        key, value = next(iter(obj.items()))
        if key in ("move", "attack"):
            if not isinstance(value, dict) or set(value) != {"from", "to"}:
                raise BadAction(f"{self.name}: {key!r} needs {{'from': [r, c], 'to': [r, c]}}, got {value!r}")
            return (key, _square(value["from"]), _square(value["to"]))
        if key == "attack_tower":
            if not isinstance(value, dict) or "tower" not in value or not set(value) <= {"from", "tower"}:
                raise BadAction(f"{self.name}: 'attack_tower' needs {{'tower': slot}} (and 'from' in Victory)")
            return ("tower", _square(value["from"]) if "from" in value else -1, _slot(value["tower"]))
        if key == "flip":
            return ("flip", _square(value))
        if key == "roll":
            if value is not True:
                raise BadAction(f"{self.name}: 'roll' takes true")
            return ("roll",)
        if key == "decline_return":
            if value is not True:
                raise BadAction(f"{self.name}: 'decline_return' takes true")
            return ("decline_return",)
        if key == "place":
            if isinstance(value, dict):
                if set(value) != {"tower"}:
                    raise BadAction(f"{self.name}: 'place' takes [r, c] or {{'tower': slot}}")
                return ("place_tower", _slot(value["tower"]))
            return ("place", _square(value))
        if key == "die":
            if not isinstance(value, str) or value not in D.index or D.index[value] not in D.die_faces:
                raise BadAction(f"{self.name}: unknown die face {value!r}")
            return ("die", D.index[value])
        if key == "setup":
            if not isinstance(value, dict) or set(value) != {"towers", "rows"}:
                raise BadAction(f"{self.name}: 'setup' needs {{'towers': [...], 'rows': [[...], ...]}}")
            towers, rows = value["towers"], value["rows"]
            if not isinstance(towers, list | tuple) or not isinstance(rows, list | tuple):
                raise BadAction(f"{self.name}: 'towers' and 'rows' are lists")
            for item in (*towers, *rows):
                if isinstance(item, dict):
                    raise BadAction(f"{self.name}: malformed setup")
            if not all(isinstance(r, list | tuple) for r in rows):
                raise BadAction(f"{self.name}: each row is a list of castle ids")
            for pid in (*towers, *(p for r in rows for p in r)):
                if not isinstance(pid, str):
                    raise BadAction(f"{self.name}: castle ids are strings, got {pid!r}")
            # shape and counts are checked by is_legal, so an illegal placement is IllegalAction
            return ("setup", tuple(towers), tuple(tuple(r) for r in rows))
        raise BadAction(f"{self.name}: unknown action key {key!r}")

    def encode_state(self, state: StrategoState) -> JSON:
        """The whole state as JSON (holds every secret: storage only)."""
        return {
            "config": state.config.to_json(),
            "phase": state.phase,
            "to_move": state.to_move,
            "turn": state.turn,
            "board": list(state.board),
            "kinds": [D.kinds[k] for k in state.kinds],
            "owners": list(state.owners),
            "pos": list(state.pos),
            "towers": [[None if k < 0 else D.kinds[k] for k in row] for row in state.towers],
            "revealed": sorted(state.revealed),
            "moved": sorted(state.moved),
            "history": [[None if m is None else list(m) for m in h] for h in state.history],
            "removed": [list(r) for r in state.removed],
            "big_out": [[D.kinds[k] for k in r] for r in state.big_out],
            "die": None if state.die < 0 else D.kinds[state.die],
            "returning": [D.kinds[k] for k in state.returning],
            "staged": [[D.kinds[k], t] for k, t in state.staged],
            "outcome": None if state.outcome is None else state.outcome.to_json(),
        }

    def decode_state(self, obj: JSON) -> StrategoState:
        """Inverse of :meth:`encode_state`.

        :raises ValueError: a malformed snapshot.
        """
        if obj.get("phase") not in _PHASES:
            raise ValueError(f"{self.name}: unknown phase {obj.get('phase')!r}")
        idx = D.index
        return StrategoState(
            config=Config(**obj["config"]),
            phase=obj["phase"],
            to_move=int(obj["to_move"]),
            turn=int(obj["turn"]),
            board=tuple(obj["board"]),
            kinds=tuple(idx[k] for k in obj["kinds"]),
            owners=tuple(obj["owners"]),
            pos=tuple(obj["pos"]),
            towers=_pair_of(tuple(-1 if k is None else idx[k] for k in row) for row in obj["towers"]),
            revealed=frozenset(obj["revealed"]),
            moved=frozenset(obj["moved"]),
            history=_pair_of(tuple(None if m is None else tuple(m) for m in h) for h in obj["history"]),
            removed=(tuple(obj["removed"][0]), tuple(obj["removed"][1])),
            big_out=(tuple(idx[k] for k in obj["big_out"][0]), tuple(idx[k] for k in obj["big_out"][1])),
            die=-1 if obj["die"] is None else idx[obj["die"]],
            returning=tuple(idx[k] for k in obj["returning"]),
            staged=tuple((idx[k], int(t)) for k, t in obj["staged"]),
            outcome=None if obj["outcome"] is None else Outcome.from_json(obj["outcome"]),
        )


def _pair_of(items: Iterable[Any]) -> tuple[Any, Any]:
    first, second = items
    return (first, second)


_BOTH_SEATS = frozenset({0, 1})
_NOBODY: frozenset[int] = frozenset()
_CHANCE_ONLY = frozenset({CHANCE})
_SEAT = (frozenset({0}), frozenset({1}))


def _square(value: Any) -> int:
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise BadAction(f"stratego_junior: a square is [row, column], got {value!r}")
    try:
        return D.sq(value[0], value[1])
    except ValueError as exc:
        raise BadAction(f"stratego_junior: {exc}") from None


def _slot(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < D.towers:
        raise BadAction(f"stratego_junior: a tower slot is 0..{D.towers - 1}, got {value!r}")
    return value


# ============================================================================== transitions


def _with(state: StrategoState, **changes: Any) -> StrategoState:
    """A copy of ``state`` with ``changes`` and no cached legal actions.

    Built by filling the instance dictionary directly: a frozen dataclass's ``__init__`` costs a
    ``object.__setattr__`` per field, about four times this, and this is the engine's hot path."""
    new = _new_state(StrategoState)
    values = {**state.__dict__, "cache": None, **changes}
    if "kinds" in changes or "owners" in changes:
        values["movers"] = None
    _set_attr(new, "__dict__", values)
    return new


_new_state = object.__new__
_set_attr = object.__setattr__


def _is_listed(state: StrategoState, action: Any) -> bool:
    """``action`` is one of ``state.to_move``'s legal actions (built-once tuples match by identity)."""
    try:
        return action in _legal(state)
    except TypeError:  # an uncomparable value
        return False


def _legal(state: StrategoState) -> tuple[Action, ...]:
    """The legal actions of ``state.to_move`` (cached on the state)."""
    cache = state.cache
    if cache is None:
        cache = _compute_legal(state)
        object.__setattr__(state, "cache", cache)
    return cache


def _compute_legal(state: StrategoState) -> tuple[Action, ...]:
    phase, seat = state.phase, state.to_move
    if phase == PLAY:
        if state.config.variant == VICTORY:
            return victory_actions(state, seat)
        other = 1 - seat
        reach = reachable(state.board, other)
        out: list[Action] = []
        if has_access(state.board, other, reach):
            out += [("tower", -1, t) for t, k in enumerate(state.towers[other]) if k >= 0]
        if attackable(state.board, other, reach):
            out.append(("roll",))
        return tuple(out)
    if phase == FLIP:
        return tuple(("flip", sq) for sq in attackable(state.board, 1 - seat))
    if phase == RETURN:
        kind = state.returning[0]
        if kind in D.big:
            taken = {-1 - t for _, t in state.staged if t < 0}
            out = [("place_tower", t) for t, k in enumerate(state.towers[seat]) if k < 0 and t not in taken]
        else:
            taken = {t for _, t in state.staged}
            out = [("place", sq) for row in D.formation[seat] for sq in row
                   if state.board[sq] < 0 and sq not in taken]
            out.sort(key=lambda a: a[1])
        if state.config.black_knight_return_optional and not state.staged:
            out.append(("decline_return",))
        return tuple(out)
    return ()


def _quest_actions_exist(state: StrategoState, seat: int) -> tuple[bool, bool]:
    other = 1 - seat
    reach = reachable(state.board, other)
    towers_left = any(k >= 0 for k in state.towers[other])
    return has_access(state.board, other, reach) and towers_left, bool(attackable(state.board, other, reach))


def _game_over(state: StrategoState, outcome: Outcome, events: list[Event]) -> tuple[StrategoState, list[Event]]:
    winners = outcome.winners
    events.append(Event("game_over", {**outcome.to_json(), "winner": winners[0] if len(winners) == 1 else None}))
    return _with(state, phase=OVER, outcome=outcome, die=-1), events


def _loss_for(seat: int, reason: str) -> Outcome:
    results = ["win", "win"]
    results[seat] = "loss"
    return Outcome(tuple(results), reason=reason)


def _start_turn(state: StrategoState, seat: int, events: list[Event]) -> tuple[StrategoState, list[Event]]:
    """``seat``'s turn begins: no legal action loses (AMBIGUITY 8), then the move cap draws; in
    Quest without access the die rolls at once (the roll is the only option)."""
    cap = state.config.move_cap
    if state.config.variant == VICTORY:
        if state.phase != PLAY or state.to_move != seat:
            state = _with(state, phase=PLAY, to_move=seat, die=-1)
        acts = _compute_legal(state)
        if not acts:
            return _game_over(state, _loss_for(seat, "no_legal_action"), events)
        if cap and state.turn >= cap:
            return _game_over(state, Outcome(("draw", "draw"), reason="move_cap"), events)
        object.__setattr__(state, "cache", acts)
        return state, events
    access, can_flip = _quest_actions_exist(state, seat)
    if not access and not can_flip:
        return _game_over(_with(state, to_move=seat), _loss_for(seat, "no_legal_action"), events)
    if cap and state.turn >= cap:
        return _game_over(_with(state, to_move=seat), Outcome(("draw", "draw"), reason="move_cap"), events)
    return _with(state, phase=PLAY if access else ROLL, to_move=seat, die=-1), events


def _apply_setup(state: StrategoState, red: Setup, blue: Setup) -> tuple[StrategoState, list[Event]]:
    """Place both setups (spec section 3); uids follow the squares' order, seat 0 first."""
    at: dict[int, int] = {}
    towers = []
    for seat, (_, tw, rows) in enumerate((red, blue)):
        for row_squares, row in zip(D.formation[seat], rows, strict=True):
            for sq, pid in zip(row_squares, row, strict=True):
                at[sq] = D.index[pid]
        slots = [-1] * D.towers
        for slot, pid in zip(D.tower_order[seat], tw, strict=True):
            slots[slot] = D.index[pid]
        towers.append(tuple(slots))
    board = [-1] * D.squares
    kinds, owners, pos = [], [], []
    for seat in (0, 1):
        for sq in sorted(D.formation_squares[seat]):
            board[sq] = len(kinds)
            kinds.append(at[sq])
            owners.append(seat)
            pos.append(sq)
    new = _with(state, phase=PLAY, board=tuple(board), kinds=tuple(kinds), owners=tuple(owners),
                pos=tuple(pos), towers=(towers[0], towers[1]))
    return _start_turn(new, 0, [Event("setup_done", {"seats": [0, 1], "first": 0})])


def _end_turn(state: StrategoState, seat: int, events: list[Event],
              **changes: Any) -> tuple[StrategoState, list[Event]]:
    """``seat``'s turn is over: apply ``changes``, count the turn and start the other seat's."""
    if state.config.variant == VICTORY:
        new = _with(state, turn=state.turn + 1, phase=PLAY, to_move=1 - seat, **changes)
    else:
        new = _with(state, turn=state.turn + 1, **changes)
    return _start_turn(new, 1 - seat, events)


def _set(seq: tuple, index: int, value: Any) -> tuple:
    lst = list(seq)
    lst[index] = value
    return tuple(lst)


def _pair(pair: tuple, seat: int, value: Any) -> tuple:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def _victory_move(state: StrategoState, seat: int, a: int, b: int) -> tuple[StrategoState, list[Event]]:
    """Spec 5.1.1: one castle one square to an empty neighbour (the hottest path: built inline)."""
    uid = state.board[a]
    board = list(state.board)
    board[a] = -1
    board[b] = uid
    pos = list(state.pos)
    pos[uid] = b
    history = state.history
    mine = (history[seat][1], (uid, a, b))
    moved = state.moved
    if uid not in moved:
        moved = moved | {uid}
    events = [Event("moved", {"seat": seat, "uid": uid, "from": list(_RC[a]), "to": list(_RC[b])})]
    new = _new_state(StrategoState)
    _set_attr(new, "__dict__", {
        **state.__dict__, "cache": None, "turn": state.turn + 1, "to_move": 1 - seat, "board": tuple(board),
        "pos": tuple(pos), "moved": moved, "history": (mine, history[1]) if seat == 0 else (history[0], mine),
    })
    return _start_turn(new, 1 - seat, events)


def _victory_attack(state: StrategoState, seat: int, a: int, b: int) -> tuple[StrategoState, list[Event]]:
    """Spec 5.2: both castles are revealed; the combat table decides (``DATA.combat``)."""
    board, kinds = state.board, state.kinds
    att, dfn = board[a], board[b]
    other = 1 - seat
    result = D.combat[kinds[att]][kinds[dfn]]
    new_board = list(board)
    pos = list(state.pos)
    removed = [state.removed[0], state.removed[1]]
    gone = []
    new_board[a] = -1
    if result == ATTACKER:
        new_board[b] = att
        pos[att] = b
        pos[dfn] = -1
        removed[other] += (dfn,)
        gone.append(_piece(dfn, other, kinds[dfn], b))
    elif result == DEFENDER:
        pos[att] = -1
        removed[seat] += (att,)
        gone.append(_piece(att, seat, kinds[att], a))
    else:  # BOTH: equal strength
        new_board[b] = -1
        pos[att] = pos[dfn] = -1
        removed[seat] += (att,)
        removed[other] += (dfn,)
        gone.append(_piece(att, seat, kinds[att], a))
        gone.append(_piece(dfn, other, kinds[dfn], b))
    events = [
        Event("combat", {
            "seat": seat, "from": rc(a), "to": rc(b),
            "attacker": _piece(att, seat, kinds[att], a), "defender": _piece(dfn, other, kinds[dfn], b),
            "winner": ("attacker", "defender", "none")[result],
        }),
        Event("removed", {"cause": "combat", "castles": gone}),
    ]
    moved = state.moved
    if result == ATTACKER and att not in moved:
        moved = moved | {att}
    return _end_turn(
        state, seat, events, board=tuple(new_board), pos=tuple(pos), removed=(removed[0], removed[1]),
        revealed=state.revealed | {att, dfn}, moved=moved, history=_pair(state.history, seat, _NO_HISTORY),
    )


def _tower_attack(state: StrategoState, seat: int, a: int, slot: int) -> tuple[StrategoState, list[Event]]:
    """A big-castle attack (Quest 4.2 B without a roll; Victory 5.1.3 from square ``a`` of the
    opponent's back row): the big castle is revealed; flag wins, jester is removed, the Black Knight
    is removed and then returns the removed castles (Quest) or takes the attacker with it
    (Victory)."""
    other = 1 - seat
    kind = state.towers[other][slot]
    attacker = None if a < 0 else _piece(state.board[a], seat, None, a)
    events = [Event("tower_attacked", {"seat": seat, "owner": other, "tower": slot, "piece": D.kinds[kind],
                                       "attacker": attacker})]
    victory = state.config.variant == VICTORY
    history = _pair(state.history, seat, _NO_HISTORY) if victory else state.history
    if kind == D.flag:
        new = _with(state, turn=state.turn + 1, history=history)
        return _game_over(new, _loss_for(other, "flag_captured"), events)
    towers = _pair(state.towers, other, _set(state.towers[other], slot, -1))
    big_out = _pair(state.big_out, other, state.big_out[other] + (kind,))
    gone: list[JSON] = [_tower(other, kind, slot)]
    if kind != D.black_knight:  # the jester (spec 4.2 B, 5.3): removed, the attacker stays
        events.append(Event("removed", {"cause": "tower", "castles": gone}))
        return _end_turn(state, seat, events, towers=towers, big_out=big_out, history=history)
    if victory:  # spec 5.3 / AMBIGUITY 12: the Black Knight takes the attacker with it
        uid = state.board[a]
        gone.append(_piece(uid, seat, None, a))
        events.append(Event("removed", {"cause": "black_knight", "castles": gone}))
        return _end_turn(
            state, seat, events, towers=towers, big_out=big_out, history=history,
            board=_set(state.board, a, -1), pos=_set(state.pos, uid, -1),
            removed=_pair(state.removed, seat, state.removed[seat] + (uid,)),
        )
    # Quest (spec 4.2 B, AMBIGUITY 5): every castle taken so far returns, placed by its owner.
    events.append(Event("removed", {"cause": "black_knight", "castles": gone}))
    back = sorted((state.kinds[u] for u in state.removed[other]), key=lambda k: (D.small.index(k)))
    if state.config.black_knight_returns_jester and D.jester in big_out[other]:
        back.insert(0, D.jester)
    state = _with(state, turn=state.turn + 1, towers=towers, big_out=big_out)
    if not back:
        return _start_turn(state, other, events)
    events.append(Event("castles_returning", {"owner": other, "pieces": [D.kinds[k] for k in back],
                                              "count": len(back)}))
    return _with(state, phase=RETURN, to_move=other, returning=tuple(back), staged=()), events


def _quest_flip(state: StrategoState, seat: int, sq: int) -> tuple[StrategoState, list[Event]]:
    """Spec 4.2 A: the flipped castle is revealed to both; it falls when it matches the die."""
    other = 1 - seat
    uid = state.board[sq]
    kind = state.kinds[uid]
    falls = kind == state.die
    piece = _piece(uid, other, kind, sq)
    events = [Event("flip", {"seat": seat, "die": D.kinds[state.die], "castle": piece, "falls": falls})]
    revealed = state.revealed if uid in state.revealed else state.revealed | {uid}
    if not falls:
        return _end_turn(state, seat, events, revealed=revealed, die=-1)
    events.append(Event("removed", {"cause": "flip", "castles": [piece]}))
    return _end_turn(
        state, seat, events, revealed=revealed, die=-1, board=_set(state.board, sq, -1),
        pos=_set(state.pos, uid, -1), removed=_pair(state.removed, other, state.removed[other] + (uid,)),
    )


def _quest_place(state: StrategoState, seat: int, action: Action) -> tuple[StrategoState, list[Event]]:
    """Spec 4.2 B Black Knight: the owner places the next returned castle (or declines them all,
    option ``black_knight_return_optional``); after the last, they appear on the board at once."""
    if action[0] == "decline_return":
        new = _with(state, returning=(), staged=())
        return _start_turn(new, seat, [Event("return_declined", {"owner": seat})])
    kind = state.returning[0]
    if action[0] == "place_tower":
        target, where = -1 - action[1], {"tower": action[1]}
    else:
        target, where = action[1], {"sq": rc(action[1])}
    staged = state.staged + ((kind, target),)
    events = [Event("castle_placed", {"owner": seat, "piece": D.kinds[kind], **where},
                    visible_to=frozenset({seat}), public={"owner": seat})]
    if len(state.returning) > 1:
        return _with(state, returning=state.returning[1:], staged=staged), events
    board = list(state.board)
    kinds, owners, pos = list(state.kinds), list(state.owners), list(state.pos)
    towers = list(state.towers[seat])
    full, public = [], []
    tower_full, tower_public = [], []
    big_out = list(state.big_out[seat])
    for kind_i, target_i in sorted(staged, key=lambda kt: (kt[1] < 0, abs(kt[1]))):
        if target_i < 0:
            slot = -1 - target_i
            towers[slot] = kind_i
            big_out.remove(kind_i)
            tower_full.append(_tower(seat, kind_i, slot))
            tower_public.append(_tower(seat, None, slot))
            continue
        uid = len(kinds)
        kinds.append(kind_i)
        owners.append(seat)
        pos.append(target_i)
        board[target_i] = uid
        full.append(_piece(uid, seat, kind_i, target_i))
        public.append(_piece(uid, seat, None, target_i))
    events.append(Event("castles_returned", {"owner": seat, "castles": full, "towers": tower_full},
                        visible_to=frozenset({seat}),
                        public={"owner": seat, "castles": public, "towers": tower_public}))
    new = _with(
        state, board=tuple(board), kinds=tuple(kinds), owners=tuple(owners), pos=tuple(pos),
        towers=_pair(state.towers, seat, tuple(towers)), big_out=_pair(state.big_out, seat, tuple(big_out)),
        removed=_pair(state.removed, seat, ()), returning=(), staged=(),
    )
    return _start_turn(new, seat, events)


# ============================================================================== observation


def _observe(state: StrategoState, viewer: int | None, memory: bool) -> dict[str, JSON]:
    over = state.phase == OVER
    revealed, moved = state.revealed, state.moved
    kinds, owners = state.kinds, state.owners
    castles = []
    for sq, uid in enumerate(state.board):
        if uid < 0:
            continue
        owner = owners[uid]
        known = uid in revealed
        show = over or owner == viewer or (memory and known)
        castles.append(_piece(uid, owner, kinds[uid] if show else None, sq,
                              known=known and (show or owner == viewer), moved=uid in moved))
    towers = []
    for seat in (0, 1):
        row = state.towers[seat]
        towers.append([_tower(seat, row[t] if (over or seat == viewer) else None, t) if row[t] >= 0
                       else {"empty": True, "owner": seat, "tower": t} for t in range(D.towers)])
    removed = []
    for seat in (0, 1):
        out = []
        for uid in state.removed[seat]:
            show = over or seat == viewer or uid in revealed
            out.append(_piece(uid, seat, kinds[uid] if show else None, None, known=uid in revealed and show))
        out += [{"known": True, "owner": seat, "piece": D.kinds[k]} for k in state.big_out[seat]]
        removed.append(out)
    quest = state.config.variant == QUEST
    playing = state.phase in (PLAY, ROLL, FLIP)
    obs: dict[str, JSON] = {
        "game": "stratego_junior",
        "variant": state.config.variant,
        "seat": viewer,
        "colour": None if viewer is None else COLOURS[viewer],
        "phase": state.phase,
        "to_act": sorted(StrategoJunior.to_act(_RULES, state)),
        "to_move": None if state.phase == SETUP else state.to_move,
        "turn": state.turn,
        "geometry": _GEOMETRY,
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
    if quest and state.phase != SETUP:
        obs["access"] = [has_access(state.board, 1) and any(k >= 0 for k in state.towers[1]),
                         has_access(state.board, 0) and any(k >= 0 for k in state.towers[0])]
        if playing:
            obs["attackable"] = [rc(s) for s in attackable(state.board, 1 - state.to_move)]
    if state.phase == RETURN:
        owner = state.to_move
        ret: dict[str, JSON] = {
            "owner": owner,
            "count": len(state.returning) + len(state.staged),
            "placed": len(state.staged),
            "pieces": [D.kinds[k] for k, _ in state.staged] + [D.kinds[k] for k in state.returning],
            "declinable": state.config.black_knight_return_optional and not state.staged,
        }
        if viewer == owner:
            ret["next"] = D.kinds[state.returning[0]]
            ret["staged"] = [_tower(owner, k, -1 - t) if t < 0 else {"owner": owner, "piece": D.kinds[k], "sq": rc(t)}
                             for k, t in state.staged]
        obs["returning"] = ret
    if not quest and state.phase == PLAY:
        forbid = forbidden_move(state, state.to_move)
        if forbid is not None:
            obs["restricted"] = {"from": rc(forbid[0]), "to": rc(forbid[1])}
    return obs


_RULES = StrategoJunior()
_GEOMETRY = D.geometry_json()
