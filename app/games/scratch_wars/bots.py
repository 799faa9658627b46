"""Scratch Wars computer players (core :class:`~app.games.core.rules.Bot`), easiest first.

Every bot sees only its seat's observation (:meth:`ScratchWars.bot_observation`). Nothing in a
Scratch Wars state is hidden once the loadouts are revealed (wheels, lives, energy and deferred
effects are on the table), so a bot rebuilds the position from its own view
(:meth:`ScratchWars.state_from_observation`) and reasons about it exactly; only the wheels are
unknown, and those are public distributions. What a bot memoises (weapon statistics, searched
values) lives on the bot, keyed by what it reads; the rules and states hold no caches.

* :class:`RandomBot` - a uniformly random legal action (the easy level).
* :class:`GreedyBot` - fast rules of thumb from the weapons' average segment worth (no search);
  the balance script's policy (``scripts/scratch_wars_balance.py``). Not registered as a level.
* :class:`ExpectimaxBot` - expectimax over the rest of the current turn, depth-limited: its own
  choices maximise, a spin averages over the wheel's equally likely segments, the opponent's
  shield choices minimise; leaves are scored by :meth:`ExpectimaxBot.evaluate` (lives, energy,
  deferred effects, broken weapons, and what each side can still do with its actions and energy).
  It chooses weapons, uses or skips orange fields, targets, shields and combo detonations this way.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from .actions import (
    SKIP,
    STARTER,
    TAKE_HIT,
    AddCombo,
    Detonate,
    FirePermanent,
    Loadout,
    Repair,
    ScratchAction,
    SpendShield,
    SpinWeapon,
    StartWeapon,
    Target,
    Use,
    segment,
    target,
)
from .data import (
    ATTACK_HERO,
    ATTACK_WEAPON,
    COMBO,
    ENERGY,
    GREEN,
    HEAL,
    ORANGE,
    PERMANENT_ATTACK,
    SHIELD,
    UNIVERSAL_ATTACK,
    CardBook,
)
from .effects import bonus_value, resolves_as, targets
from .rules import ScratchWars
from .state import (
    BROKEN,
    DECIDE,
    LOADOUT,
    MAIN,
    MAX_ENERGY,
    NO_EFFECT,
    OVER,
    READY,
    REPAIRING,
    SPIN,
    START_CHOICE,
    START_WEAPON,
    T_HERO,
    TARGET,
    Slot,
    State,
)
from .state import (
    COMBO as PH_COMBO,
)
from .state import (
    ORDER as PH_ORDER,
)
from .state import (
    SHIELD as PH_SHIELD,
)

JSON = Any

#: What one point of a segment is worth, by the effect it resolves as (the bots' common currency:
#: one life of the opponent = 1). Deferred effects last: a permanent attack fires every own turn.
EFFECT_WORTH = {
    ATTACK_HERO: 1.0,
    UNIVERSAL_ATTACK: 1.05,
    ATTACK_WEAPON: 0.55,
    HEAL: 0.6,
    ENERGY: 0.4,
    PERMANENT_ATTACK: 1.7,
    SHIELD: 0.6,
    COMBO: 0.8,
}
#: Worth of a deferred effect held on the table, per point of value (evaluation).
HELD_WORTH = {PERMANENT_ATTACK: 1.6, SHIELD: 0.7, COMBO: 0.85}
ENERGY_WORTH = 0.35  #: per point of energy in hand (level 3)
BROKEN_WORTH = 1.5  #: a broken weapon: one less choice, and repairing costs an action and energy
REPAIRING_WORTH = 0.8
POTENTIAL_WEIGHT = 0.85  #: how much of the estimated rest-of-turn damage a leaf counts
WIN = 1000.0

_RULES = ScratchWars()


def _rules_for(rules: ScratchWars | None) -> ScratchWars:
    return rules if rules is not None else _RULES


class WeaponStats:
    """Per (hero, weapon) numbers the bots use, computed once per card book and options.

    :ivar worth: the mean worth of a spin's segment (:data:`EFFECT_WORTH` x value).
    :ivar go_on: the chance a spin lets the turn go on (green, or an orange one would skip: half).
    :ivar mean_value: the mean segment value (the start spin).
    :ivar cost: energy per spin for this hero (0 below level 3).
    """

    __slots__ = ("cost", "go_on", "mean_value", "worth")

    def __init__(self, book: CardBook, hero: str, weapon: str, distinguished: bool, energy: bool) -> None:
        wheel = book.weapon_rows[weapon].wheel
        n = len(wheel)
        total = 0.0
        for effect, value, _field in wheel:
            kind = effect if distinguished else ATTACK_HERO
            if kind == ENERGY and not energy:
                continue
            total += EFFECT_WORTH[kind] * value
        self.worth = total / n
        self.go_on = sum(1.0 if f == GREEN else 0.5 if f == ORANGE else 0.0 for _e, _v, f in wheel) / n
        self.mean_value = sum(v for _e, v, _f in wheel) / n
        self.cost = book.spin_cost(hero, weapon) if energy else 0


class _Stats:
    """A cache of :class:`WeaponStats` for one rules object."""

    def __init__(self, rules: ScratchWars) -> None:
        self.rules = rules
        self._cache: dict[tuple[str, str, bool, bool], WeaponStats] = {}

    def get(self, st: State, hero: str, weapon: str) -> WeaponStats:
        cfg = st.config
        key = (hero, weapon, cfg.distinguished, cfg.energy)
        stats = self._cache.get(key)
        if stats is None:
            stats = self._cache[key] = WeaponStats(self.rules.book, hero, weapon, cfg.distinguished, cfg.energy)
        return stats

    def potential(self, st: State, seat: int, actions: int, energy: int) -> float:
        """Estimated worth a seat can still make with ``actions`` and ``energy`` (greedy: the best
        affordable spin each time, weighted by the chance the turn goes on)."""
        s = st.seat(seat)
        options = [self.get(st, s.hero, sl.weapon) for sl in s.slots if sl.status == READY and sl.held == NO_EFFECT]
        if not options:
            return 0.0
        use_energy = st.config.energy
        total, chance = 0.0, 1.0
        for _ in range(actions):
            best = None
            for w in options:
                if (not use_energy or w.cost <= energy) and (best is None or w.worth > best.worth):
                    best = w
            if best is None:
                break
            total += chance * best.worth
            chance *= best.go_on
            energy -= best.cost
        return total


def _next_turn_energy(book: CardBook, st: State, seat: int) -> int:
    """The energy ``seat`` (not the active seat) will have at the start of its next turn (level 3):
    the starter plays next in the following round, the other seat later in this one."""
    s = st.seat(seat)
    next_round = st.round + 1 if seat == st.starter else st.round
    income = book.hero_rows[s.hero].columns[(next_round - 1) % 4].energy
    return min(MAX_ENERGY, s.energy + income)


def _life_worth(lives: int) -> float:
    """Lives are worth more when few are left (a hero near 0 is one lucky spin from losing)."""
    return lives - 6.0 * math.exp(-max(lives, 0) / 4.0)


class _Bot:
    """Shared plumbing: rebuild the state from the observation, fixed answers outside the turn."""

    name: ClassVar[str] = ""

    def __init__(self, rules: ScratchWars | None = None) -> None:
        self.rules = _rules_for(rules)
        self.stats = _Stats(self.rules)

    def choose(
        self, observation: Mapping[str, JSON], legal: Sequence[ScratchAction], rng: random.Random, budget_ms: int = 50
    ) -> ScratchAction:
        """:returns: one element of ``legal``.

        :raises ValueError: an observation without a seat (a spectator's) or not of this game.
        """
        seat = observation.get("seat")
        if seat not in (0, 1) or not legal:
            raise ValueError("a Scratch Wars bot needs its seat's observation and its legal actions")
        if observation.get("phase") == LOADOUT:
            return self.choose_loadout(legal, rng)
        state = self.rules.state_from_observation(observation)
        return self.choose_state(state, seat, legal, rng, budget_ms)

    def choose_loadout(self, legal: Sequence[ScratchAction], rng: random.Random) -> ScratchAction:
        """A hero with its suggested weapons, at random (the set is balanced; see the report)."""
        heroes = [a for a in legal if isinstance(a, Loadout)]
        return heroes[rng.randrange(len(heroes))] if heroes else legal[0]

    def choose_state(
        self, st: State, seat: int, legal: Sequence[ScratchAction], rng: random.Random, budget_ms: int = 50
    ) -> ScratchAction:
        """Choose from the (rebuilt) state; the balance script calls this directly."""
        phase = st.phase
        if phase == START_WEAPON:  # the best chance of the higher number: the highest mean value
            s = st.seat(seat)

            def mean_value(a: ScratchAction) -> tuple[float, int]:
                slot = a.slot if isinstance(a, StartWeapon) else 0
                return self.stats.get(st, s.hero, s.slots[slot].weapon).mean_value, -slot

            return max(legal, key=mean_value)
        if phase == START_CHOICE:  # start: the starting player wins about half (balance report)
            return STARTER[seat] if STARTER[seat] in legal else legal[0]
        return self.decide(st, seat, legal, rng, budget_ms)

    def decide(
        self, st: State, seat: int, legal: Sequence[ScratchAction], rng: random.Random, budget_ms: int
    ) -> ScratchAction:
        """Choose in the main phase, a decision, a target, a shield or a combo (the bot's policy)."""
        raise NotImplementedError


class RandomBot:
    """Plays a uniformly random legal action (the easy level)."""

    name: ClassVar[str] = "random"

    def choose(
        self, observation: Mapping[str, JSON], legal: Sequence[ScratchAction], rng: random.Random, budget_ms: int = 50
    ) -> ScratchAction:
        """:returns: one element of ``legal``. :raises IndexError: ``legal`` is empty."""
        return legal[rng.randrange(len(legal))]


class GreedyBot(_Bot):
    """Rules of thumb from each weapon's average segment worth, no search (microseconds a choice).

    Spins the affordable weapon with the best average worth; uses an effect when it is worth more
    than what the rest of the turn is expected to bring (orange) or worth anything at all (green,
    red); takes the target worth most; spends shields on hits of 2 or more to the hero and to save
    a weapon or effect; fires the weakest permanent attack first (it draws the shields); detonates
    every combo with the best bonus; repairs when nothing else fits.
    """

    name: ClassVar[str] = "greedy"

    def decide(
        self, st: State, seat: int, legal: Sequence[ScratchAction], rng: random.Random, budget_ms: int
    ) -> ScratchAction:
        """The rules of thumb of the class docstring, by phase."""
        phase = st.phase
        if phase == MAIN:
            return self._main(st, seat, legal)
        if phase == DECIDE:
            return self._decide(st, seat, legal)
        if phase == TARGET:
            value = st.attack_now().value
            return max(legal, key=lambda a: _target_worth(self, st, a, value) if isinstance(a, Target) else -WIN)
        if phase == PH_SHIELD:
            return self._shield(st, seat, legal)
        if phase == PH_ORDER:  # the weakest first: it draws the opponent's shields, the strong ones land
            slots = st.seat(seat).slots
            return min(legal, key=lambda a: slots[a.slot].value if isinstance(a, FirePermanent) else WIN)
        if phase == PH_COMBO:
            picks = [a for a in legal if isinstance(a, AddCombo)]
            if picks:
                return picks[0]
            detonations = [a for a in legal if isinstance(a, Detonate)]
            if detonations:
                return max(detonations, key=lambda a: bonus_value(self.rules.book, st, a.bonus))
            return legal[-1]
        return legal[0]

    def _main(self, st: State, seat: int, legal: Sequence[ScratchAction]) -> ScratchAction:
        s = st.seat(seat)
        best: ScratchAction | None = None
        best_worth = -1.0
        repair: ScratchAction | None = None
        for a in legal:
            if isinstance(a, SpinWeapon):
                w = self.stats.get(st, s.hero, s.slots[a.slot].weapon)
                worth = w.worth - 0.15 * w.cost
                if worth > best_worth:
                    best, best_worth = a, worth
            elif isinstance(a, Repair) and repair is None:
                repair = a
        if best is not None and (repair is None or st.actions > 1 or best_worth > 2.0):
            return best
        return repair or best or legal[-1]

    def _decide(self, st: State, seat: int, legal: Sequence[ScratchAction]) -> ScratchAction:
        uses = [a for a in legal if isinstance(a, Use)]
        if not uses:
            return legal[-1]
        best = max(uses, key=lambda a: _use_worth(self, st, seat, a.bonus))
        worth = _use_worth(self, st, seat, best.bonus)
        if SKIP not in legal:
            return best
        if st.spin_now().field == ORANGE:
            rest = self.stats.potential(st, seat, st.actions, st.seat(seat).energy)
            return best if worth >= rest * POTENTIAL_WEIGHT else SKIP
        return best if worth > 0 else SKIP

    def _shield(self, st: State, seat: int, legal: Sequence[ScratchAction]) -> ScratchAction:
        attack = st.attack_now()
        shields = [a for a in legal if isinstance(a, SpendShield)]
        if not shields:
            return legal[-1]
        own = st.seat(seat)
        if attack.target == T_HERO:
            if attack.value >= 2 or attack.value >= own.lives:
                return shields[0]
            return TAKE_HIT
        durability = self.rules.book.weapon_rows[own.slots[attack.slot].weapon].durability
        if attack.value >= durability:
            total = sum(own.slots[a.slot].value for a in shields)
            if attack.value - total < durability:
                return shields[0]
        return TAKE_HIT


def _use_worth(bot: _Bot, st: State, seat: int, bonus: int) -> float:
    """GreedyBot's worth of using the pending spin with ``bonus``."""
    spin = st.spin_now()
    kind = resolves_as(st, spin.effect)
    value = max(0, spin.value + bonus_value(bot.rules.book, st, bonus))
    s = st.seat(seat)
    if kind == HEAL:
        return min(value, bot.rules.book.hero_rows[s.hero].lives - s.lives)
    if kind == ENERGY:
        return EFFECT_WORTH[ENERGY] * min(value, MAX_ENERGY - s.energy) if st.config.energy else 0.0
    if kind == ATTACK_HERO:
        return WIN if value >= st.seat(1 - seat).lives else float(value)
    if kind in (ATTACK_WEAPON, UNIVERSAL_ATTACK):
        options = targets(bot.rules.book, st, kind, value)
        return max((_target_worth(bot, st, target(t, j), value) for t, j in options), default=0.0)
    return EFFECT_WORTH[kind] * value


def _target_worth(bot: _Bot, st: State, action: Target, value: int) -> float:
    """Worth of hitting a target with ``value`` (hero: the damage; a weapon: breaking it; an effect:
    cancelling it)."""
    opp = st.seat(1 - st.active)
    if action.kind == "hero":
        return WIN if value >= opp.lives else float(value)
    slot = opp.slots[action.slot]
    if action.kind == "effect":
        return HELD_WORTH[slot.held] * slot.value + 0.5
    return BROKEN_WORTH + 0.3 * bot.stats.get(st, opp.hero, slot.weapon).worth


def slots_key(slots: tuple[Slot, ...]) -> tuple[tuple[int, int, int], ...]:
    """What a search can change in a seat's weapons (status, held effect and value), as plain
    tuples; the weapon codes are fixed for one decision."""
    return tuple([(s.status, s.held, s.value) for s in slots])


class ExpectimaxBot(_Bot):
    """Expectimax over the rest of the turn (the hard level).

    :param depth: own main-phase choices searched beyond the current one (1: the spin being
        chosen or resolved now, then at most one more spin of its own, then the position is scored).
    :param rules: the rules whose card book to use (default: the shipped set).

    The search is exact about rules, costs, bonuses, fields and targets (it runs the rules' own
    :meth:`~.rules.ScratchWars.step`). Its memo of searched positions lives on the bot for one
    decision, keyed by the state and the depth left. A node budget (from ``budget_ms``) keeps the slowest
    positions bounded; past it, positions are scored instead of searched.
    """

    name: ClassVar[str] = "expectimax"
    NODES_PER_MS: ClassVar[int] = 60

    def __init__(self, depth: int = 1, rules: ScratchWars | None = None) -> None:
        super().__init__(rules)
        self.depth = depth
        self.me = 0
        self.nodes = 0
        self.max_nodes = 0
        self._memo: dict[tuple[Any, ...], float] = {}
        #: ``id(slots)`` -> (those slots, :func:`slots_key`): steps that leave a seat's weapons alone
        #: share its slots tuple, so its key is computed once (the slots are kept: no id is reused)
        self._slot_keys: dict[int, tuple[tuple[Slot, ...], tuple[Any, ...]]] = {}

    def decide(
        self, st: State, seat: int, legal: Sequence[ScratchAction], rng: random.Random, budget_ms: int
    ) -> ScratchAction:
        """The legal action of the best expected value (ties broken by ``rng``)."""
        if len(legal) == 1:
            return legal[0]
        self.me, self.nodes, self.max_nodes = seat, 0, max(200, budget_ms * self.NODES_PER_MS)
        self._memo, self._slot_keys = {}, {}
        depth = self.depth - 1 if st.phase == MAIN else self.depth
        scored = [(self._value(self.rules.step(st, action), depth), action) for action in legal]
        self._memo, self._slot_keys = {}, {}
        best = max(v for v, _a in scored)
        ties = [a for v, a in scored if v >= best - 1e-9]
        return ties[0] if len(ties) == 1 else ties[rng.randrange(len(ties))]

    def values(self, state: State, seat: int) -> dict[ScratchAction, float]:
        """The searched value of each legal action of ``seat`` (for tests and analysis)."""
        legal = self.rules.legal_actions(state, seat)
        self.me, self.nodes, self.max_nodes = seat, 0, 10**9
        self._memo, self._slot_keys = {}, {}
        depth = self.depth - 1 if state.phase == MAIN else self.depth
        return {a: self._value(self.rules.step(state, a), depth) for a in legal}

    def _value(self, st: State, depth: int) -> float:
        """The expected evaluation of ``st`` for :attr:`me`."""
        phase = st.phase
        if phase == OVER:
            return self.evaluate(st)
        key = self.search_key(st, depth)
        memo = self._memo.get(key)
        if memo is not None:
            return memo
        self.nodes += 1
        rules = self.rules
        if phase == SPIN:
            wheel = rules.book.weapon_rows[st.seat(st.active).slots[st.spin_now().slot].weapon].wheel
            seen: dict[tuple[int, int, int], float] = {}
            total = 0.0
            for i, printed in enumerate(wheel):
                v = seen.get(printed)
                if v is None:
                    v = seen[printed] = self._value(rules.step(st, segment(i)), depth)
                total += v
            value = total / len(wheel)
        else:
            seat = 1 - st.active if phase == PH_SHIELD else st.active
            if seat != self.me:
                if phase == PH_SHIELD:  # the opponent spends shields against us: assume its best
                    value = min(self._value(rules.step(st, a), depth) for a in rules.choices(st, seat))
                else:  # the opponent's turn has begun: score
                    value = self.evaluate(st)
            elif phase == MAIN and (depth <= 0 or self.nodes > self.max_nodes):
                value = self.evaluate(st)
            else:
                if phase == MAIN:
                    depth -= 1
                legal = rules.choices(st, seat)  # a combo selection is sorted: the memo merges orders
                value = max(self._value(rules.step(st, a), depth) for a in legal)
        self._memo[key] = value
        return value

    def search_key(self, st: State, depth: int) -> tuple[Any, ...]:
        """The memo key of ``st`` searched ``depth`` deep: every field a search from one decision
        can change, as plain ints and tuples (hashed and compared in C; hashing the dataclasses
        costs several times more). The rest (the options, heroes, weapon codes, the starter, the
        start spin) is fixed for one decision, and the memo lives for one decision only."""
        a, b = st.seats
        assert a is not None and b is not None  # searched positions are past the loadouts
        spin, attack = st.spin, st.attack
        return (
            depth,
            st.phase,
            st.active,
            st.round,
            st.actions,
            st.used,
            st.ending,
            st.queue,
            st.combos,
            a.lives,
            a.energy,
            b.lives,
            b.energy,
            self._slots_key(a.slots),
            self._slots_key(b.slots),
            None if spin is None else (spin.slot, spin.segment),
            None
            if attack is None
            else (
                attack.source,
                attack.effect,
                attack.value,
                attack.declared,
                attack.target,
                attack.slot,
                attack.shields,
                attack.origin,
            ),
        )

    def _slots_key(self, slots: tuple[Slot, ...]) -> tuple[Any, ...]:
        known = self._slot_keys.get(id(slots))
        if known is None or known[0] is not slots:
            known = self._slot_keys[id(slots)] = (slots, slots_key(slots))
        return known[1]

    def evaluate(self, st: State) -> float:
        """The static worth of ``st`` for :attr:`me`: lives (:func:`_life_worth`), energy, deferred
        effects on the table, broken weapons, plus what the side to act can still do this turn and
        minus what the opponent can do in its coming turn (see :class:`_Stats.potential`)."""
        me = self.me
        if st.outcome is not None:
            result = st.outcome.results[me]
            return WIN if result == "win" else -WIN if result == "loss" else 0.0
        book = self.rules.book
        energy_on = st.config.energy
        total = 0.0
        for i in (0, 1):
            s = st.seat(i)
            v = _life_worth(s.lives)
            if energy_on:
                v += ENERGY_WORTH * s.energy
            for slot in s.slots:
                if slot.held != NO_EFFECT:
                    v += HELD_WORTH[slot.held] * slot.value
                elif slot.status == BROKEN:
                    v -= BROKEN_WORTH
                elif slot.status == REPAIRING:
                    v -= REPAIRING_WORTH
            total += v if i == me else -v
        active = st.active
        stats = self.stats
        if st.phase == MAIN and not st.ending:
            mine = stats.potential(st, active, st.actions, st.seat(active).energy)
            total += POTENTIAL_WEIGHT * (mine if active == me else -mine)
        if active == me:
            opp = 1 - me
            theirs = stats.potential(st, opp, 4, _next_turn_energy(book, st, opp) if energy_on else 0)
            total -= POTENTIAL_WEIGHT * theirs
        return total


__all__ = ["EFFECT_WORTH", "ExpectimaxBot", "GreedyBot", "RandomBot", "WeaponStats"]
