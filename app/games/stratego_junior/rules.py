"""What Quest and Victory share (``rules/stratego_junior.md`` sections 1-3 and 6): options, the
setup phase, turn flow, the big-castle attack, the end of the game, views and JSON.

:class:`StrategoRules` is abstract; a variant (:class:`~.quest.QuestRules`,
:class:`~.victory.VictoryRules`) fills in its turn: which actions it lists and accepts, what each
one does, how a turn starts, what a Black Knight does, and the variant's part of the observation.

Seat 0 is **red** (the last rows, moves first), seat 1 is **blue** (the first rows).

Events (``kind``: data; all public unless said; the variants add their own):

* ``setup_done``: ``{"seats": [0, 1], "first": 0}`` (no identities).
* ``tower_attacked``: ``{"seat", "owner", "tower", "piece", "attacker": castle without identity |
  null}`` (the big castle is revealed).
* ``removed``: ``{"cause": "flip" | "combat" | "tower" | "black_knight", "castles": [castle |
  tower]}``.
* ``game_over``: the outcome JSON plus ``"winner"`` (seat or null).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from ..core.base import BaseRules
from ..core.errors import BadOptions, GameOver, IllegalAction
from ..core.rules import CHANCE, JSON, Event, Outcome
from ..core.state import evolve
from .actions import CODEC, StrategoAction
from .board import geometry as board_geometry
from .data import COLOURS, DATA, catalog_entries
from .observe import observation, piece_json, secrets, tower_json
from .setup import SETUPS, deck_schema, is_valid_setup, place_setups, validate_deck
from .state import (
    FLIP,
    NO_HISTORY,
    OVER,
    PLAY,
    QUEST,
    RETURN,
    ROLL,
    SETUP,
    VARIANTS,
    VICTORY,
    Config,
    StrategoState,
    decode_state,
    encode_state,
    for_seat,
    movers_of,
    to_act,
    with_item,
)

D = DATA

#: the options both variants accept, with their defaults (each variant defaults to itself)
SHARED_OPTIONS: Mapping[str, JSON] = {
    "variant": VICTORY,
    "memory_aid": False,
    "move_cap": 0,
    "black_knight_returns_jester": True,
    "black_knight_return_optional": False,
}

Result = tuple[StrategoState, list[Event]]
#: the end when the ``move_cap`` option's number of turns is reached (AMBIGUITY 8)
DRAW_BY_MOVE_CAP = Outcome(("draw", "draw"), reason="move_cap")
_SEATS = (frozenset({0}), frozenset({1}))


class StrategoRules(BaseRules[StrategoState, StrategoAction]):
    """The rules Quest and Victory share; see the module docstring. Stateless.

    Options (both variants accept all of them, so a match's options are normalised once):

    * ``variant``: ``"quest"`` | ``"victory"``; :meth:`initial_state` refuses the other variant's.
    * ``memory_aid``: keep identities a seat has seen marked in its view (spec 4.2 A.4, 5.5).
    * ``move_cap``: 0 = none; else the game is a draw after that many turns (AMBIGUITY 8; in
      Quest a turn is a roll or a tower attack).
    * ``black_knight_returns_jester`` / ``black_knight_return_optional``: the Quest Black Knight
      alternatives of AMBIGUITY 5 (defaults: the jester returns; returning is mandatory).
    """

    name: ClassVar[str] = "stratego_junior"
    title: ClassVar[str] = "Stratego Junior"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    information: ClassVar[str] = "imperfect"
    #: ``"quest"`` or ``"victory"``: the variant whose states this class makes and plays
    variant: ClassVar[str]
    default_options: ClassVar[Mapping[str, JSON]] = SHARED_OPTIONS
    option_choices: ClassVar[Mapping[str, tuple[JSON, ...]]] = {"variant": VARIANTS}
    option_ranges: ClassVar[Mapping[str, tuple[float, float]]] = {"move_cap": (0, 10_000)}
    conformance_variants: ClassVar[tuple[Mapping[str, JSON], ...]] = (
        {"variant": QUEST},
        {"variant": QUEST, "memory_aid": True, "black_knight_return_optional": True},
        {"variant": VICTORY, "memory_aid": True, "move_cap": 60},
    )
    actions = CODEC

    # ------------------------------------------------------------------ what a variant writes

    def _list(self, state: StrategoState) -> tuple[StrategoAction, ...]:
        """The actions of ``state.to_move`` in phases ``"play"``, ``"flip"`` and ``"return"``,
        listed from the board (what :attr:`~.state.StrategoState.legal` holds)."""
        raise NotImplementedError

    def _play(self, state: StrategoState, seat: int, action: object) -> Result | None:
        """Apply the action of ``seat`` (the seat to move) when :meth:`_accepts` accepts it; ``None``
        when it does not (one dispatch for both, as this is the path of every move)."""
        raise NotImplementedError

    def _start_turn(self, state: StrategoState, seat: int, events: list[Event], **changes: Any) -> Result:
        """``seat``'s turn begins on ``state`` with ``changes`` (one copy of the state for both):
        the end of the game when it has no action (AMBIGUITY 8) or the move cap is reached, else
        the state waiting for it."""
        raise NotImplementedError

    def _black_knight(
        self, state: StrategoState, seat: int, from_square: int, slot: int, events: list[Event], **changes: Any
    ) -> Result:
        """``seat`` revealed the Black Knight in tower ``slot`` of the other seat (attacking from
        ``from_square``, -1 in Quest); ``changes``: the towers, big castles out and history after it."""
        raise NotImplementedError

    def _annotate(self, state: StrategoState, viewer: int | None, obs: dict[str, JSON], reveal: bool = False) -> None:
        """Fill the variant's keys of the observation ``obs`` (``reveal``: the match has ended,
        show what the variant keeps to one seat to everybody)."""

    # ------------------------------------------------------------------ the derived list of actions

    def _with_legal(self, state: StrategoState) -> StrategoState:
        """``state`` with :attr:`~.state.StrategoState.legal` listed (:meth:`_list`), for a decoded
        state and the rare transitions that list after the copy (the frequent ones list first and
        copy once)."""
        if state.phase not in (PLAY, FLIP, RETURN):
            return evolve(state, legal=()) if state.legal else state
        return evolve(state, legal=self._list(state))

    def _legal(self, state: StrategoState) -> tuple[StrategoAction, ...]:
        """The actions of ``state.to_move`` in phases ``"play"``, ``"flip"`` and ``"return"``."""
        return state.legal

    def _accepts(self, state: StrategoState, action: object) -> bool:
        """Whether ``action`` is one of :meth:`_legal` (phases as there; any value may come): the
        listed object itself (what a policy or bot picked) is found without comparing fields, any
        other value by ``==``."""
        legal = state.legal
        for listed in legal:
            if listed is action:
                return True
        return action in legal

    # ------------------------------------------------------------------ options and positions

    def normalize_options(self, options: Mapping[str, JSON]) -> dict[str, JSON]:
        """Fill defaults and check the options (see the class docstring).

        :raises BadOptions: unknown key, wrong type, unknown variant, ``move_cap`` outside
            0..10000.
        """
        out = super().normalize_options(options)
        out["move_cap"] = int(out["move_cap"])
        return out

    def config(self, options: Mapping[str, JSON]) -> Config:
        """The :class:`~.state.Config` of normalised ``options``.

        :raises BadOptions: as :meth:`normalize_options`, or the other variant's options
            (``reason`` ``option_choice``: ``option`` ``variant``, ``choices``: this one).
        """
        config = Config(**self.normalize_options(options))
        if config.variant != self.variant:
            raise BadOptions(
                f"{self.name}: these are the {self.variant} rules, not {config.variant}",
                reason="option_choice",
                params={"option": "variant", "choices": [self.variant]},
            )
        return config

    def initial_state(self, num_players: int, options: Mapping[str, JSON]) -> StrategoState:
        """The setup phase: both seats to place (spec section 3).

        :raises BadOptions: ``num_players`` != 2, bad options, or another variant.
        """
        self.check_players(num_players)
        empty = (-1,) * D.towers
        return StrategoState(self.config(options), SETUP, 0, 0, (-1,) * D.squares, towers=(empty, empty))

    def position(
        self,
        castles: Mapping[tuple[int, int], str],
        *,
        to_move: int = 0,
        towers: Sequence[Sequence[str | None]] | None = None,
        removed: Mapping[int, Sequence[str]] | None = None,
        revealed: Iterable[tuple[int, int]] = (),
        moved: Iterable[tuple[int, int]] = (),
        options: Mapping[str, JSON] | None = None,
        turn: int = 0,
    ) -> StrategoState:
        """A position for tests, puzzles and analysis, at the start of ``to_move``'s turn.

        :param castles: ``{(row, col): "red king" | "blue dragon" | ...}``; uids follow the squares.
        :param towers: per seat, the kind in each tower slot (``None`` = empty); default
            ``flag, black_knight, jester`` in slots 0, 1, 2 for both.
        :param removed: per seat, kinds already taken off (small ones get uids off the board; big
            ones count as taken out and must not be in ``towers``).
        :param revealed: squares whose castles have been revealed to both.
        :param moved: squares whose castles have moved.
        :raises ValueError: an unknown seat or kind, or a big castle on the grid.
        :raises BadOptions: bad ``options``.
        """
        state = self._placed(
            castles,
            to_move=to_move,
            towers=towers,
            removed=removed,
            revealed=revealed,
            moved=moved,
            options=options,
            turn=turn,
        )
        new, _ = self._start_turn(state, to_move, [])
        return new

    def _placed(
        self,
        castles: Mapping[tuple[int, int], str],
        *,
        to_move: int = 0,
        towers: Sequence[Sequence[str | None]] | None = None,
        removed: Mapping[int, Sequence[str]] | None = None,
        revealed: Iterable[tuple[int, int]] = (),
        moved: Iterable[tuple[int, int]] = (),
        options: Mapping[str, JSON] | None = None,
        turn: int = 0,
    ) -> StrategoState:
        """The state of :meth:`position` before ``to_move``'s turn starts (phase ``"play"``)."""
        config = self.config({**(options or {}), "variant": self.variant})
        board = [-1] * D.squares
        kinds: list[int] = []
        owners: list[int] = []
        pos: list[int] = []
        for (r, c), text in sorted(castles.items()):
            colour, kind = text.split()
            seat = COLOURS.index(colour)
            if D.index[kind] in D.big:
                raise ValueError(f"{kind} is a big castle: put it in towers")
            square = D.sq(r, c)
            board[square] = len(kinds)
            kinds.append(D.index[kind])
            owners.append(seat)
            pos.append(square)
        tower_rows = towers or ((D.kinds[D.flag], D.kinds[D.black_knight], D.kinds[D.jester]),) * 2
        tw = [tuple(-1 if k is None else D.index[k] for k in row) for row in tower_rows]
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
        return StrategoState(
            config,
            PLAY,
            to_move,
            turn,
            tuple(board),
            tuple(kinds),
            tuple(owners),
            tuple(pos),
            (tw[0], tw[1]),
            frozenset(board[D.sq(r, c)] for r, c in revealed),
            frozenset(board[D.sq(r, c)] for r, c in moved),
            (NO_HISTORY, NO_HISTORY),
            (tuple(removed_uids[0]), tuple(removed_uids[1])),
            (tuple(big_out[0]), tuple(big_out[1])),
            movers=movers_of(kinds, owners),
        )

    # ------------------------------------------------------------------ queries

    def to_act(self, state: StrategoState) -> frozenset[int]:
        """``{0, 1}`` during setup, ``{CHANCE}`` while the Quest die rolls, the seat to move (or the
        seat placing returned castles), empty when over (:func:`.state.to_act`)."""
        phase = state.phase  # to_act(state), inlined: the driver asks at every step
        if phase == PLAY:
            return _SEATS[state.to_move]
        return to_act(state)

    def legal_actions(self, state: StrategoState, seat: int) -> Sequence[StrategoAction]:
        """The legal actions of ``seat`` now; empty when it is not to act.

        Setup: a few representative setups (:data:`~.setup.SETUPS`); any valid placement is legal
        (:meth:`is_legal`). Then the variant's actions of the seat to move.
        """
        phase = state.phase
        if phase == SETUP:
            return SETUPS if seat in (0, 1) else ()
        if phase in (OVER, ROLL) or seat != state.to_move:
            return ()
        return self._legal(state)

    def is_legal(self, state: StrategoState, seat: int, action: StrategoAction) -> bool:
        """Any valid placement during setup; otherwise one of :meth:`legal_actions` (listed in the
        state when the turn started: found there, not listed again)."""
        phase = state.phase
        if phase == SETUP:
            return seat in (0, 1) and is_valid_setup(action)
        if phase in (OVER, ROLL) or seat != state.to_move:
            return False
        return self._accepts(state, action)

    def deck_schema(self) -> dict[str, JSON]:
        """The JSON Schema of a saved setup (:func:`.setup.deck_schema`)."""
        return deck_schema()

    def validate_deck(self, data: JSON) -> JSON:
        """Check a saved setup and return its normal form ``{"towers": [3 ids], "rows": [[4 ids] x
        4]}`` (:func:`.setup.validate_deck`). A deck works for either colour and variant.

        :raises BadAction: not an object with ``towers`` and ``rows``, or not exactly one side's
            castles (the message says which, ``reason`` as :func:`.setup.validate_deck`).
        """
        return validate_deck(data)

    def sample_chance(self, state: StrategoState, rng: random.Random) -> StrategoAction:
        """Only Quest has chance (its die).

        :raises IllegalAction: ``state`` is not a chance node.
        """
        raise IllegalAction(f"{self.name}: no chance node in phase {state.phase!r}")

    def outcome(self, state: StrategoState) -> Outcome | None:
        """The result once over, else ``None``. Reasons: ``flag_captured``, ``no_legal_action``,
        ``move_cap`` (a draw)."""
        return state.outcome

    def action_visible_to(self, state: StrategoState, seat: int, action: StrategoAction) -> frozenset[int] | None:
        """Setups and the placements of returned castles are seen by their seat only; the die and
        every other action are public."""
        if seat == CHANCE:
            return None
        if state.phase in (SETUP, RETURN):
            return frozenset({seat})
        return None

    # ------------------------------------------------------------------ apply

    def apply(self, state: StrategoState, actions: Mapping[int, StrategoAction]) -> Result:
        """Apply both setups, the die, or the seat to move's action.

        :returns: the new state and its events (see the module docstrings).
        :raises GameOver: the game has ended.
        :raises IllegalAction: the wrong seats, or an action that is not legal here.
        """
        phase = state.phase
        if phase == PLAY and len(actions) == 1:  # the hot path
            seat = state.to_move
            result = self._play(state, seat, actions.get(seat))
            if result is not None:  # else: the checks below explain
                return result
        if phase == OVER:
            raise GameOver("the game is over")
        expected = to_act(state)
        if set(actions) != expected:
            raise IllegalAction(f"{self.name}: expected actions of {sorted(expected)}, got {sorted(actions)}")
        if phase == SETUP:
            red, blue = actions[0], actions[1]
            if not is_valid_setup(red):
                raise IllegalAction(f"{self.name}: seat 0's setup is not a valid placement")
            if not is_valid_setup(blue):
                raise IllegalAction(f"{self.name}: seat 1's setup is not a valid placement")
            placed = place_setups(state, red, blue)
            return self._start_turn(placed, 0, [Event("setup_done", {"seats": [0, 1], "first": 0})])
        if phase == ROLL:
            return self._roll(state, actions[CHANCE])
        seat = state.to_move
        action = actions[seat]
        result = self._play(state, seat, action)
        if result is None:
            raise IllegalAction(f"{self.name}: {action!r} is not legal for seat {seat} in phase {phase!r}")
        return result

    def _roll(self, state: StrategoState, die: StrategoAction) -> Result:
        """Apply the chance outcome (Quest's die).

        :raises IllegalAction: here, always (no chance in this variant).
        """
        raise IllegalAction(f"{self.name}: no chance node in phase {state.phase!r}")

    def _end_turn(self, state: StrategoState, seat: int, events: list[Event], **changes: Any) -> Result:
        """``seat``'s turn is over: apply ``changes``, count the turn and start the other seat's."""
        return self._start_turn(state, 1 - seat, events, turn=state.turn + 1, **changes)

    def _game_over(self, state: StrategoState, outcome: Outcome, events: list[Event]) -> Result:
        """The end: phase ``"over"``, the ``game_over`` event."""
        winners = outcome.winners
        events.append(Event("game_over", {**outcome.to_json(), "winner": winners[0] if len(winners) == 1 else None}))
        return evolve(state, phase=OVER, outcome=outcome, die=-1, legal=()), events

    def _tower_attack(self, state: StrategoState, seat: int, from_square: int, slot: int) -> Result:
        """A big-castle attack (Quest 4.2 B without a roll; Victory 5.1.3 from ``from_square`` on the
        opponent's back row): the big castle is revealed; the flag wins, the jester is removed and
        the attacker stays, the Black Knight is the variant's (:meth:`_black_knight`)."""
        other = 1 - seat
        kind = state.towers[other][slot]
        attacker = None if from_square < 0 else piece_json(state.board[from_square], seat, None, from_square)
        events = [
            Event(
                "tower_attacked",
                {"seat": seat, "owner": other, "tower": slot, "piece": D.kinds[kind], "attacker": attacker},
            )
        ]
        history = for_seat(state.history, seat, NO_HISTORY)  # Quest keeps none: no change there
        if kind == D.flag:
            return self._game_over(
                evolve(state, turn=state.turn + 1, history=history), loss_for(other, "flag_captured"), events
            )
        towers = for_seat(state.towers, other, with_item(state.towers[other], slot, -1))
        big_out = for_seat(state.big_out, other, (*state.big_out[other], kind))
        if kind != D.black_knight:  # the jester (spec 4.2 B, 5.3): removed, the attacker stays
            events.append(Event("removed", {"cause": "tower", "castles": [tower_json(other, kind, slot)]}))
            return self._end_turn(state, seat, events, towers=towers, big_out=big_out, history=history)
        return self._black_knight(
            state, seat, from_square, slot, events, towers=towers, big_out=big_out, history=history
        )

    # ------------------------------------------------------------------ views and JSON

    def observe(self, state: StrategoState, viewer: int | None) -> dict[str, JSON]:
        """What ``viewer`` (a seat, or ``None`` for a spectator) may see: the shared observation
        (:func:`.observe.observation`) with the variant's keys filled. The opponent's identities
        the viewer has seen stay marked only with the ``memory_aid`` option; everything is shown
        once the game is over."""
        obs = observation(state, viewer, state.config.memory_aid)
        self._annotate(state, viewer, obs)
        return obs

    def observe_finished(self, state: StrategoState, viewer: int | None) -> dict[str, JSON]:
        """:meth:`observe` with every castle and tower shown: the match has ended (any ending,
        resignation and abandonment included, where the state is not ``over``)."""
        obs = observation(state, viewer, state.config.memory_aid, reveal=True)
        self._annotate(state, viewer, obs, reveal=True)
        return obs

    def bot_observation(self, state: StrategoState, seat: int) -> dict[str, JSON]:
        """:meth:`observe` with the memory aid forced on: a computer remembers every flip and
        combat it saw, as a person could."""
        obs = observation(state, seat, True)
        self._annotate(state, seat, obs)
        return obs

    def secrets(self, state: StrategoState, viewer: int | None) -> list[str]:
        """The hidden-information declaration (:func:`.observe.secrets`)."""
        return secrets(state, viewer)

    def catalog(self) -> dict[str, JSON]:
        """The castle kinds for the rules page: ``{"pieces": [{"id", "strength", "count", "big",
        "movable", "beats", "on_die"}]}``."""
        return {"pieces": catalog_entries()}

    def geometry(self) -> dict[str, JSON]:
        """The board (:func:`.board.geometry`)."""
        return board_geometry()

    def encode_state(self, state: StrategoState) -> JSON:
        """The whole state as JSON (:func:`.state.encode_state`; holds every secret: storage only)."""
        return encode_state(state)

    def decode_state(self, obj: JSON) -> StrategoState:
        """Inverse of :meth:`encode_state`.

        :raises ValueError: a malformed snapshot, or a snapshot of the other variant.
        """
        state = decode_state(obj)
        if state.config.variant != self.variant:
            raise ValueError(f"{self.name}: a {state.config.variant} snapshot given to the {self.variant} rules")
        return self._with_legal(state)


def loss_for(seat: int, reason: str) -> Outcome:
    """``seat`` loses, the other seat wins, for ``reason``."""
    return Outcome(("loss", "win") if seat == 0 else ("win", "loss"), reason=reason)
