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
from .actions import STEPS, TOWER_ATTACKS, Attack, Move, StrategoAction, TowerAttack
from .board import RC, rc
from .data import ATTACKER, DATA, DEFENDER
from .observe import piece_json, tower_json
from .rules import DRAW_BY_MOVE_CAP, SHARED_OPTIONS, Result, StrategoRules, loss_for
from .state import NO_HISTORY, PLAY, VICTORY, StrategoState, evolve, for_seat, with_item

D = DATA
_ALL_SLOTS = tuple(range(D.towers))


def forbidden_move(state: StrategoState, seat: int) -> tuple[int, int] | None:
    """The back-and-forth rule (spec 5.4, AMBIGUITY 6): ``(from, to)`` that ``seat`` may not move
    now, or ``None``. After castle p went X->Y and then Y->X on the seat's two latest turns, p may
    not go X->Y; any other action lifts it."""
    prev, last = state.history[seat]
    if prev is None or last is None:
        return None
    uid, y, x = last  # the last move went Y -> X ...
    if prev[0] == uid and prev[1] == x and prev[2] == y and state.board[x] == uid:  # ... after X -> Y
        return (x, y)
    return None


def _uids_of(owners: tuple[int, ...], seat: int) -> range:
    """The uids from ``seat``'s first castle to its last, in order (castles are numbered side by
    side at the setup, so this skips the other seat's without looking at them)."""
    if seat not in owners:
        return range(0)
    return range(owners.index(seat), len(owners) - owners[::-1].index(seat))


def victory_actions(state: StrategoState, seat: int) -> tuple[StrategoAction, ...]:
    """Every Victory action of ``seat`` (spec 5.1): moves and attacks of its movable castles to
    orthogonal neighbours (by uid, then neighbour order), then back-row attacks on each remaining
    tower by each of its castles standing on the opponent's back row (back-row order, then slot)."""
    board, owners, pos, kinds = state.board, state.owners, state.pos, state.kinds
    movable, steps = D.movable, STEPS
    out: list[StrategoAction] = []
    append = out.append
    for uid in _uids_of(owners, seat):
        a = pos[uid]
        if a < 0 or owners[uid] != seat or not movable[kinds[uid]]:
            continue
        for b, move, attack in steps[a]:
            occ = board[b]
            if occ < 0:
                append(move)
            elif owners[occ] != seat:
                append(attack)
    forbid = forbidden_move(state, seat)
    if forbid is not None and board[forbid[1]] < 0:
        out.remove(Move(*forbid))
    other = 1 - seat
    towers = state.towers[other]
    slots = _ALL_SLOTS if -1 not in towers else [t for t, k in enumerate(towers) if k >= 0]
    if slots:
        for a in D.back_row[other]:
            occ = board[a]
            if occ >= 0 and owners[occ] == seat:
                attacks = TOWER_ATTACKS[a]
                for t in slots:
                    append(attacks[t])
    return tuple(out)


def has_action(state: StrategoState, seat: int) -> bool:
    """Whether :func:`victory_actions` would list anything, without listing it.

    First the castle ``seat`` moved last, if it still stands where it went: the square it left
    is empty (it may step back, unless that is the move the back-and-forth rule forbids) or holds
    an opposing castle (it may attack it), since only the other seat has acted since. That answers
    most turns at once; otherwise every castle is looked at.
    """
    board, owners, pos = state.board, state.owners, state.pos
    prev, last = state.history[seat]
    if last is not None:
        uid, a, b = last
        if pos[uid] == b:
            occ = board[a]
            if (occ < 0 and prev != (uid, b, a)) or (occ >= 0 and owners[occ] != seat):
                return True
    movable, adj, kinds = D.movable, D.adj, state.kinds
    forbid = forbidden_move(state, seat)
    for uid in _uids_of(owners, seat):
        a = pos[uid]
        if a < 0 or owners[uid] != seat or not movable[kinds[uid]]:
            continue
        for b in adj[a]:
            occ = board[b]
            if (occ < 0 and forbid != (a, b)) or (occ >= 0 and owners[occ] != seat):
                return True
    other = 1 - seat
    if any(k >= 0 for k in state.towers[other]):
        return any(board[a] >= 0 and owners[board[a]] == seat for a in D.back_row[other])
    return False


def _can_step(state: StrategoState, seat: int, a: int, b: int) -> bool:
    """A movable castle of ``seat`` stands on square ``a`` next to square ``b`` (an action built
    by hand may hold anything: junk is refused)."""
    if type(a) is not int or not 0 <= a < D.squares or b not in D.adj[a]:
        return False
    uid = state.board[a]
    return uid >= 0 and state.owners[uid] == seat and D.movable[state.kinds[uid]]


def can_move(state: StrategoState, seat: int, a: int, b: int) -> bool:
    """``Move(a, b)`` is legal for ``seat`` (spec 5.1.1 and 5.4)."""
    return (_can_step(state, seat, a, b) and state.board[b] < 0
            and (state.history[seat][0] is None or forbidden_move(state, seat) != (a, b)))


def can_attack(state: StrategoState, seat: int, a: int, b: int) -> bool:
    """``Attack(a, b)`` is legal for ``seat`` (spec 5.1.2)."""
    if not _can_step(state, seat, a, b):
        return False
    occ = state.board[b]
    return occ >= 0 and state.owners[occ] != seat


def can_attack_tower(state: StrategoState, seat: int, a: int, slot: int) -> bool:
    """``TowerAttack(a, slot)`` is legal for ``seat`` (spec 5.1.3): its castle stands on the
    opponent's back row and the slot holds a big castle."""
    other = 1 - seat
    if a not in D.back_row[other] or slot not in _ALL_SLOTS:
        return False
    occ = state.board[a]
    return occ >= 0 and state.owners[occ] == seat and state.towers[other][slot] >= 0


class VictoryRules(StrategoRules):
    """Stratego Victory: see the module docstring. Stateless."""

    variant: ClassVar[str] = VICTORY
    default_options: ClassVar[Mapping[str, JSON]] = {**SHARED_OPTIONS, "variant": VICTORY}

    def _legal(self, state: StrategoState) -> tuple[StrategoAction, ...]:
        """:func:`victory_actions` of the seat to move."""
        return victory_actions(state, state.to_move)

    def _accepts(self, state: StrategoState, action: object) -> bool:
        """The action is one of :func:`victory_actions`, checked on the board directly."""
        seat = state.to_move
        match action:
            case Move(a, b):
                return can_move(state, seat, a, b)
            case Attack(a, b):
                return can_attack(state, seat, a, b)
            case TowerAttack(a, slot):
                return can_attack_tower(state, seat, a, slot)
        return False

    def _play(self, state: StrategoState, seat: int, action: object) -> Result | None:
        """Apply a legal move, attack or back-row attack (``None`` for anything else)."""
        match action:
            case Move(a, b) if can_move(state, seat, a, b):
                return self._move(state, seat, a, b)
            case Attack(a, b) if can_attack(state, seat, a, b):
                return self._attack(state, seat, a, b)
            case TowerAttack(a, slot) if can_attack_tower(state, seat, a, slot):
                return self._tower_attack(state, seat, a, slot)
        return None

    def _start_turn(self, state: StrategoState, seat: int, events: list[Event], **changes: Any) -> Result:
        """``seat``'s turn begins; no action loses (AMBIGUITY 8), then the move cap draws."""
        if changes or state.phase != PLAY or state.to_move != seat:
            state = evolve(state, **{**changes, "phase": PLAY, "to_move": seat, "die": -1})
        if not has_action(state, seat):
            return self._game_over(state, loss_for(seat, "no_legal_action"), events)
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
        new = evolve(state, turn=state.turn + 1, to_move=1 - seat, board=tuple(board), pos=tuple(pos),
                     moved=moved if uid in moved else moved | {uid},
                     history=(mine, history[1]) if seat == 0 else (history[0], mine))
        return self._start_turn(new, 1 - seat, events)

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
            Event("combat", {
                "seat": seat, "from": rc(a), "to": rc(b),
                "attacker": piece_json(att, seat, kinds[att], a), "defender": piece_json(dfn, other, kinds[dfn], b),
                "winner": ("attacker", "defender", "none")[result],
            }),
            Event("removed", {"cause": "combat", "castles": gone}),
        ]
        moved = state.moved
        if result == ATTACKER and att not in moved:
            moved = moved | {att}
        return self._end_turn(
            state, seat, events, board=tuple(new_board), pos=tuple(pos), removed=(removed[0], removed[1]),
            revealed=state.revealed | {att, dfn}, moved=moved, history=for_seat(state.history, seat, NO_HISTORY),
        )

    def _black_knight(self, state: StrategoState, seat: int, from_square: int, slot: int, events: list[Event],
                      **changes: Any) -> Result:
        """Spec 5.3 / AMBIGUITY 12: the Black Knight takes the attacker with it; nothing returns."""
        uid = state.board[from_square]
        gone = [tower_json(1 - seat, D.black_knight, slot), piece_json(uid, seat, None, from_square)]
        events.append(Event("removed", {"cause": "black_knight", "castles": gone}))
        return self._end_turn(
            state, seat, events, board=with_item(state.board, from_square, -1), pos=with_item(state.pos, uid, -1),
            removed=for_seat(state.removed, seat, (*state.removed[seat], uid)), **changes,
        )

    def _annotate(self, state: StrategoState, viewer: int | None, obs: dict[str, JSON]) -> None:
        """``restricted``: the move the back-and-forth rule forbids the seat to move now,
        ``{"from": [r, c], "to": [r, c]}``, or ``None``."""
        if state.phase == PLAY:
            forbid = forbidden_move(state, state.to_move)
            if forbid is not None:
                obs["restricted"] = {"from": rc(forbid[0]), "to": rc(forbid[1])}
