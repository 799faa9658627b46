"""Scratch Wars duel rules engine, levels 1-3 (``rules/scratch_wars.md``), on the core contract of
DESIGN.md section 2.

Flow of a match (phases of :mod:`.state`):

1. ``loadout``: both seats choose at the same time (``to_act == {0, 1}``, each choice hidden until
   both chose) a hero and 1-5 weapons, or ``"random"``; with the option ``random_loadouts`` (or when
   a seat asked for ``"random"``) chance draws them (``draw_loadouts``). Section 3.1.
2. ``start_weapon``: each seat with more than one weapon picks the weapon for the start spin;
   ``start_spin`` (chance) spins both, again on a tie (AMBIGUITY 9); in ``start_choice`` the higher
   spin picks the starting seat, which loses 2 lives at once (sections 3.3-3.4, AMBIGUITY 20).
3. Rounds (section 4): the starter plays first in every round. At level >= 2 round r is time of day
   ``(r-1) % 4`` of day ``(r-1) // 4 + 1``; from day 3 both heroes lose 5 lives at the start of
   every round, before anything else (a draw when both fall).
4. A turn (section 5): repairs finish, energy comes in (level 3, cap 12), 4 actions. In ``main`` the
   active seat spins a weapon (pays 1 action and, level 3, its energy cost +1 off-type), repairs a
   broken one, cancels an own deferred effect for free, or ends the turn. A spin is a chance step
   (``spin``) whose segment is logged and public; then in ``decide`` the seat uses the effect (with
   one hero bonus, negative bonuses mandatory) or skips it (section 5.3). An attack goes through
   ``target`` (attacker) and ``shield`` (the *defender* spends deferred shields one at a time, so
   ``to_act`` switches to the defender for that choice), then applies (section 8). The main phase
   ends on 0 actions, a red field, a used orange effect or (level 3) no energy for any spin/repair
   (AMBIGUITY 6). Then every permanent attack fires (loadout order) and the seat may detonate
   combos (``combo``: add combos one by one, then detonate with a bonus, or keep them).
5. A hero at 0 lives or fewer loses at once, mid-turn; both at once (only the day-3 penalty) is a
   draw (section 10).

Steps with a single legal choice (a green field at level 1, one possible target, no shields to
spend) are applied automatically, so every listed choice is a real decision.

Actions (game values are tuples; JSON in :meth:`ScratchWars.encode_action`)::

    ("loadout", hero, (weapon, ...))   {"loadout": {"hero": "BRAM", "weapons": ["IRON", ...]}}
    ("random_loadout",)                {"loadout": "random"}
    ("start_weapon", slot)             {"start_weapon": 0}
    ("starter", seat)                  {"starter": 1}
    ("spin", slot)                     {"spin": 2}
    ("repair", slot)                   {"repair": 2}
    ("cancel", slot)                   {"cancel": 2}
    ("end_turn",)                      {"end_turn": true}
    ("use", bonus)                     {"use": {"bonus": null | 0 | 1}}   bonus index in the column
    ("skip",)                          {"skip": true}
    ("target", kind, slot)             {"target": "hero"} | {"target": "weapon" | "effect", "slot": 1}
    ("shield", slot)                   {"shield": 3}      the defender spends the shield on slot 3
    ("take_hit",)                      {"take_hit": true} the defender spends no (more) shields
    ("combo", slot)                    {"combo": 1}       add the combo on slot 1 to the detonation
    ("detonate", bonus)                {"detonate": {"bonus": null | 0}}
    ("keep_combos",)                   {"keep_combos": true}
  chance:
    ("segment", index)                 {"segment": 4}
    ("start_spin", index0, index1)     {"start_spin": [4, 7]}
    ("loadouts", ((seat, hero, weapons), ...))  {"loadouts": {"0": {"hero": ..., "weapons": [...]}}}
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..core.base import BaseRules
from ..core.errors import BadAction, GameOver, IllegalAction
from ..core.rules import CHANCE, Event, Outcome
from . import effects as fx
from .data import (
    ATTACK_WEAPON,
    BOOK,
    COMBO,
    DEFERRED,
    EFFECTS,
    ENERGY,
    FIELDS,
    HEAL,
    ORANGE,
    PERMANENT_ATTACK,
    RED,
    TIMES_OF_DAY,
    WEAPON_TYPES,
    CardBook,
)
from .state import (
    ACTIONS_PER_TURN,
    BROKEN,
    COMBO as PH_COMBO,
    DAY3_PENALTY,
    DECIDE,
    DRAW_LOADOUTS,
    EFFECT_MODES,
    LEVELS,
    LOADOUT,
    MAIN,
    MAX_ENERGY,
    MAX_WEAPONS,
    NO_EFFECT,
    OVER,
    READY,
    REPAIRING,
    SHIELD as PH_SHIELD,
    SOURCE_NAMES,
    SPIN,
    SRC_COMBO,
    SRC_PERMANENT,
    SRC_SPIN,
    START_CHOICE,
    START_PENALTY,
    START_SPIN,
    START_WEAPON,
    STATUS_NAMES,
    T_HERO,
    T_WEAPON,
    TARGET,
    TARGET_INDEX,
    TARGET_NAMES,
    Attack,
    Config,
    Seat,
    Slot,
    Spin,
    State,
    decode_state,
    encode_state,
    replace_attack,
    replace_seat,
    replace_slot,
    replace_state,
    set_seat,
    set_slot,
)

JSON = Any
Action = tuple  #: see the module docstring

_NOBODY: frozenset[int] = frozenset()
_CHANCE: frozenset[int] = frozenset({CHANCE})
_BOTH: frozenset[int] = frozenset({0, 1})
_ONE: tuple[frozenset[int], frozenset[int]] = (frozenset({0}), frozenset({1}))

_ACTIVE, _DEFENDER, _CHOOSERS = object(), object(), object()
#: phase -> who acts: a fixed set, or the active seat, the defender, the seats with a choice
_ACTOR: dict[str, Any] = {
    MAIN: _ACTIVE, DECIDE: _ACTIVE, TARGET: _ACTIVE, PH_COMBO: _ACTIVE, START_CHOICE: _ACTIVE,
    PH_SHIELD: _DEFENDER, START_WEAPON: _CHOOSERS,
    SPIN: _CHANCE, START_SPIN: _CHANCE, DRAW_LOADOUTS: _CHANCE, LOADOUT: _BOTH, OVER: _NOBODY,
}

END_TURN: Action = ("end_turn",)
SKIP: Action = ("skip",)
TAKE_HIT: Action = ("take_hit",)
KEEP_COMBOS: Action = ("keep_combos",)
RANDOM_LOADOUT: Action = ("random_loadout",)
_NO_ARG = {"end_turn": END_TURN, "skip": SKIP, "take_hit": TAKE_HIT, "keep_combos": KEEP_COMBOS}
_SLOT_ACTIONS = ("start_weapon", "spin", "repair", "cancel", "shield", "combo")

Events = list | None  #: where a step appends its events; ``None`` when nobody needs them (bots)


def _emit(ev: list[Event], kind: str, **data: JSON) -> None:
    """Append a public event (callers check ``ev is not None`` first, so bots build no payloads)."""
    ev.append(Event(kind, data))


class ScratchWars(BaseRules):
    """The Scratch Wars duel (``rules/scratch_wars.md``): 2 seats, levels 1-3.

    :param book: the card set (default: the shipped one, ``cards/*.yaml``); tests pass synthetic
        sets such as the golden fixtures.

    Options (:attr:`default_options`): ``level`` 1/2/3 (default 3); ``effects`` at level 2,
    ``"distinguished"`` (2b, default) or ``"every_effect_attacks"`` (2a); ``random_loadouts``
    (skip the loadout phase: chance draws both loadouts).

    Events (all public; ``data`` fields listed in :meth:`event_kinds`).
    """

    name: ClassVar[str] = "scratch_wars"
    title: ClassVar[str] = "Scratch Wars"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_options: ClassVar[Mapping[str, JSON]] = {
        "level": 3,
        "effects": "distinguished",
        "random_loadouts": False,
    }
    option_choices: ClassVar[Mapping[str, tuple[JSON, ...]]] = {"level": LEVELS, "effects": EFFECT_MODES}
    #: option sets the shared conformance suite runs besides the defaults
    conformance_variants: ClassVar[tuple[Mapping[str, JSON], ...]] = (
        {"level": 1},
        {"level": 2, "effects": "every_effect_attacks"},
        {"level": 2, "effects": "distinguished"},
        {"random_loadouts": True},
    )

    def __init__(self, book: CardBook | None = None) -> None:
        self.book = book or BOOK
        #: the last legal list computed, ``(state, seat, actions)``: the driver asks for the same
        #: state's list up to three times (policy, ``is_legal``, ``apply``); states are immutable.
        self._last_legal: tuple[Any, int, tuple[Action, ...]] = (None, -2, ())

    # ================================================================== setup

    def normalize_options(self, options: Mapping[str, JSON]) -> dict[str, JSON]:
        """Fill defaults and check the options.

        :raises BadOptions: unknown key, wrong type, ``level`` not 1-3 or an unknown ``effects``.
        """
        out = super().normalize_options(options)
        out["level"] = int(out["level"])
        return out

    def initial_state(self, num_players: int, options: Mapping[str, JSON]) -> State:
        """The loadout phase (or the chance node drawing both loadouts with ``random_loadouts``).

        :raises BadOptions: ``num_players`` != 2 or bad options.
        """
        self.check_players(num_players)
        config = Config(**self.normalize_options(options))
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
        config = Config(**self.normalize_options(options or {}))
        seats = []
        for i in (0, 1):
            hero, codes = self._check_loadout(heroes[i], list(weapons[i]), config.level)
            s = Seat(hero, lives[i] if lives[i] is not None else self.book.hero_rows[hero].lives, energy[i],
                     tuple(slots[i]) if slots[i] is not None else tuple(Slot(c) for c in codes))
            seats.append(s)
        return State(config, MAIN, (seats[0], seats[1]), starter=starter, active=active, round=round,
                     actions=actions)

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
            return frozenset(i for i in (0, 1) if len(state.seats[i].slots) > 1)
        return actor

    def outcome(self, state: State) -> Outcome | None:
        """The result once over (section 10), else ``None``."""
        return state.outcome

    def legal_actions(self, state: State, seat: int) -> tuple[Action, ...]:
        """The choices of ``seat`` now (empty when it need not act).

        In the loadout phase, a few representative loadouts: ``"random"`` and each hero with its
        suggested weapons (any valid loadout is accepted, see :meth:`is_legal`).
        """
        if seat not in self.to_act(state) or seat == CHANCE:
            return ()
        return self._legal(state, seat)

    def _legal(self, st: State, seat: int) -> tuple[Action, ...]:
        last = self._last_legal
        if last[0] is st and last[1] == seat:
            return last[2]
        actions = tuple(self._list_legal(st, seat))
        self._last_legal = (st, seat, actions)
        return actions

    def _list_legal(self, st: State, seat: int) -> list[Action]:
        phase = st.phase
        book = self.book
        if phase == MAIN:
            return self._main_actions(st)
        if phase == DECIDE:
            return self._decide_actions(st)
        if phase == TARGET:
            a = st.attack
            return [("target", TARGET_NAMES[t], j) for t, j in fx.targets(book, st, a.effect, a.value)]
        if phase == PH_SHIELD:
            return [*(("shield", j) for j in fx.shield_slots(st)), TAKE_HIT]
        if phase == PH_COMBO:
            return self._combo_actions(st)
        if phase == START_CHOICE:
            return [("starter", 0), ("starter", 1)]
        if phase == START_WEAPON:
            return [("start_weapon", j) for j in range(len(st.seats[seat].slots))]
        if phase == LOADOUT:
            return [RANDOM_LOADOUT, *(("loadout", h, book.starter_loadout(h)) for h in book.hero_codes)]
        return []

    def _main_actions(self, st: State) -> list[Action]:
        book = self.book
        seat = st.seats[st.active]
        energy = seat.energy if st.config.energy else None
        out: list[Action] = []
        can_act = st.actions > 0
        for j, slot in enumerate(seat.slots):
            if slot.held != NO_EFFECT:
                out.append(("cancel", j))
            elif can_act and slot.status != REPAIRING:
                if energy is not None and book.spin_cost(seat.hero, slot.weapon) > energy:
                    continue
                out.append(("spin", j) if slot.status == READY else ("repair", j))
        out.append(END_TURN)
        return out

    def _decide_actions(self, st: State) -> list[Action]:
        book = self.book
        spin = st.spin
        kind = fx.resolves_as(st, spin.effect)
        out: list[Action] = []
        for b in fx.spin_bonus_options(book, st):
            if kind == ATTACK_WEAPON:
                value = max(0, spin.value + fx.bonus_value(book, st, b))
                if not fx.targets(book, st, ATTACK_WEAPON, value):
                    continue
            out.append(("use", b))
        if st.config.bonuses or spin.field == ORANGE:
            out.append(SKIP)  # level 1: green and red are used (AMBIGUITY 2)
        return out

    def _combo_actions(self, st: State) -> list[Action]:
        selected = st.combos
        out: list[Action] = [("combo", j) for j in fx.own_combos(st) if j not in selected]
        out += [("detonate", b) for b in fx.detonate_bonus_options(self.book, st, len(selected))]
        out.append(KEEP_COMBOS)
        return out

    def is_legal(self, state: State, seat: int, action: Any) -> bool:
        """Whether ``seat`` may play ``action`` now. In the loadout phase any valid loadout for the
        match's level counts (:meth:`validate_deck` rules), not only the listed ones."""
        if seat not in self.to_act(state) or seat == CHANCE:
            return False
        if state.phase == LOADOUT:
            return self._loadout_ok(action, state.config.level)
        return action in self._legal(state, seat)

    def _loadout_ok(self, action: Any, level: int) -> bool:
        if action == RANDOM_LOADOUT:
            return True
        if not (isinstance(action, tuple) and len(action) == 3 and action[0] == "loadout"):
            return False
        try:
            self._check_loadout(action[1], list(action[2]), level)
        except BadAction:
            return False
        return True

    # ================================================================== loadouts

    def _check_loadout(self, hero: Any, weapons: Any, level: int = 3) -> tuple[str, tuple[str, ...]]:
        """:raises BadAction: an unknown hero or weapon, not 1-5 weapons, or (level >= 2) a weapon
        kind twice (section 3.1)."""
        book = self.book
        if not isinstance(hero, str) or hero not in book.hero_rows:
            raise BadAction(f"{self.name}: unknown hero {hero!r}; heroes are {list(book.hero_codes)}")
        if not isinstance(weapons, list | tuple) or not all(isinstance(w, str) for w in weapons):
            raise BadAction(f"{self.name}: weapons must be a list of weapon codes, got {weapons!r}")
        if not 1 <= len(weapons) <= MAX_WEAPONS:
            raise BadAction(f"{self.name}: a hero carries 1 to {MAX_WEAPONS} weapons, not {len(weapons)}")
        unknown = [w for w in weapons if w not in book.weapon_rows]
        if unknown:
            raise BadAction(f"{self.name}: unknown weapon code(s) {unknown}")
        if level >= 2:
            names = [book.weapon_rows[w].name for w in weapons]
            twice = sorted({n for n in names if names.count(n) > 1})
            if twice:
                raise BadAction(f"{self.name}: a hero may carry each kind of weapon only once; twice: {twice}")
        return hero, tuple(weapons)

    def validate_deck(self, data: JSON) -> JSON:
        """Check a saved loadout ``{"hero": code, "weapons": [codes]}`` (also accepted wrapped as
        ``{"loadout": {...}}``) with the level-2/3 rule of one weapon per kind.

        :returns: the normal form ``{"hero": code, "weapons": [codes]}``.
        :raises BadAction: not that shape, an unknown hero or weapon, not 1-5 weapons, a kind twice.
        """
        if isinstance(data, dict) and set(data) == {"loadout"}:
            data = data["loadout"]
        if not isinstance(data, dict) or set(data) != {"hero", "weapons"}:
            raise BadAction(f"{self.name}: a loadout is {{'hero': code, 'weapons': [codes]}}, got {data!r}")
        hero, weapons = self._check_loadout(data["hero"], data["weapons"], 3)
        return {"hero": hero, "weapons": list(weapons)}

    def random_loadout(self, rng: random.Random) -> tuple[str, tuple[str, ...]]:
        """A "quick random" loadout: a random hero and 5 different weapons, of the hero's own types
        first (shuffled), topped up with other types."""
        book = self.book
        hero = book.hero_codes[rng.randrange(len(book.hero_codes))]
        mask = book.hero_rows[hero].types
        own = [w for w in book.weapon_codes if mask >> book.weapon_rows[w].type & 1]
        other = [w for w in book.weapon_codes if not mask >> book.weapon_rows[w].type & 1]
        rng.shuffle(own)
        rng.shuffle(other)
        return hero, tuple((own + other)[:MAX_WEAPONS])

    # ================================================================== chance

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        """Draw the segment of the weapon being spun (uniform, AMBIGUITY 17), both start-spin
        segments, or the random loadouts.

        :raises IllegalAction: ``state`` is not a chance node.
        """
        phase = state.phase
        if phase == SPIN:
            slot = state.seats[state.active].slots[state.spin.slot]
            return ("segment", rng.randrange(len(self.book.weapon_rows[slot.weapon].wheel)))
        if phase == START_SPIN:
            w0, w1 = state.start[0], state.start[1]
            n0 = len(self.book.weapon_rows[state.seats[0].slots[w0].weapon].wheel)
            n1 = len(self.book.weapon_rows[state.seats[1].slots[w1].weapon].wheel)
            return ("start_spin", rng.randrange(n0), rng.randrange(n1))
        if phase == DRAW_LOADOUTS:
            return ("loadouts", tuple((s, *self.random_loadout(rng)) for s in state.random_seats))
        raise IllegalAction(f"{self.name}: no chance node in phase {phase!r}")

    def action_visible_to(self, state: State, seat: int, action: Any) -> frozenset[int] | None:
        """Spins and drawn loadouts are public (unlike the core default that hides chance); a
        loadout or start weapon is seen only by its seat until both chose; the rest is public."""
        if seat == CHANCE:
            return None
        if state.phase in (LOADOUT, START_WEAPON) and len(self.to_act(state)) > 1:
            return frozenset({seat})
        return None

    # ================================================================== apply

    def apply(self, state: State, actions: Mapping[int, Any]) -> tuple[State, list[Event]]:
        """Apply the actions of exactly the seats in ``to_act(state)``.

        :returns: the new state and its events, in order.
        :raises GameOver: the game has ended.
        :raises IllegalAction: the wrong seats, or an action that is not legal now.
        """
        if state.phase == OVER:
            raise GameOver("the game is over")
        to_act = self.to_act(state)
        if set(actions) != to_act:
            raise IllegalAction(f"{self.name}: expected actions of seats {sorted(to_act)}, got {sorted(actions)}")
        ev: list[Event] = []
        if CHANCE in to_act:
            return self._chance(state, actions[CHANCE], ev), ev
        if state.phase == LOADOUT:
            return self._loadouts(state, actions, ev), ev
        if state.phase == START_WEAPON:
            for seat, action in actions.items():
                if action not in self._legal(state, seat):
                    raise IllegalAction(f"{self.name}: {action!r} is not a start weapon of seat {seat}")
            return self._start_weapons(state, actions, ev), ev
        (seat, action), = actions.items()
        if action not in self._legal(state, seat):
            raise IllegalAction(f"{self.name}: {action!r} is not legal for seat {seat} in phase {state.phase!r}")
        return self.step(state, action, ev), ev

    def step(self, st: State, action: Action, ev: Events = None) -> State:
        """Apply one legal action of the seat to act, *without* checking it (bots' look-ahead; the
        engine's :meth:`apply` checks first). Events are appended to ``ev`` unless it is ``None``."""
        kind = action[0]
        if kind == "spin":
            return self._spin(st, action[1], ev)
        if kind == "use":
            return self._use(st, action[1], ev)
        if kind == "skip":
            return self._skip(st, ev)
        if kind == "target":
            return self._aim(st, TARGET_INDEX[action[1]], action[2], ev)
        if kind == "shield":
            return self._shield(st, action[1], ev)
        if kind == "take_hit":
            return self._hit(st, ev)
        if kind == "end_turn":
            return self._end_main(st, "voluntary", ev)
        if kind == "repair":
            return self._repair(st, action[1], ev)
        if kind == "cancel":
            return self._cancel(st, action[1], ev)
        if kind == "combo":
            return replace_state(st, combos=tuple(sorted((*st.combos, action[1]))))
        if kind == "detonate":
            return self._detonate(st, action[1], ev)
        if kind == "keep_combos":
            if ev is not None:
                _emit(ev, "combos_kept", seat=st.active, slots=fx.own_combos(st))
            return self._finish_turn(st, ev)
        if kind == "starter":
            return self._choose_starter(st, action[1], ev)
        if kind in ("segment", "start_spin", "loadouts"):
            return self._chance(st, action, ev)
        raise IllegalAction(f"{self.name}: unknown action {action!r}")

    # ------------------------------------------------------------------ setup steps

    def _loadouts(self, st: State, actions: Mapping[int, Any], ev: Events) -> State:
        level = st.config.level
        seats: list[Seat | None] = [None, None]
        randoms = []
        for seat in (0, 1):
            action = actions[seat]
            if action == RANDOM_LOADOUT:
                randoms.append(seat)
                continue
            if not self._loadout_ok(action, level):
                raise IllegalAction(f"{self.name}: seat {seat}: {action!r} is not a valid loadout")
            seats[seat] = self._seat(action[1], action[2])
        st = replace_state(st, seats=(seats[0], seats[1]))
        if randoms:
            return replace_state(st, phase=DRAW_LOADOUTS, random_seats=tuple(randoms))
        return self._loadouts_done(st, ev)

    def _seat(self, hero: str, weapons: Sequence[str]) -> Seat:
        return Seat(hero, self.book.hero_rows[hero].lives, 0, tuple(Slot(w) for w in weapons))

    def _loadouts_done(self, st: State, ev: Events) -> State:
        if ev is not None:
            _emit(ev, "loadouts_revealed",
                  heroes=[s.hero for s in st.seats],
                  weapons=[[sl.weapon for sl in s.slots] for s in st.seats],
                  random=list(st.random_seats))
        st = replace_state(st, random_seats=())
        if all(len(s.slots) == 1 for s in st.seats):
            return replace_state(st, phase=START_SPIN, start=(0, 0, -1, -1))
        return replace_state(st, phase=START_WEAPON)

    def _start_weapons(self, st: State, actions: Mapping[int, Any], ev: Events) -> State:
        chosen = [actions[i][1] if i in actions else 0 for i in (0, 1)]
        if ev is not None:
            _emit(ev, "start_weapons", slots=chosen,
                  weapons=[st.seats[i].slots[chosen[i]].weapon for i in (0, 1)])
        return replace_state(st, phase=START_SPIN, start=(chosen[0], chosen[1], -1, -1))

    def _chance(self, st: State, action: Any, ev: Events) -> State:
        if not isinstance(action, tuple) or not action:
            raise IllegalAction(f"{self.name}: malformed chance outcome {action!r}")
        kind, phase, book = action[0], st.phase, self.book
        if kind == "segment" and phase == SPIN and len(action) == 2:
            seat = st.seats[st.active]
            slot = st.spin.slot
            weapon = book.weapon_rows[seat.slots[slot].weapon]
            i = action[1]
            if not (isinstance(i, int) and 0 <= i < len(weapon.wheel)):
                raise IllegalAction(f"{self.name}: segment {i!r} is not on the wheel of {weapon.code}")
            return self._spun(st, i, weapon.wheel[i], ev)
        if kind == "start_spin" and phase == START_SPIN and len(action) == 3:
            return self._start_spun(st, action[1], action[2], ev)
        if kind == "loadouts" and phase == DRAW_LOADOUTS and len(action) == 2:
            drawn = action[1]
            if sorted(d[0] for d in drawn) != sorted(st.random_seats):
                raise IllegalAction(f"{self.name}: expected loadouts for seats {list(st.random_seats)}")
            seats = list(st.seats)
            for seat, hero, weapons in drawn:
                if not self._loadout_ok(("loadout", hero, weapons), st.config.level):
                    raise IllegalAction(f"{self.name}: drawn loadout {hero!r} {weapons!r} is not valid")
                seats[seat] = self._seat(hero, weapons)
            return self._loadouts_done(replace_state(st, seats=(seats[0], seats[1])), ev)
        raise IllegalAction(f"{self.name}: chance outcome {action!r} does not fit phase {phase!r}")

    def _start_spun(self, st: State, i0: Any, i1: Any, ev: Events) -> State:
        values = []
        for seat, i in ((0, i0), (1, i1)):
            wheel = self.book.weapon_rows[st.seats[seat].slots[st.start[seat]].weapon].wheel
            if not (isinstance(i, int) and 0 <= i < len(wheel)):
                raise IllegalAction(f"{self.name}: start segment {i!r} is not on seat {seat}'s wheel")
            values.append(wheel[i][1])
        winner = None if values[0] == values[1] else (0 if values[0] > values[1] else 1)
        if ev is not None:
            _emit(ev, "start_spin", segments=[i0, i1], values=values, winner=winner)
        start = (st.start[0], st.start[1], i0, i1)
        if winner is None:  # AMBIGUITY 9: spin again
            return replace_state(st, start=start)
        return replace_state(st, phase=START_CHOICE, start=start, active=winner)

    def _choose_starter(self, st: State, starter: int, ev: Events) -> State:
        seat = st.seats[starter]
        lives = seat.lives - START_PENALTY
        st = replace_state(st, seats=set_seat(st.seats, starter, replace_seat(seat, lives=lives)), starter=starter)
        if ev is not None:
            _emit(ev, "starter_chosen", chooser=st.active, starter=starter, lives=lives)
        return self._begin_round(st, ev)

    # ------------------------------------------------------------------ rounds and turns

    def _begin_round(self, st: State, ev: Events) -> State:
        r = st.round + 1
        st = replace_state(st, round=r)
        if st.config.day_cycle:
            tod, day = (r - 1) % 4, (r - 1) // 4 + 1
            if ev is not None:
                _emit(ev, "round_started", round=r, day=day, time_of_day=tod, time_of_day_name=TIMES_OF_DAY[tod])
            if day >= 3:  # section 4: both lose 5 at once, before anything else; not an attack
                a, b = st.seats
                a = replace_seat(a, lives=a.lives - DAY3_PENALTY)
                b = replace_seat(b, lives=b.lives - DAY3_PENALTY)
                st = replace_state(st, seats=(a, b))
                if ev is not None:
                    _emit(ev, "day3_penalty", lives=[a.lives, b.lives], amount=DAY3_PENALTY)
                if a.lives <= 0 or b.lives <= 0:
                    return self._over(st, "day3_penalty", ev)
        else:
            if ev is not None:
                _emit(ev, "round_started", round=r, day=None, time_of_day=None, time_of_day_name=None)
        return self._begin_turn(st, st.starter, ev)

    def _begin_turn(self, st: State, seat_index: int, ev: Events) -> State:
        seat = st.seats[seat_index]
        repaired = [j for j, sl in enumerate(seat.slots) if sl.status == REPAIRING]
        if repaired:  # section 5.1 step 1
            slots = tuple(replace_slot(sl, status=READY) if sl.status == REPAIRING else sl for sl in seat.slots)
            seat = replace_seat(seat, slots=slots)
        gained = 0
        if st.config.energy:  # section 5.1 step 2, AMBIGUITY 10
            income = self.book.hero_rows[seat.hero].columns[(st.round - 1) % 4].energy
            energy = min(MAX_ENERGY, seat.energy + income)
            gained = energy - seat.energy
            seat = replace_seat(seat, energy=energy)
        st = replace_state(st, seats=set_seat(st.seats, seat_index, seat), phase=MAIN, active=seat_index,
                           actions=ACTIONS_PER_TURN, used=0, ending=False, spin=None, attack=None, queue=(),
                           combos=())
        if ev is not None:
            _emit(ev, "turn_started", seat=seat_index, round=st.round, energy=seat.energy, energy_gained=gained,
                  repaired=repaired)
        return st

    def _finish_turn(self, st: State, ev: Events) -> State:
        """Pass the turn (the next turn resets the spin, attack, queue and combo selection)."""
        nxt = 1 - st.active
        if nxt == st.starter:
            return self._begin_round(st, ev)
        return self._begin_turn(st, nxt, ev)

    def _after_main_action(self, st: State, ev: Events) -> State:
        """A spin or repair has fully resolved: continue the main phase or end it (section 5.4)."""
        if st.ending:
            return self._end_main(st, "field", ev)
        if st.actions <= 0:
            return self._end_main(st, "actions", ev)
        if st.config.energy and fx.out_of_energy(self.book, st):
            return self._end_main(st, "energy", ev)
        return replace_state(st, phase=MAIN, spin=None, attack=None)

    def _end_main(self, st: State, reason: str, ev: Events) -> State:
        """The main phase is over (``reason``: voluntary, actions, field, energy); the end-of-turn
        effects follow (section 5.5)."""
        seat = st.seats[st.active]
        queue = tuple(j for j, sl in enumerate(seat.slots) if sl.held == PERMANENT_ATTACK)
        if ev is not None:
            _emit(ev, "main_phase_ended", seat=st.active, reason=reason, actions_lost=st.actions)
        st = replace_state(st, phase=MAIN, ending=True, actions=0, spin=None, attack=None, queue=queue)
        return self._end_steps(st, ev)

    def _end_steps(self, st: State, ev: Events) -> State:
        """Fire the next permanent attack (AMBIGUITIES 7, 16), then offer combos, then pass."""
        while st.queue:
            j, st = st.queue[0], replace_state(st, queue=st.queue[1:])
            slot = st.seats[st.active].slots[j]
            if slot.held == PERMANENT_ATTACK:
                return self._declare(st, SRC_PERMANENT, PERMANENT_ATTACK, slot.value, j, ev)
        if fx.can_detonate(self.book, st):
            return replace_state(st, phase=PH_COMBO, combos=())
        return self._finish_turn(st, ev)

    def _over(self, st: State, reason: str, ev: Events) -> State:
        a, b = st.seats[0].lives, st.seats[1].lives
        if a <= 0 and b <= 0:
            results = ("draw", "draw")
        elif a <= 0:
            results = ("loss", "win")
        else:
            results = ("win", "loss")
        outcome = Outcome(results, (max(0, a), max(0, b)), reason)
        if ev is not None:
            _emit(ev, "game_over", **outcome.to_json())
        return replace_state(st, phase=OVER, outcome=outcome, spin=None, attack=None, queue=(), combos=())

    # ------------------------------------------------------------------ main phase

    def _spin(self, st: State, j: int, ev: Events) -> State:
        seat = st.seats[st.active]
        cost = self.book.spin_cost(seat.hero, seat.slots[j].weapon) if st.config.energy else 0
        seats = st.seats
        if cost:
            seat = replace_seat(seat, energy=seat.energy - cost)
            seats = set_seat(seats, st.active, seat)
        st = replace_state(st, seats=seats, phase=SPIN, actions=st.actions - 1, spin=Spin(j))
        if ev is not None:
            _emit(ev, "spin_started", seat=st.active, slot=j, weapon=seat.slots[j].weapon, cost=cost,
                  actions=st.actions, energy=seat.energy)
        return st

    def _spun(self, st: State, i: int, segment: tuple[int, int, int], ev: Events) -> State:
        effect, value, field = segment
        spin = Spin(st.spin.slot, i, effect, value, field)
        st = replace_state(st, phase=DECIDE, spin=spin)
        if ev is not None:
            _emit(ev, "spin_result", seat=st.active, slot=spin.slot,
                  weapon=st.seats[st.active].slots[spin.slot].weapon, segment=i,
                  effect=EFFECTS[effect], value=value, field=FIELDS[field],
                  resolves_as=EFFECTS[fx.resolves_as(st, effect)])
        options = self._decide_actions(st)
        if len(options) == 1:  # nothing to decide (level 1 green/red, or only "skip")
            return self.step(st, options[0], ev)
        return st

    def _skip(self, st: State, ev: Events) -> State:
        spin = st.spin
        if ev is not None:
            _emit(ev, "effect_skipped", seat=st.active, slot=spin.slot, field=FIELDS[spin.field])
        if spin.field == RED:
            st = replace_state(st, ending=True)  # AMBIGUITY 2: the turn ends anyway
        return self._after_main_action(st, ev)

    def _use(self, st: State, bonus: int, ev: Events) -> State:
        """Use the spun effect with ``bonus`` (section 6, 8.6)."""
        book, cfg = self.book, st.config
        spin = st.spin
        kind = fx.resolves_as(st, spin.effect)
        extra = fx.bonus_value(book, st, bonus)
        value = max(0, spin.value + extra)  # AMBIGUITY 11
        st = replace_state(st, used=st.used | (1 << bonus) if bonus >= 0 else st.used,
                           ending=st.ending or spin.field >= ORANGE)
        if ev is not None:
            _emit(ev, "effect_used", seat=st.active, slot=spin.slot, effect=EFFECTS[kind],
                  printed=EFFECTS[spin.effect], base=spin.value, bonus=None if bonus < 0 else bonus,
                  bonus_value=extra, value=value)
        a = st.active
        seat = st.seats[a]
        if kind == ENERGY:
            if cfg.energy:  # level 2b: an empty action (AMBIGUITY 3)
                energy = min(MAX_ENERGY, seat.energy + value)
                st = replace_state(st, seats=set_seat(st.seats, a, replace_seat(seat, energy=energy)))
                if ev is not None:
                    _emit(ev, "energy_gained", seat=a, amount=energy - seat.energy, energy=energy)
            return self._after_main_action(st, ev)
        if kind == HEAL:
            top = book.hero_rows[seat.hero].lives
            lives = max(seat.lives, min(top, seat.lives + value))
            st = replace_state(st, seats=set_seat(st.seats, a, replace_seat(seat, lives=lives)))
            if ev is not None:
                _emit(ev, "healed", seat=a, amount=lives - seat.lives, lives=lives)
            return self._after_main_action(st, ev)
        if kind in DEFERRED:
            j = spin.slot
            slot = replace_slot(seat.slots[j], held=kind, value=value)
            st = replace_state(st, seats=set_seat(st.seats, a, set_slot(seat, j, slot)))
            if ev is not None:
                _emit(ev, "effect_deferred", seat=a, slot=j, weapon=slot.weapon, effect=EFFECTS[kind], value=value)
            return self._after_main_action(st, ev)
        return self._declare(st, SRC_SPIN, kind, value, spin.slot, ev)

    def _repair(self, st: State, j: int, ev: Events) -> State:
        """Section 7.3: 1 action and (level 3) the spin cost; usable from the next own turn."""
        a = st.active
        seat = st.seats[a]
        slot = seat.slots[j]
        cost = self.book.spin_cost(seat.hero, slot.weapon) if st.config.energy else 0
        seat = set_slot(replace_seat(seat, energy=seat.energy - cost), j, replace_slot(slot, status=REPAIRING))
        st = replace_state(st, seats=set_seat(st.seats, a, seat), actions=st.actions - 1)
        if ev is not None:
            _emit(ev, "repair_started", seat=a, slot=j, weapon=slot.weapon, cost=cost, actions=st.actions,
                  energy=seat.energy)
        return self._after_main_action(st, ev)

    def _cancel(self, st: State, j: int, ev: Events) -> State:
        """Cancel an own deferred effect: free; the weapon is ready again (section 5.2)."""
        a = st.active
        seat = st.seats[a]
        slot = seat.slots[j]
        seat = set_slot(seat, j, replace_slot(slot, held=NO_EFFECT, value=0))
        if ev is not None:
            _emit(ev, "effect_cancelled", seat=a, slot=j, weapon=slot.weapon, effect=EFFECTS[slot.held],
                  value=slot.value, by="owner")
        return replace_state(st, seats=set_seat(st.seats, a, seat))

    # ------------------------------------------------------------------ attacks (section 8)

    def _declare(self, st: State, source: int, effect: int, value: int, origin: int, ev: Events) -> State:
        st = replace_state(st, phase=TARGET, attack=Attack(source, effect, value, value, origin=origin))
        options = fx.targets(self.book, st, effect, value)
        if len(options) == 1:
            return self._aim(st, options[0][0], options[0][1], ev)
        return st

    def _aim(self, st: State, target: int, j: int, ev: Events) -> State:
        attack = replace_attack(st.attack, target=target, slot=j)
        st = replace_state(st, attack=attack)
        if ev is not None:
            _emit(ev, "attack_declared", seat=st.active, source=SOURCE_NAMES[attack.source],
                  effect=EFFECTS[attack.effect], value=attack.value, target=self._target_json(st, attack))
        if attack.value > 0 and fx.shield_slots(st):
            return replace_state(st, phase=PH_SHIELD)
        return self._hit(st, ev)

    def _target_json(self, st: State, attack: Attack) -> dict[str, JSON]:
        if attack.target == T_HERO:
            return {"kind": "hero", "seat": 1 - st.active}
        slot = st.seats[1 - st.active].slots[attack.slot]
        return {"kind": TARGET_NAMES[attack.target], "seat": 1 - st.active, "slot": attack.slot,
                "weapon": slot.weapon, "durability": self.book.weapon_rows[slot.weapon].durability}

    def _shield(self, st: State, j: int, ev: Events) -> State:
        d = 1 - st.active
        seat = st.seats[d]
        slot = seat.slots[j]
        attack = st.attack
        value = max(0, attack.value - slot.value)
        seat = set_slot(seat, j, replace_slot(slot, held=NO_EFFECT, value=0))
        attack = replace_attack(attack, value=value, shields=(*attack.shields, j))
        st = replace_state(st, seats=set_seat(st.seats, d, seat), attack=attack)
        if ev is not None:
            _emit(ev, "shield_spent", seat=d, slot=j, weapon=slot.weapon, shield=slot.value, value=value)
        if value == 0 or not fx.shield_slots(st):
            return self._hit(st, ev)
        return st

    def _hit(self, st: State, ev: Events) -> State:
        """Apply the attack after shields (section 8 step 4), check the end, continue."""
        attack = st.attack
        d = 1 - st.active
        seat = st.seats[d]
        value = attack.value
        if attack.target == T_HERO:
            lives = seat.lives - value
            st = replace_state(st, seats=set_seat(st.seats, d, replace_seat(seat, lives=lives)))
            if ev is not None:
                _emit(ev, "attack_resolved", seat=st.active, source=SOURCE_NAMES[attack.source],
                      target=self._target_json(st, attack), value=value, lives=lives)
            if lives <= 0:
                return self._over(st, "defeated", ev)
        else:
            j = attack.slot
            slot = seat.slots[j]
            hit = value >= self.book.weapon_rows[slot.weapon].durability
            if ev is not None:
                key = "broken" if attack.target == T_WEAPON else "cancelled"
                _emit(ev, "attack_resolved", seat=st.active, source=SOURCE_NAMES[attack.source],
                      target=self._target_json(st, attack), value=value, **{key: hit})
            if hit:
                if attack.target == T_WEAPON:
                    slot = replace_slot(slot, status=BROKEN)
                else:
                    if ev is not None:
                        _emit(ev, "effect_cancelled", seat=d, slot=j, weapon=slot.weapon,
                              effect=EFFECTS[slot.held], value=slot.value, by="attack")
                    slot = replace_slot(slot, held=NO_EFFECT, value=0)
                st = replace_state(st, seats=set_seat(st.seats, d, set_slot(seat, j, slot)))
        source = attack.source
        if source == SRC_SPIN:
            return self._after_main_action(st, ev)
        st = replace_state(st, phase=MAIN, attack=None)
        if source == SRC_PERMANENT:
            return self._end_steps(st, ev)
        return self._finish_turn(st, ev)

    # ------------------------------------------------------------------ combos (section 6.2)

    def _detonate(self, st: State, bonus: int, ev: Events) -> State:
        a = st.active
        seat = st.seats[a]
        slots = list(seat.slots)
        values = [slots[j].value for j in st.combos]
        extra = fx.bonus_value(self.book, st, bonus)
        value = max(0, sum(values) + extra)
        for j in st.combos:
            slots[j] = replace_slot(slots[j], held=NO_EFFECT, value=0)
        if ev is not None:
            _emit(ev, "combo_detonated", seat=a, slots=list(st.combos),
                  weapons=[slots[j].weapon for j in st.combos], values=values,
                  bonus=None if bonus < 0 else bonus, bonus_value=extra, value=value)
        st = replace_state(st, seats=set_seat(st.seats, a, replace_seat(seat, slots=tuple(slots))),
                           used=st.used | (1 << bonus) if bonus >= 0 else st.used, combos=())
        return self._declare(st, SRC_COMBO, COMBO, value, -1, ev)

    # ================================================================== views

    def observe(self, state: State, viewer: int | None) -> dict[str, JSON]:
        """What ``viewer`` (a seat, or ``None``) sees. Nothing in a Scratch Wars state is secret
        (loadouts chosen in the loadout phase wait in the match service, not in the state), so
        every viewer gets the same view, with its own ``seat``:

        ``{"game", "seat", "options", "level", "phase", "to_act", "round", "day", "time_of_day",
        "time_of_day_name", "starter", "active", "actions", "ending", "heroes": [hero view | null] x2,
        "spin": pending spin | null, "attack": attack being resolved | null, "permanent_queue",
        "combo_selection", "start": start spin | null, "over", "outcome"}``; see
        :meth:`_hero_view` for a hero. ``day``/``time_of_day`` are null at level 1 and before round 1.
        """
        st, book = state, self.book
        cycle = st.config.day_cycle and st.round > 0
        tod = fx.time_of_day(st) if cycle else None
        spin = st.spin
        spin_view = None
        if spin is not None:
            weapon = st.seats[st.active].slots[spin.slot].weapon
            spin_view = {"seat": st.active, "slot": spin.slot, "weapon": weapon, "segment": None, "effect": None,
                         "value": None, "field": None, "resolves_as": None}
            if spin.segment >= 0:
                spin_view.update(segment=spin.segment, effect=EFFECTS[spin.effect], value=spin.value,
                                 field=FIELDS[spin.field], resolves_as=EFFECTS[fx.resolves_as(st, spin.effect)])
        attack = st.attack
        attack_view = None
        if attack is not None:
            attack_view = {"seat": st.active, "source": SOURCE_NAMES[attack.source],
                           "effect": EFFECTS[attack.effect], "declared": attack.declared, "value": attack.value,
                           "target": None if attack.target < 0 else self._target_json(st, attack),
                           "shields": list(attack.shields), "origin": attack.origin}
        start = None
        if st.start:
            w = st.start[:2]
            segs = st.start[2:]
            values = winner = None
            if segs[0] >= 0:
                values = [book.weapon_rows[st.seats[i].slots[w[i]].weapon].wheel[segs[i]][1] for i in (0, 1)]
                winner = None if values[0] == values[1] else int(values[1] > values[0])
            start = {"slots": list(w), "weapons": [st.seats[i].slots[w[i]].weapon for i in (0, 1)],
                     "segments": None if segs[0] < 0 else list(segs), "values": values, "winner": winner}
        return {
            "game": self.name,
            "seat": viewer,
            "options": st.config.to_json(),
            "level": st.config.level,
            "phase": st.phase,
            "to_act": sorted(self.to_act(st)),
            "round": st.round,
            "day": fx.day(st) if cycle else None,
            "time_of_day": tod,
            "time_of_day_name": None if tod is None else TIMES_OF_DAY[tod],
            "starter": st.starter,
            "active": st.active,
            "actions": st.actions,
            "ending": st.ending,
            "heroes": [self._hero_view(st, i) for i in (0, 1)],
            "spin": spin_view,
            "attack": attack_view,
            "permanent_queue": list(st.queue),
            "combo_selection": list(st.combos),
            "start": start,
            "random_seats": list(st.random_seats),
            "over": st.phase == OVER,
            "outcome": None if st.outcome is None else st.outcome.to_json(),
        }

    def _hero_view(self, st: State, i: int) -> dict[str, JSON] | None:
        """A hero as everyone sees it::

            {"seat", "hero", "name", "lives" (floored at 0), "max_lives", "energy", "weapon_types",
             "column": {"time_of_day", "energy", "bonuses": [{"index", "kind", "effect", "value",
                        "flag", "used"}]} | null,
             "weapons": [{"slot", "code", "name", "type", "cost", "spin_cost", "durability",
                          "state": "ready" | "broken" | "repairing" | "holding",
                          "effect": {"effect", "value"} | null}]}

        ``column`` is the current time of day's column (null at level 1 or before round 1);
        ``used`` marks bonuses used this turn (only the active hero uses bonuses).
        """
        seat = st.seats[i]
        if seat is None:
            return None
        book = self.book
        hero = book.heroes[seat.hero]
        column = None
        if st.config.bonuses and st.round > 0:
            tod = fx.time_of_day(st)
            col = hero.times_of_day[tod]
            used = st.used if i == st.active else 0
            column = {"time_of_day": tod, "energy": col.energy, "bonuses": [
                {"index": k, "kind": b.kind, "effect": b.effect, "value": b.value, "flag": b.flag,
                 "used": bool(used >> k & 1)}
                for k, b in enumerate(col.bonuses)
            ]}
        weapons = []
        for j, slot in enumerate(seat.slots):
            w = book.weapon_rows[slot.weapon]
            held = slot.held != NO_EFFECT
            weapons.append({
                "slot": j, "code": slot.weapon, "name": w.name, "type": WEAPON_TYPES[w.type], "cost": w.cost,
                "spin_cost": book.spin_cost(seat.hero, slot.weapon), "durability": w.durability,
                "state": "holding" if held else STATUS_NAMES[slot.status],
                "effect": {"effect": EFFECTS[slot.held], "value": slot.value} if held else None,
            })
        return {"seat": i, "hero": seat.hero, "name": hero.name, "lives": max(0, seat.lives),
                "max_lives": hero.lives_duel, "energy": seat.energy, "weapon_types": list(hero.weapon_types),
                "column": column, "weapons": weapons}

    def secrets(self, state: State, viewer: int | None) -> list[str]:
        """JSON fragments ``viewer`` must not see: none. A loadout or start weapon chosen in a
        simultaneous phase is held by the match service (the driver's ``pending``), never in the
        state, and everything in the state (heroes, wheels, spins, deferred effects) is public."""
        return []

    def state_from_observation(self, obs: Mapping[str, JSON]) -> State:
        """Rebuild the state from an observation (bots search from their own view; nothing in the
        state is hidden, so this is exact while the game runs).

        :raises ValueError: an observation of another game or a malformed one.
        """
        if obs.get("game") != self.name:
            raise ValueError(f"{self.name}: not a {self.name} observation")
        try:
            seats = []
            for h in obs["heroes"]:
                if h is None:
                    seats.append(None)
                    continue
                slots = []
                for w in h["weapons"]:
                    eff = w["effect"]
                    status = READY if w["state"] == "holding" else STATUS_NAMES.index(w["state"])
                    slots.append(Slot(w["code"], status, NO_EFFECT if eff is None else EFFECTS.index(eff["effect"]),
                                      0 if eff is None else int(eff["value"])))
                seats.append(Seat(h["hero"], int(h["lives"]), int(h["energy"]), tuple(slots)))
            active = int(obs["active"])
            used = 0
            if active >= 0 and seats[active] is not None and obs["heroes"][active]["column"] is not None:
                for b in obs["heroes"][active]["column"]["bonuses"]:
                    if b["used"]:
                        used |= 1 << b["index"]
            spin = None
            if obs["spin"] is not None:
                s = obs["spin"]
                spin = Spin(int(s["slot"])) if s["segment"] is None else Spin(
                    int(s["slot"]), int(s["segment"]), EFFECTS.index(s["effect"]), int(s["value"]),
                    FIELDS.index(s["field"]))
            attack = None
            if obs["attack"] is not None:
                a = obs["attack"]
                target = a["target"]
                attack = Attack(SOURCE_NAMES.index(a["source"]), EFFECTS.index(a["effect"]), int(a["value"]),
                                int(a["declared"]), -1 if target is None else TARGET_INDEX[target["kind"]],
                                -1 if target is None or target["kind"] == "hero" else int(target["slot"]),
                                tuple(a["shields"]), int(a["origin"]))
            start: tuple[int, ...] = ()
            if obs["start"] is not None:
                segs = obs["start"]["segments"] or [-1, -1]
                start = (*obs["start"]["slots"], *segs)
            outcome = None if obs["outcome"] is None else Outcome.from_json(obs["outcome"])
            return State(
                Config(**obs["options"]), obs["phase"], (seats[0], seats[1]), int(obs["starter"]), active,
                int(obs["round"]), int(obs["actions"]), used, bool(obs["ending"]), spin, attack,
                tuple(obs["permanent_queue"]), tuple(obs["combo_selection"]), start, tuple(obs["random_seats"]),
                outcome,
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ValueError(f"{self.name}: malformed observation ({exc!r})") from None

    def catalog(self) -> dict[str, JSON]:
        """The card set for pages and clients (:meth:`~.data.CardBook.catalog`): ``{"heroes",
        "weapons", "wheel_segments", "times_of_day"}``, each card with its ``rarity`` check."""
        return self.book.catalog()

    @staticmethod
    def event_kinds() -> dict[str, list[str]]:
        """Every event kind with its ``data`` keys (all events are public)."""
        return dict(EVENT_KINDS)

    # ================================================================== JSON

    def encode_action(self, action: Action) -> JSON:
        """An action as JSON (the shapes in the module docstring)."""
        kind = action[0]
        if kind in _SLOT_ACTIONS or kind == "starter":
            return {kind: action[1]}
        if kind in _NO_ARG:
            return {kind: True}
        if kind in ("use", "detonate"):
            return {kind: {"bonus": None if action[1] < 0 else action[1]}}
        if kind == "target":
            return {"target": "hero"} if action[1] == "hero" else {"target": action[1], "slot": action[2]}
        if kind == "loadout":
            return {"loadout": {"hero": action[1], "weapons": list(action[2])}}
        if kind == "random_loadout":
            return {"loadout": "random"}
        if kind == "segment":
            return {"segment": action[1]}
        if kind == "start_spin":
            return {"start_spin": [action[1], action[2]]}
        if kind == "loadouts":
            return {"loadouts": {str(s): {"hero": h, "weapons": list(w)} for s, h, w in action[1]}}
        raise BadAction(f"{self.name}: cannot encode {action!r}")

    def decode_action(self, obj: JSON) -> Action:
        """Parse an action (see the module docstring).

        :raises BadAction: not one of the shapes: unknown key, wrong types, an unknown target kind.
        """
        if not isinstance(obj, dict) or not obj:
            raise BadAction(f"{self.name}: an action is a JSON object such as {{'spin': 0}}, got {obj!r}")
        keys = set(obj)
        if keys == {"target", "slot"} or keys == {"target"}:
            kind = obj["target"]
            if kind == "hero" and keys == {"target"}:
                return ("target", "hero", -1)
            if kind in ("weapon", "effect") and keys == {"target", "slot"} and _is_int(obj["slot"]):
                return ("target", kind, obj["slot"])
            raise BadAction(f"{self.name}: a target is {{'target': 'hero'}} or {{'target': 'weapon'|'effect', "
                            f"'slot': n}}, got {obj!r}")
        if len(obj) != 1:
            raise BadAction(f"{self.name}: an action has one key, got {sorted(obj)}")
        (kind, value), = obj.items()
        if kind in _SLOT_ACTIONS or kind == "starter":
            if not _is_int(value):
                raise BadAction(f"{self.name}: {kind!r} takes a slot number, got {value!r}")
            return (kind, value)
        if kind in _NO_ARG:
            if value is not True:
                raise BadAction(f"{self.name}: {kind!r} takes true, got {value!r}")
            return _NO_ARG[kind]
        if kind in ("use", "detonate"):
            if not isinstance(value, dict) or set(value) != {"bonus"} or not (
                    value["bonus"] is None or _is_int(value["bonus"])):
                raise BadAction(f"{self.name}: {kind!r} takes {{'bonus': null | index}}, got {value!r}")
            return (kind, -1 if value["bonus"] is None else value["bonus"])
        if kind == "loadout":
            if value == "random":
                return RANDOM_LOADOUT
            if not isinstance(value, dict) or set(value) != {"hero", "weapons"} or not isinstance(
                    value["weapons"], list | tuple):
                raise BadAction(f"{self.name}: a loadout is {{'hero': code, 'weapons': [codes]}} or 'random', "
                                f"got {value!r}")
            return ("loadout", value["hero"], tuple(value["weapons"]))
        if kind == "segment":
            if not _is_int(value):
                raise BadAction(f"{self.name}: 'segment' takes a segment index, got {value!r}")
            return ("segment", value)
        if kind == "start_spin":
            if not isinstance(value, list | tuple) or len(value) != 2 or not all(_is_int(v) for v in value):
                raise BadAction(f"{self.name}: 'start_spin' takes two segment indices, got {value!r}")
            return ("start_spin", value[0], value[1])
        if kind == "loadouts":
            if not isinstance(value, dict):
                raise BadAction(f"{self.name}: 'loadouts' maps seats to loadouts, got {value!r}")
            drawn = []
            for key, loadout in sorted(value.items()):
                if key not in ("0", "1") or not isinstance(loadout, dict) or set(loadout) != {"hero", "weapons"}:
                    raise BadAction(f"{self.name}: malformed drawn loadout {key!r}: {loadout!r}")
                drawn.append((int(key), loadout["hero"], tuple(loadout["weapons"])))
            return ("loadouts", tuple(drawn))
        raise BadAction(f"{self.name}: unknown action {kind!r}")

    def encode_state(self, state: State) -> JSON:
        """The whole state as JSON (the match snapshot)."""
        return encode_state(state)

    def decode_state(self, obj: JSON) -> State:
        """Inverse of :meth:`encode_state`. :raises ValueError: a malformed snapshot."""
        return decode_state(obj)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


#: Event kinds and their ``data`` keys (all public).
EVENT_KINDS: dict[str, list[str]] = {
    "loadouts_revealed": ["heroes", "weapons", "random"],
    "start_weapons": ["slots", "weapons"],
    "start_spin": ["segments", "values", "winner"],
    "starter_chosen": ["chooser", "starter", "lives"],
    "round_started": ["round", "day", "time_of_day", "time_of_day_name"],
    "day3_penalty": ["lives", "amount"],
    "turn_started": ["seat", "round", "energy", "energy_gained", "repaired"],
    "spin_started": ["seat", "slot", "weapon", "cost", "actions", "energy"],
    "spin_result": ["seat", "slot", "weapon", "segment", "effect", "value", "field", "resolves_as"],
    "effect_skipped": ["seat", "slot", "field"],
    "effect_used": ["seat", "slot", "effect", "printed", "base", "bonus", "bonus_value", "value"],
    "energy_gained": ["seat", "amount", "energy"],
    "healed": ["seat", "amount", "lives"],
    "effect_deferred": ["seat", "slot", "weapon", "effect", "value"],
    "attack_declared": ["seat", "source", "effect", "value", "target"],
    "shield_spent": ["seat", "slot", "weapon", "shield", "value"],
    "attack_resolved": ["seat", "source", "target", "value", "lives | broken | cancelled"],
    "effect_cancelled": ["seat", "slot", "weapon", "effect", "value", "by"],
    "repair_started": ["seat", "slot", "weapon", "cost", "actions", "energy"],
    "main_phase_ended": ["seat", "reason", "actions_lost"],
    "combo_detonated": ["seat", "slots", "weapons", "values", "bonus", "bonus_value", "value"],
    "combos_kept": ["seat", "slots"],
    "game_over": ["results", "scores", "reason", "ranks"],
}
