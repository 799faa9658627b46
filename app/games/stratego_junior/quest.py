"""Stratego Quest (``rules/stratego_junior.md`` section 4): dice, no movement.

A turn is a :class:`~.actions.TowerAttack` (4.2 B, only with back-row access at the start of the
turn) or a :class:`~.actions.Roll`: the die is a public chance step (``{CHANCE}`` draws a
:class:`~.actions.Die`), then the seat flips one attackable castle (:class:`~.actions.Flip`,
4.2 A). Without access the roll is the seat's only option, so the turn goes straight to the chance
step. A Black Knight hands the turn to its owner, who places the returned castles one by one
(:class:`~.actions.Place`, :class:`~.actions.PlaceTower`; their squares hidden from everyone else
until all are placed, or :class:`~.actions.DeclineReturn` with the option), then plays.

Events besides the shared ones (:mod:`.rules`):

* ``die_rolled``: ``{"seat", "face"}`` (public chance).
* ``flip``: ``{"seat", "die", "castle": castle, "falls"}`` (the identity is revealed to everybody).
* ``castles_returning``: ``{"owner", "pieces": [ids], "count"}``.
* ``castle_placed``: ``{"owner", "piece", "sq" | "tower"}`` seen by the owner only; others see
  ``{"owner"}``.
* ``castles_returned``: ``{"owner", "castles": [castle], "towers": [tower]}`` with identities for
  the owner; others see the same without ``piece``.
* ``return_declined``: ``{"owner"}`` (option ``black_knight_return_optional``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ..core.errors import IllegalAction
from ..core.rules import JSON, Event
from ..core.state import evolve
from .actions import (
    DECLINE_RETURN_ACTION,
    DIE,
    FLIPS,
    PLACE_TOWERS,
    PLACES,
    ROLL_ACTION,
    TOWER_ATTACKS,
    DeclineReturn,
    Die,
    Flip,
    Place,
    PlaceTower,
    Roll,
    StrategoAction,
    TowerAttack,
)
from .board import any_attackable, attackable, has_access, rc, reachable
from .data import DATA
from .observe import piece_json, tower_json
from .rules import DRAW_BY_MOVE_CAP, SHARED_OPTIONS, Result, StrategoRules, loss_for
from .state import FLIP, PLAY, QUEST, RETURN, ROLL, SETUP, StrategoState, for_seat, with_castles, with_item

D = DATA
#: the Quest tower attacks (no attacking square), per slot
_TOWER_ATTACKS = TOWER_ATTACKS[-1]


class QuestRules(StrategoRules):
    """Stratego Quest: see the module docstring. Stateless."""

    variant: ClassVar[str] = QUEST
    default_options: ClassVar[Mapping[str, JSON]] = {**SHARED_OPTIONS, "variant": QUEST}

    def position(
        self, castles: Mapping[tuple[int, int], str], *, die: str | None = None, **kwargs: Any
    ) -> StrategoState:
        """:meth:`StrategoRules.position`, and with ``die`` (a face already rolled) the state
        waiting for the flip.

        :raises ValueError: as there, or an unknown face.
        """
        if die is None:
            return super().position(castles, **kwargs)
        if die not in D.index or D.index[die] not in D.die_faces:
            raise ValueError(f"{die!r} is not a face of the die")
        return self._with_legal(evolve(self._placed(castles, **kwargs), phase=FLIP, die=D.index[die]))

    # ------------------------------------------------------------------ actions

    def _list(self, state: StrategoState) -> tuple[StrategoAction, ...]:
        """Phase ``"play"``: the tower attacks (with access) and the roll (when a castle is
        attackable); ``"flip"``: a flip of each attackable castle; ``"return"``: the places for the
        next returned castle (and declining, with the option, before the first)."""
        phase, seat = state.phase, state.to_move
        other = 1 - seat
        board = state.board
        if phase == PLAY:
            reach = reachable(board, other)
            out: list[StrategoAction] = []
            if has_access(board, other, reach):
                out += [_TOWER_ATTACKS[t] for t, k in enumerate(state.towers[other]) if k >= 0]
            if attackable(board, other, reach):
                out.append(ROLL_ACTION)
            return tuple(out)
        if phase == FLIP:
            return tuple(FLIPS[s] for s in attackable(board, other))
        if phase != RETURN:
            return ()
        if state.returning[0] in D.big:
            taken = {-1 - t for _, t in state.staged if t < 0}
            out = [PLACE_TOWERS[t] for t, k in enumerate(state.towers[seat]) if k < 0 and t not in taken]
        else:
            taken = {t for _, t in state.staged}
            out = [
                PLACES[s]
                for s in sorted(s for row in D.formation[seat] for s in row if board[s] < 0 and s not in taken)
            ]
        if state.config.black_knight_return_optional and not state.staged:
            out.append(DECLINE_RETURN_ACTION)
        return tuple(out)

    def _play(self, state: StrategoState, seat: int, action: object) -> Result | None:
        """Apply a legal roll, flip, tower attack or placement (``None`` for anything else)."""
        if not self._accepts(state, action):
            return None
        match action:
            case Roll():
                return evolve(state, phase=ROLL, legal=()), []
            case Flip(square):
                return self._flip(state, seat, square)
            case TowerAttack(_, slot):
                return self._tower_attack(state, seat, -1, slot)
            case Place(square):
                return self._stage(state, seat, square, {"sq": rc(square)})
            case PlaceTower(slot):
                return self._stage(state, seat, -1 - slot, {"tower": slot})
            case DeclineReturn():
                new = evolve(state, returning=(), staged=())
                return self._start_turn(new, seat, [Event("return_declined", {"owner": seat})])
        return None

    def sample_chance(self, state: StrategoState, rng: random.Random) -> StrategoAction:
        """Roll the die: a :class:`~.actions.Die`, every face of ``die_faces`` equally likely
        (AMBIGUITY 2).

        :raises IllegalAction: ``state`` is not a chance node.
        """
        if state.phase != ROLL:
            raise IllegalAction(f"{self.name}: no chance node in phase {state.phase!r}")
        return DIE[D.die_faces[rng.randrange(len(D.die_faces))]]

    def _roll(self, state: StrategoState, die: StrategoAction) -> Result:
        """The die shows ``die``: the seat to move now flips (spec 4.2 A.1).

        :raises IllegalAction: ``die`` is not a face of the die.
        """
        if not (isinstance(die, Die) and die.face in D.die_faces):
            raise IllegalAction(f"{self.name}: the chance action here is a die face, got {die!r}")
        flips = tuple(FLIPS[s] for s in attackable(state.board, 1 - state.to_move))
        return evolve(state, phase=FLIP, die=die.face, legal=flips), [
            Event("die_rolled", {"seat": state.to_move, "face": D.kinds[die.face]})
        ]

    # ------------------------------------------------------------------ turns

    def _start_turn(self, state: StrategoState, seat: int, events: list[Event], **changes: Any) -> Result:
        """``seat``'s turn begins: neither access nor an attackable castle loses (AMBIGUITY 8),
        then the move cap draws; without access the die rolls at once (the roll is the only
        option)."""
        other = 1 - seat
        board = changes.get("board", state.board)
        towers = changes.get("towers", state.towers)[other]
        reach = reachable(board, other)
        access = has_access(board, other, reach) and any(k >= 0 for k in towers)
        can_roll = any_attackable(board, other, reach)
        if not access and not can_roll:
            return self._game_over(
                evolve(state, **{**changes, "to_move": seat}), loss_for(seat, "no_legal_action"), events
            )
        cap = state.config.move_cap
        if cap and changes.get("turn", state.turn) >= cap:
            return self._game_over(evolve(state, **{**changes, "to_move": seat}), DRAW_BY_MOVE_CAP, events)
        legal: tuple[StrategoAction, ...] = ()
        if access:  # else the die rolls at once: chance acts, nobody chooses
            legal = (
                *(_TOWER_ATTACKS[t] for t, k in enumerate(towers) if k >= 0),
                *((ROLL_ACTION,) if can_roll else ()),
            )
        return evolve(
            state, **{**changes, "phase": PLAY if access else ROLL, "to_move": seat, "die": -1, "legal": legal}
        ), events

    def _flip(self, state: StrategoState, seat: int, square: int) -> Result:
        """Spec 4.2 A: the flipped castle is revealed to both; it falls when it matches the die."""
        other = 1 - seat
        uid = state.board[square]
        kind = state.kinds[uid]
        falls = kind == state.die
        piece = piece_json(uid, other, kind, square)
        events = [Event("flip", {"seat": seat, "die": D.kinds[state.die], "castle": piece, "falls": falls})]
        revealed = state.revealed if uid in state.revealed else state.revealed | {uid}
        if not falls:
            return self._end_turn(state, seat, events, revealed=revealed, die=-1)
        events.append(Event("removed", {"cause": "flip", "castles": [piece]}))
        return self._end_turn(
            state,
            seat,
            events,
            revealed=revealed,
            die=-1,
            board=with_item(state.board, square, -1),
            pos=with_item(state.pos, uid, -1),
            removed=for_seat(state.removed, other, (*state.removed[other], uid)),
        )

    def _black_knight(
        self, state: StrategoState, seat: int, from_square: int, slot: int, events: list[Event], **changes: Any
    ) -> Result:
        """Spec 4.2 B, AMBIGUITY 5: every castle taken from the other seat so far returns (and the
        jester, with ``black_knight_returns_jester``), placed by its owner, who then plays."""
        other = 1 - seat
        events.append(Event("removed", {"cause": "black_knight", "castles": [tower_json(other, D.black_knight, slot)]}))
        big_out = changes["big_out"]
        back = sorted((state.kinds[u] for u in state.removed[other]), key=D.small.index)
        if state.config.black_knight_returns_jester and D.jester in big_out[other]:
            back.insert(0, D.jester)
        state = evolve(state, turn=state.turn + 1, **changes)
        if not back:
            return self._start_turn(state, other, events)
        events.append(
            Event("castles_returning", {"owner": other, "pieces": [D.kinds[k] for k in back], "count": len(back)})
        )
        return self._with_legal(evolve(state, phase=RETURN, to_move=other, returning=tuple(back), staged=())), events

    def _stage(self, state: StrategoState, seat: int, target: int, where: dict[str, JSON]) -> Result:
        """Spec 4.2 B Black Knight: the owner places the next returned castle on ``target`` (a
        square, or ``-1 - slot`` for a tower slot); after the last, they appear on the board at
        once."""
        kind = state.returning[0]
        staged = (*state.staged, (kind, target))
        events = [
            Event(
                "castle_placed",
                {"owner": seat, "piece": D.kinds[kind], **where},
                visible_to=frozenset({seat}),
                public={"owner": seat},
            )
        ]
        if len(state.returning) > 1:
            return self._with_legal(evolve(state, returning=state.returning[1:], staged=staged)), events
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
                tower_full.append(tower_json(seat, kind_i, slot))
                tower_public.append(tower_json(seat, None, slot))
                continue
            uid = len(kinds)
            kinds.append(kind_i)
            owners.append(seat)
            pos.append(target_i)
            board[target_i] = uid
            full.append(piece_json(uid, seat, kind_i, target_i))
            public.append(piece_json(uid, seat, None, target_i))
        events.append(
            Event(
                "castles_returned",
                {"owner": seat, "castles": full, "towers": tower_full},
                visible_to=frozenset({seat}),
                public={"owner": seat, "castles": public, "towers": tower_public},
            )
        )
        new = with_castles(
            state,
            tuple(kinds),
            tuple(owners),
            board=tuple(board),
            pos=tuple(pos),
            towers=for_seat(state.towers, seat, tuple(towers)),
            big_out=for_seat(state.big_out, seat, tuple(big_out)),
            removed=for_seat(state.removed, seat, ()),
            returning=(),
            staged=(),
        )
        return self._start_turn(new, seat, events)

    # ------------------------------------------------------------------ views

    def _annotate(self, state: StrategoState, viewer: int | None, obs: dict[str, JSON], reveal: bool = False) -> None:
        """``access``: per seat, whether it has back-row access to the other's towers;
        ``attackable``: the castles the seat to move may flip, ``[[r, c]]``; ``returning`` while a
        Black Knight's castles are placed: ``{"owner", "count", "placed", "pieces", "declinable"}``
        and, for the owner (for everybody with ``reveal``: the match has ended), ``"next"`` and
        ``"staged"`` (where each went)."""
        phase = state.phase
        if phase != SETUP:
            board, towers = state.board, state.towers
            obs["access"] = [
                has_access(board, 1) and any(k >= 0 for k in towers[1]),
                has_access(board, 0) and any(k >= 0 for k in towers[0]),
            ]
            if phase in (PLAY, ROLL, FLIP):
                obs["attackable"] = [rc(s) for s in attackable(board, 1 - state.to_move)]
        if phase == RETURN:
            owner = state.to_move
            ret: dict[str, JSON] = {
                "owner": owner,
                "count": len(state.returning) + len(state.staged),
                "placed": len(state.staged),
                "pieces": [D.kinds[k] for k, _ in state.staged] + [D.kinds[k] for k in state.returning],
                "declinable": state.config.black_knight_return_optional and not state.staged,
            }
            if viewer == owner or reveal:
                ret["next"] = D.kinds[state.returning[0]]
                ret["staged"] = [
                    tower_json(owner, k, -1 - t) if t < 0 else {"owner": owner, "piece": D.kinds[k], "sq": rc(t)}
                    for k, t in state.staged
                ]
            obs["returning"] = ret
