"""Stratego Victory (``rules/stratego_junior.md`` section 5): movement and combat, no dice.

A turn is exactly one action of the seat to move: a :class:`~.actions.Move` to an empty
neighbour (5.1.1, subject to the back-and-forth rule of 5.4), an :class:`~.actions.Attack` on a
neighbouring opposing castle (5.1.2, combat by 5.2), or a :class:`~.actions.TowerAttack` from a
castle standing on the opponent's back row (5.1.3, results by 5.3). A seat with no action at the
start of its turn loses (AMBIGUITY 8).

Events besides the shared ones (:mod:`.rules`):

* ``moved``: ``{"seat", "uid", "from", "to"}`` (no identity).
* ``combat``: ``{"seat", "from", "to", "attacker": castle, "defender": castle, "winner":
  "attacker" | "defender" | "none"}`` (both identities revealed).
* ``removed`` with cause ``black_knight``: the Black Knight and the attacker, listed without its
  identity.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..core.rules import JSON, Event
from ..core.state import evolve
from .actions import STEPS, TOWER_ATTACKS, Attack, Move, StrategoAction, TowerAttack
from .board import RC, rc
from .data import ATTACKER, DATA, DEFENDER
from .observe import piece_json, tower_json
from .rules import DRAW_BY_MOVE_CAP, SHARED_OPTIONS, Result, StrategoRules, loss_for
from .state import NO_HISTORY, PLAY, VICTORY, History, MoveRecord, Pair, StrategoState, for_seat, with_item

D = DATA
_ALL_SLOTS = tuple(range(D.towers))


def forbidden_move(state: StrategoState, seat: int) -> tuple[int, int] | None:
    """The back-and-forth rule (spec 5.4, AMBIGUITY 6): ``(from, to)`` that ``seat`` may not move
    now, or ``None``. After castle p went X->Y and then Y->X on the seat's two latest turns, p may
    not go X->Y; any other action lifts it."""
    return _forbidden(state.board, state.history[seat])


def _forbidden(board: tuple[int, ...], history: tuple[MoveRecord | None, MoveRecord | None]) -> tuple[int, int] | None:
    """:func:`forbidden_move` from the board and the seat's (previous, last) actions."""
    prev, last = history
    if prev is None or last is None:
        return None
    uid, y, x = last  # the last move went Y -> X ...
    if prev[0] == uid and prev[1] == x and prev[2] == y and board[x] == uid:  # ... after X -> Y
        return (x, y)
    return None


def victory_actions(state: StrategoState, seat: int) -> tuple[StrategoAction, ...]:
    """Every Victory action of ``seat`` (spec 5.1): moves and attacks of its movable castles to
    orthogonal neighbours (by uid, then neighbour order), then back-row attacks on each remaining
    tower by each of its castles standing on the opponent's back row (back-row order, then slot).

    For the seat to move this is :attr:`~.state.StrategoState.legal`, listed when its turn starts.
    """
    return _actions(seat, state.board, state.owners, state.pos, state.movers, state.history, state.towers)


def _actions(
    seat: int,
    board: tuple[int, ...],
    owners: tuple[int, ...],
    pos: tuple[int, ...],
    movers: Pair[tuple[int, ...]],
    history: History,
    towers: Pair[tuple[int, ...]],
) -> tuple[StrategoAction, ...]:
    """:func:`victory_actions` from the fields it reads (so a turn can be listed before the state
    that holds the list is made)."""
    steps = STEPS
    out: list[StrategoAction] = []
    append = out.append
    for uid in movers[seat]:
        a = pos[uid]
        if a < 0:
            continue
        for b, move, attack in steps[a]:
            occ = board[b]
            if occ < 0:
                append(move)
            elif owners[occ] != seat:
                append(attack)
    forbid = _forbidden(board, history[seat])
    if forbid is not None and board[forbid[1]] < 0:  # found by identity: ``remove`` would compare fields
        a, b = forbid
        skip = next(move for n, move, _ in steps[a] if n == b)
        del out[next(i for i, listed in enumerate(out) if listed is skip)]
    other = 1 - seat
    slots = _ALL_SLOTS if -1 not in towers[other] else [t for t, k in enumerate(towers[other]) if k >= 0]
    if slots:
        for a in D.back_row[other]:
            occ = board[a]
            if occ >= 0 and owners[occ] == seat:
                attacks = TOWER_ATTACKS[a]
                for t in slots:
                    append(attacks[t])
    return tuple(out)


class VictoryRules(StrategoRules):
    """Stratego Victory: see the module docstring. Stateless."""

    variant: ClassVar[str] = VICTORY
    default_options: ClassVar[Mapping[str, JSON]] = {**SHARED_OPTIONS, "variant": VICTORY}

    def _list(self, state: StrategoState) -> tuple[StrategoAction, ...]:
        """:func:`victory_actions` of the seat to move."""
        return victory_actions(state, state.to_move)

    def _play(self, state: StrategoState, seat: int, action: object) -> Result | None:
        """Apply a legal move, attack or back-row attack (``None`` for anything else)."""
        if not self._accepts(state, action):
            return None
        if type(action) is Move:  # by exact type: listed actions are of these three classes
            return self._move(state, seat, action.from_square, action.to_square)
        if type(action) is Attack:
            return self._attack(state, seat, action.from_square, action.to_square)
        if type(action) is TowerAttack:
            return self._tower_attack(state, seat, action.from_square, action.slot)
        return None

    def _start_turn(self, state: StrategoState, seat: int, events: list[Event], **changes: Any) -> Result:
        """``seat``'s turn begins: its actions are listed into the new state (one copy with
        ``changes``); none loses (AMBIGUITY 8), then the move cap draws."""
        get = changes.get
        legal = _actions(
            seat,
            get("board", state.board),
            state.owners,
            get("pos", state.pos),
            state.movers,
            get("history", state.history),
            get("towers", state.towers),
        )
        return self._turn_begun(evolve(state, **changes, phase=PLAY, to_move=seat, legal=legal), events)

    def _turn_begun(self, state: StrategoState, events: list[Event]) -> Result:
        """The state at the start of ``state.to_move``'s turn, its actions listed: the end when
        there are none (AMBIGUITY 8) or the move cap is reached, else ``state``."""
        if not state.legal:
            return self._game_over(state, loss_for(state.to_move, "no_legal_action"), events)
        cap = state.config.move_cap
        if cap and state.turn >= cap:
            return self._game_over(state, DRAW_BY_MOVE_CAP, events)
        return state, events

    def _move(self, state: StrategoState, seat: int, a: int, b: int) -> Result:
        """Spec 5.1.1: one castle one square to an empty neighbour (the hottest path)."""
        uid = state.board[a]
        board = list(state.board)
        board[a] = -1
        board[b] = uid
        pos = list(state.pos)
        pos[uid] = b
        history = state.history
        mine = (history[seat][1], (uid, a, b))
        moved = state.moved
        events = [Event("moved", {"seat": seat, "uid": uid, "from": list(RC[a]), "to": list(RC[b])})]
        # :meth:`_start_turn` with its arguments at hand: list, then copy the state once
        other, new_board, new_pos = 1 - seat, tuple(board), tuple(pos)
        new_history = (mine, history[1]) if seat == 0 else (history[0], mine)
        legal = _actions(other, new_board, state.owners, new_pos, state.movers, new_history, state.towers)
        new = evolve(
            state,
            turn=state.turn + 1,
            to_move=other,
            board=new_board,
            pos=new_pos,
            moved=moved if uid in moved else moved | {uid},
            history=new_history,
            legal=legal,
        )
        return self._turn_begun(new, events)

    def _attack(self, state: StrategoState, seat: int, a: int, b: int) -> Result:
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
            gone.append(piece_json(dfn, other, kinds[dfn], b))
        elif result == DEFENDER:
            pos[att] = -1
            removed[seat] += (att,)
            gone.append(piece_json(att, seat, kinds[att], a))
        else:  # BOTH: equal strength
            new_board[b] = -1
            pos[att] = pos[dfn] = -1
            removed[seat] += (att,)
            removed[other] += (dfn,)
            gone.append(piece_json(att, seat, kinds[att], a))
            gone.append(piece_json(dfn, other, kinds[dfn], b))
        events = [
            Event(
                "combat",
                {
                    "seat": seat,
                    "from": rc(a),
                    "to": rc(b),
                    "attacker": piece_json(att, seat, kinds[att], a),
                    "defender": piece_json(dfn, other, kinds[dfn], b),
                    "winner": ("attacker", "defender", "none")[result],
                },
            ),
            Event("removed", {"cause": "combat", "castles": gone}),
        ]
        moved = state.moved
        if result == ATTACKER and att not in moved:
            moved = moved | {att}
        return self._end_turn(
            state,
            seat,
            events,
            board=tuple(new_board),
            pos=tuple(pos),
            removed=(removed[0], removed[1]),
            revealed=state.revealed | {att, dfn},
            moved=moved,
            history=for_seat(state.history, seat, NO_HISTORY),
        )

    def _black_knight(
        self, state: StrategoState, seat: int, from_square: int, slot: int, events: list[Event], **changes: Any
    ) -> Result:
        """Spec 5.3 / AMBIGUITY 12: the Black Knight takes the attacker with it; nothing returns."""
        uid = state.board[from_square]
        gone = [tower_json(1 - seat, D.black_knight, slot), piece_json(uid, seat, None, from_square)]
        events.append(Event("removed", {"cause": "black_knight", "castles": gone}))
        return self._end_turn(
            state,
            seat,
            events,
            board=with_item(state.board, from_square, -1),
            pos=with_item(state.pos, uid, -1),
            removed=for_seat(state.removed, seat, (*state.removed[seat], uid)),
            **changes,
        )

    def _annotate(self, state: StrategoState, viewer: int | None, obs: dict[str, JSON], reveal: bool = False) -> None:
        """``restricted``: the move the back-and-forth rule forbids the seat to move now,
        ``{"from": [r, c], "to": [r, c]}``, or ``None``."""
        if state.phase == PLAY:
            forbid = forbidden_move(state, state.to_move)
            if forbid is not None:
                obs["restricted"] = {"from": rc(forbid[0]), "to": rc(forbid[1])}
