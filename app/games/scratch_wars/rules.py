"""The Scratch Wars duel, levels 1-3 (``rules/scratch_wars.md``), on the engine kit (DESIGN.md
section 2): the :class:`ScratchWars` rules facade.

Flow of a match (phases of :mod:`.state`), each in its own module:

1. ``loadout`` / ``draw_loadouts``: heroes and weapons, chosen or drawn (:mod:`.loadout`, 3.1);
2. ``start_weapon`` / ``start_spin`` / ``start_choice``: who starts (:mod:`.start`, 3.3-3.4);
3. rounds and turns, ``main`` / ``spin`` / ``decide`` / ``order`` / ``combo`` (:mod:`.turn`, 4-7);
4. attacks, ``target`` / ``shield`` (:mod:`.attack`, 8);
5. ``over``: a hero at 0 lives or fewer (section 10).

The facade answers whose turn it is, lists the choices of the phase, and applies an action through
the step of its type (the tables :data:`CHOICES` and :data:`STEPS`). Views are in :mod:`.observe`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from ..core.base import BaseRules
from ..core.errors import GameOver, IllegalAction
from ..core.rules import CHANCE, JSON, Event, Outcome
from . import attack, loadout, observe, start, turn
from .actions import (
    CODEC,
    AddCombo,
    Cancel,
    Detonate,
    DrawnLoadouts,
    EndTurn,
    FirePermanent,
    KeepCombos,
    Loadout,
    Repair,
    ScratchAction,
    ScratchCodec,
    Segment,
    Skip,
    SpendShield,
    SpinWeapon,
    Starter,
    StartSpin,
    TakeHit,
    Target,
    Use,
)
from .data import BOOK, CardBook
from .events import EVENT_KINDS, Events
from .state import (
    ACTIONS_PER_TURN,
    COMBO,
    DECIDE,
    DRAW_LOADOUTS,
    EFFECT_MODES,
    GAME,
    LEGACY_PERMANENT_ORDER,
    LEVELS,
    LOADOUT,
    MAIN,
    ORDER,
    OVER,
    PERMANENT_ORDERS,
    SHIELD,
    SPIN,
    START_CHOICE,
    START_SPIN,
    START_WEAPON,
    TARGET,
    Config,
    Seat,
    Slot,
    State,
    decode_state,
    encode_state,
)

Step = Callable[[CardBook, State, Any, Events], State]
Choices = Callable[[CardBook, State, int], list[ScratchAction]]

#: action type -> its step, ``step(book, state, action, ev) -> state`` (chance outcomes included)
STEPS: dict[type[ScratchAction], Step] = {
    SpinWeapon: turn.spin,
    Segment: turn.spun,
    Use: turn.use,
    Skip: turn.skip,
    Repair: turn.repair,
    Cancel: turn.cancel,
    EndTurn: turn.end_turn,
    AddCombo: turn.add_combo,
    Detonate: turn.detonate,
    KeepCombos: turn.keep_combos,
    FirePermanent: turn.fire,
    Target: attack.aim,
    SpendShield: attack.spend_shield,
    TakeHit: attack.take_hit,
    Starter: start.choose_starter,
    StartSpin: start.spun,
    DrawnLoadouts: loadout.drawn,
}
#: phase -> the choices listed for the seat to act (one seat)
CHOICES: dict[str, Choices] = {
    MAIN: turn.main_choices,
    DECIDE: turn.decide_choices,
    TARGET: attack.target_choices,
    SHIELD: attack.shield_choices,
    COMBO: turn.combo_choices,
    ORDER: turn.order_choices,
    START_CHOICE: start.starter_choices,
    START_WEAPON: start.weapon_choices,
    LOADOUT: loadout.choices,
}
#: phase -> whether the seat to act may play an action, where that is quicker than listing them all
#: (other phases: membership in :data:`CHOICES`)
ALLOWS: dict[str, Callable[[CardBook, State, int, ScratchAction], bool]] = {
    MAIN: turn.main_allows,
    DECIDE: turn.decide_allows,
}
#: chance phase -> (the outcome type it takes, how it is drawn)
CHANCE_NODES: dict[str, tuple[type[ScratchAction], Callable[[CardBook, random.Random, State], ScratchAction]]] = {
    SPIN: (Segment, turn.sample_segment),
    START_SPIN: (StartSpin, start.spin),
    DRAW_LOADOUTS: (DrawnLoadouts, loadout.draw),
}

_NOBODY: frozenset[int] = frozenset()
_CHANCE: frozenset[int] = frozenset({CHANCE})
_BOTH: frozenset[int] = frozenset({0, 1})
_ONE: tuple[frozenset[int], frozenset[int]] = (frozenset({0}), frozenset({1}))
_ACTIVE, _DEFENDER, _CHOOSERS = "active", "defender", "choosers"
#: phase -> who acts: a fixed set, or the active seat, the defender, the seats with a choice
_ACTOR: dict[str, frozenset[int] | str] = {
    MAIN: _ACTIVE,
    DECIDE: _ACTIVE,
    TARGET: _ACTIVE,
    COMBO: _ACTIVE,
    ORDER: _ACTIVE,
    START_CHOICE: _ACTIVE,
    SHIELD: _DEFENDER,
    START_WEAPON: _CHOOSERS,
    SPIN: _CHANCE,
    START_SPIN: _CHANCE,
    DRAW_LOADOUTS: _CHANCE,
    LOADOUT: _BOTH,
    OVER: _NOBODY,
}


class ScratchWars(BaseRules[State, ScratchAction]):
    """The Scratch Wars duel (``rules/scratch_wars.md``): 2 seats, levels 1-3 as option values.

    :param book: the card set (default: the shipped one, ``cards/*.yaml``); tests pass synthetic
        sets such as the golden fixtures.

    Options (:attr:`default_options`): ``level`` 1/2/3 (default 3); ``effects`` at level 2,
    ``"distinguished"`` (2b, default) or ``"every_effect_attacks"`` (2a); ``random_loadouts``
    (skip the loadout phase: chance draws both loadouts); ``permanent_order`` ``"choose"`` (the
    owner orders two or more permanent attacks, AMBIGUITY 16; default) or ``"loadout"``. Events:
    :data:`.events.EVENT_KINDS`.
    """

    name: ClassVar[str] = GAME
    title: ClassVar[str] = "Scratch Wars"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    #: nothing in the state is hidden: the loadouts and start weapons are chosen simultaneously, and the
    #: driver (not the state) keeps a choice hidden until both seats have chosen
    information: ClassVar[str] = "perfect"
    default_options: ClassVar[Mapping[str, JSON]] = {
        "level": 3,
        "effects": "distinguished",
        "random_loadouts": False,
        "permanent_order": "choose",
    }
    option_choices: ClassVar[Mapping[str, tuple[JSON, ...]]] = {
        "level": LEVELS,
        "effects": EFFECT_MODES,
        "permanent_order": PERMANENT_ORDERS,
    }
    conformance_variants: ClassVar[tuple[Mapping[str, JSON], ...]] = (
        {"level": 1},
        {"level": 2, "effects": "every_effect_attacks"},
        {"level": 2, "effects": "distinguished"},
        {"random_loadouts": True},
    )
    actions: ClassVar[ScratchCodec] = CODEC

    def __init__(self, book: CardBook | None = None) -> None:
        self.book = book or BOOK

    # ================================================================== setup

    def initial_state(self, num_players: int, options: Mapping[str, JSON]) -> State:
        """The loadout phase (or the chance node drawing both loadouts with ``random_loadouts``).

        ``options`` without ``permanent_order`` are the options of a match stored before that
        option existed (the service stores every match's options normalized): it plays by the rule
        its log was written with, permanent attacks in loadout order. Normalized options (a new
        match) carry the default, ``"choose"``.

        :raises BadOptions: ``num_players`` != 2 or bad options.
        """
        self.check_players(num_players)
        normal = self.normalize_options(options)
        if "permanent_order" not in options:
            normal["permanent_order"] = LEGACY_PERMANENT_ORDER
        config = Config.of(**normal)
        if config.random_loadouts:
            return State(config, DRAW_LOADOUTS, (None, None), random_seats=(0, 1))
        return State(config, LOADOUT, (None, None))

    def position(
        self,
        heroes: tuple[str, str],
        weapons: tuple[Sequence[str], Sequence[str]],
        *,
        options: Mapping[str, JSON] | None = None,
        lives: tuple[int | None, int | None] = (None, None),
        energy: tuple[int, int] = (0, 0),
        starter: int = 0,
        active: int = 0,
        round: int = 1,
        actions: int = ACTIONS_PER_TURN,
        slots: tuple[Sequence[Slot] | None, Sequence[Slot] | None] = (None, None),
    ) -> State:
        """A ``main``-phase position for tests, puzzles and analysis (no start-of-turn effects applied).

        :param lives: default: each hero's ``lives_duel``.
        :param slots: explicit weapon slots (status, deferred effects); default: every weapon ready.
        :raises BadOptions: bad options. :raises BadAction: an invalid loadout.
        """
        config = Config.of(**self.normalize_options(options or {}))
        seats = []
        for i in (0, 1):
            hero, codes = loadout.check_loadout(self.book, heroes[i], list(weapons[i]), config.level)
            life, given = lives[i], slots[i]
            seats.append(
                Seat(
                    hero,
                    life if life is not None else self.book.hero_rows[hero].lives,
                    energy[i],
                    tuple(given) if given is not None else tuple(Slot(c) for c in codes),
                )
            )
        return State(config, MAIN, (seats[0], seats[1]), starter=starter, active=active, round=round, actions=actions)

    def deck_schema(self) -> dict[str, JSON]:
        """The JSON Schema of a saved loadout (:func:`.loadout.deck_schema`)."""
        return loadout.deck_schema(self.book)

    def validate_deck(self, data: JSON) -> JSON:
        """A saved loadout in normal form (:func:`.loadout.validate_deck`).

        :raises BadAction: not a valid loadout (the message says why; ``reason`` as
            :func:`.loadout.validate_deck`).
        """
        return loadout.validate_deck(self.book, data)

    def random_loadout(self, rng: random.Random) -> Loadout:
        """A "quick random" loadout (:func:`.loadout.random_loadout`)."""
        return loadout.random_loadout(self.book, rng)

    # ================================================================== queries

    def to_act(self, state: State) -> frozenset[int]:
        """``{0, 1}`` choosing loadouts (or start weapons), ``{CHANCE}`` at a spin or a loadout draw,
        the defender while it may spend shields, else the active seat; empty when over."""
        actor = _ACTOR[state.phase]
        if actor is _ACTIVE:
            return _ONE[state.active]
        if actor is _DEFENDER:
            return _ONE[1 - state.active]
        if actor is _CHOOSERS:
            return frozenset(i for i in (0, 1) if len(state.seat(i).slots) > 1)
        return actor  # type: ignore[return-value]  # the fixed sets (no isinstance on the hot path)

    def outcome(self, state: State) -> Outcome | None:
        """The result once over (section 10), else ``None``."""
        return state.outcome

    def legal_actions(self, state: State, seat: int) -> tuple[ScratchAction, ...]:
        """The choices of ``seat`` now (empty when it need not act).

        In the loadout phase, a few representative loadouts: "random" and each hero with its
        suggested weapons (any valid loadout is accepted, see :meth:`is_legal`).
        """
        if seat == CHANCE or seat not in self.to_act(state):
            return ()
        return tuple(CHOICES[state.phase](self.book, state, seat))

    def choices(self, state: State, seat: int) -> list[ScratchAction]:
        """The choices the phase lists for ``seat``, without checking that ``seat`` is to act (the
        bots' look-ahead: the seat to act in a one-seat phase, never a chance node)."""
        return CHOICES[state.phase](self.book, state, seat)

    def is_legal(self, state: State, seat: int, action: ScratchAction) -> bool:
        """Whether ``seat`` may play ``action`` now. In the loadout phase any valid loadout for the
        match's level counts (:func:`.loadout.loadout_ok`), not only the listed ones."""
        if seat == CHANCE or seat not in self.to_act(state):
            return False
        return self._allows(state, seat, action)

    def _allows(self, state: State, seat: int, action: ScratchAction) -> bool:
        """``is_legal`` for the seat known to be acting."""
        phase = state.phase
        if phase == LOADOUT:
            return loadout.loadout_ok(self.book, action, state.config.level)
        allows = ALLOWS.get(phase)
        if allows is not None:
            return allows(self.book, state, seat, action)
        return action in CHOICES[phase](self.book, state, seat)

    def sample_chance(self, state: State, rng: random.Random) -> ScratchAction:
        """Draw the segment of the weapon being spun (uniform, AMBIGUITY 17), both start-spin
        segments, or the random loadouts.

        :raises IllegalAction: ``state`` is not a chance node.
        """
        node = CHANCE_NODES.get(state.phase)
        if node is None:
            raise IllegalAction(f"{GAME}: no chance node in phase {state.phase!r}")
        return node[1](self.book, rng, state)

    def action_visible_to(self, state: State, seat: int, action: ScratchAction) -> frozenset[int] | None:
        """Spins and drawn loadouts are public (unlike the kit's default that hides chance); a
        loadout or start weapon is seen only by its seat until both chose; the rest is public."""
        if seat == CHANCE:
            return None
        if state.phase in (LOADOUT, START_WEAPON) and len(self.to_act(state)) > 1:
            return frozenset({seat})
        return None

    # ================================================================== apply

    def apply(self, state: State, actions: Mapping[int, ScratchAction]) -> tuple[State, list[Event]]:
        """Apply the actions of exactly the seats in ``to_act(state)``.

        :returns: the new state and its events, in order.
        :raises GameOver: the game has ended.
        :raises IllegalAction: the wrong seats, or an action that is not legal now.
        """
        phase = state.phase
        if phase == OVER:
            raise GameOver("the game is over")
        to_act = self.to_act(state)
        if actions.keys() != to_act:
            raise IllegalAction(f"{GAME}: expected actions of seats {sorted(to_act)}, got {sorted(actions)}")
        ev: list[Event] = []
        if phase == LOADOUT:
            return loadout.choose(self.book, state, actions, ev), ev
        if phase == START_WEAPON:
            return start.choose_weapons(self.book, state, actions, ev), ev
        ((seat, action),) = actions.items()
        if seat == CHANCE:
            kind = CHANCE_NODES[phase][0]
            if type(action) is not kind:
                raise IllegalAction(f"{GAME}: chance outcome {action!r} does not fit phase {phase!r}")
        elif not self._allows(state, seat, action):
            raise IllegalAction(f"{GAME}: {action!r} is not legal for seat {seat} in phase {phase!r}")
        return STEPS[type(action)](self.book, state, action, ev), ev

    def step(self, state: State, action: ScratchAction, ev: Events = None) -> State:
        """Apply one legal action of the seat to act, or a chance outcome that fits, *without*
        checking legality (the bots' look-ahead; :meth:`apply` checks first). Events are appended
        to ``ev`` unless it is ``None``.

        :raises KeyError: ``action`` is not a step of the game (a loadout choice, a start weapon).
        """
        return STEPS[type(action)](self.book, state, action, ev)

    # ================================================================== views

    def observe(self, state: State, viewer: int | None) -> dict[str, JSON]:
        """What ``viewer`` (a seat, or ``None``) sees: the same for everyone (:func:`.observe.observe`)."""
        return observe.observe(self.book, state, viewer, self.to_act(state))

    def secrets(self, state: State, viewer: int | None) -> list[str]:
        """Nothing in the state is hidden (:func:`.observe.secrets`)."""
        return observe.secrets(state, viewer)

    def state_from_observation(self, obs: Mapping[str, JSON]) -> State:
        """The state behind an observation (:func:`.observe.state_from_observation`).

        :raises ValueError: an observation of another game or a malformed one.
        """
        return observe.state_from_observation(obs)

    def catalog(self) -> dict[str, JSON]:
        """The card set for pages and clients (:meth:`~.data.CardBook.catalog`): ``{"heroes",
        "weapons", "wheel_segments", "times_of_day"}``, each card with its ``rarity`` check."""
        return self.book.catalog()

    @staticmethod
    def event_kinds() -> dict[str, list[str]]:
        """Every event kind with its ``data`` keys (all events are public)."""
        return dict(EVENT_KINDS)

    # ================================================================== JSON

    def encode_state(self, state: State) -> JSON:
        """The whole state as JSON (:func:`.state.encode_state`)."""
        return encode_state(state)

    def decode_state(self, obj: JSON) -> State:
        """Inverse of :meth:`encode_state`. :raises ValueError: a malformed snapshot."""
        return decode_state(obj)
