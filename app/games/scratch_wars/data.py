"""Scratch Wars card data: the pydantic schema, loading, the rarity check and compact tables
(``rules/scratch_wars.md`` section 2).

The seed has no cards (spec section 2.3), so the shipped set in ``cards/heroes.yaml`` and
``cards/weapons.yaml`` is our own design. :func:`load_card_set` reads and validates the two files
(:class:`CardSetError` lists every problem); :func:`parse_card_set` validates already-parsed data, so
tests can build small synthetic sets (the golden fixtures H, SW, BW, WD). :class:`CardBook` holds a
validated set plus the integer tables the engine's hot paths use.

Vocabulary (spec section 2.2, 6, 8.6):

* effect ids: ``energy``, ``attack_hero``, ``attack_weapon``, ``universal_attack``, ``heal``
  (one-shot) and ``permanent_attack``, ``shield``, ``combo`` (deferred);
* fields: ``green`` (continue), ``orange`` (decide), ``red`` (stop);
* weapon types: ``sword``, ``axe``, ``bow``, ``wand``;
* bonus kinds: ``effect`` (icon bonus), ``blessing``, ``combo_bonus``, ``combo_detonator``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, NamedTuple

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

CARDS_DIR = Path(__file__).with_name("cards")
HEROES_FILE = CARDS_DIR / "heroes.yaml"
WEAPONS_FILE = CARDS_DIR / "weapons.yaml"

# ----------------------------------------------------------------------------------- vocabularies

#: Effect ids in a fixed order; the engine uses the index (``ENERGY`` ... ``COMBO``).
EFFECTS: tuple[str, ...] = (
    "energy",
    "attack_hero",
    "attack_weapon",
    "universal_attack",
    "heal",  # one-shot (section 6.1)
    "permanent_attack",
    "shield",
    "combo",  # deferred (section 6.2)
)
ENERGY, ATTACK_HERO, ATTACK_WEAPON, UNIVERSAL_ATTACK, HEAL, PERMANENT_ATTACK, SHIELD, COMBO = range(8)
EFFECT_INDEX: Mapping[str, int] = {e: i for i, e in enumerate(EFFECTS)}
ONE_SHOT: frozenset[int] = frozenset({ENERGY, ATTACK_HERO, ATTACK_WEAPON, UNIVERSAL_ATTACK, HEAL})
DEFERRED: frozenset[int] = frozenset({PERMANENT_ATTACK, SHIELD, COMBO})

FIELDS: tuple[str, ...] = ("green", "orange", "red")
GREEN, ORANGE, RED = range(3)
FIELD_INDEX: Mapping[str, int] = {f: i for i, f in enumerate(FIELDS)}

WEAPON_TYPES: tuple[str, ...] = ("sword", "axe", "bow", "wand")
TYPE_INDEX: Mapping[str, int] = {t: i for i, t in enumerate(WEAPON_TYPES)}

BONUS_KINDS: tuple[str, ...] = ("effect", "blessing", "combo_bonus", "combo_detonator")
B_EFFECT, B_BLESSING, B_COMBO_BONUS, B_DETONATOR = range(4)
BONUS_INDEX: Mapping[str, int] = {k: i for i, k in enumerate(BONUS_KINDS)}

#: Times of day in cycle order (spec section 4; AMBIGUITY 18: the 3rd and 4th are placeholders).
TIMES_OF_DAY: tuple[str, ...] = ("morning", "noon", "evening", "night")

#: Weapon colour by energy cost (spec section 2.2: red = 3, orange = 2; the colour for 1 is ours).
COST_COLORS: Mapping[int, str] = {1: "yellow", 2: "orange", 3: "red"}

#: The printed ranges our own set keeps to (checked by :func:`printed_range_problems`; synthetic
#: test sets such as the golden fixtures may leave them).
PRINTED_LIVES = (18, 25)
PRINTED_ENERGY = (1, 6)
PRINTED_BONUS = (-2, 5)
PRINTED_SEGMENT_VALUE = (1, 6)  #: every value; "mostly 1-4" is checked by the card tests
PRINTED_DURABILITY: Mapping[int, tuple[int, int]] = {1: (1, 3), 2: (2, 4), 3: (4, 6)}  #: by cost
MAX_BONUSES_PER_TIME = 2  #: "obvykle max. 2 bonusy"

EffectId = Literal[
    "energy", "attack_hero", "attack_weapon", "universal_attack", "heal", "permanent_attack", "shield", "combo"
]
FieldColor = Literal["green", "orange", "red"]
WeaponType = Literal["sword", "axe", "bow", "wand"]
BonusKind = Literal["effect", "blessing", "combo_bonus", "combo_detonator"]
Code = Field(pattern=r"^[A-Z0-9]{1,8}$")  #: the shipped set uses exactly 4 letters (strict check)


class CardSetError(ValueError):
    """A card set does not fit the schema; the message names the source and every problem."""


# ----------------------------------------------------------------------------------------- schema


class Bonus(BaseModel):
    """One hero bonus in a time-of-day column (spec section 8.6).

    ``effect`` is required iff ``kind == "effect"`` (an icon bonus matches that exact icon).
    ``flag`` is the "deferred effect" marker: true exactly for icon bonuses on deferred icons.
    A value is never 0 (a zero bonus would be no bonus).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: BonusKind
    effect: EffectId | None = None
    value: int
    flag: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> Bonus:
        if self.value == 0:
            raise ValueError("a bonus value is never 0")
        if self.kind == "effect":
            if self.effect is None:
                raise ValueError("an icon bonus (kind effect) names its effect")
            deferred = EFFECT_INDEX[self.effect] in DEFERRED
            if self.flag != deferred:
                raise ValueError(f"an icon bonus on {self.effect} has flag {str(deferred).lower()}")
        else:
            if self.effect is not None:
                raise ValueError(f"a {self.kind} bonus names no effect")
            if self.flag:
                raise ValueError("only icon bonuses on deferred effects carry the flag")
        return self


class TimeOfDayColumn(BaseModel):
    """A column of the hero card: the energy gained at the start of a turn (level 3) and the
    bonuses usable in that time of day."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    energy: int = Field(ge=0, le=12)
    bonuses: tuple[Bonus, ...] = Field(default=(), max_length=3)


class Hero(BaseModel):
    """A hero card (spec section 2.1). ``code`` is its unique 4-letter code."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    code: str = Code
    name: str = Field(min_length=1)
    kind: str = Field(min_length=1)
    nation: str = Field(min_length=1)
    rarity_stars: int = Field(ge=1, le=4)
    lives_duel: int = Field(ge=1, le=99)
    lives_team: int = Field(ge=1, le=99)
    weapon_types: tuple[WeaponType, ...] = Field(min_length=1, max_length=4)
    specialization: str | None = None
    average_strength: float
    times_of_day: tuple[TimeOfDayColumn, ...] = Field(min_length=4, max_length=4)
    #: the hero's suggested weapons (a representative loadout; the balance report plays it)
    starter_weapons: tuple[str, ...] = Field(min_length=1, max_length=5)
    flavour: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> Hero:
        if len(set(self.weapon_types)) != len(self.weapon_types):
            raise ValueError("weapon_types lists a type twice")
        if len(set(self.starter_weapons)) != len(self.starter_weapons):
            raise ValueError("starter_weapons lists a weapon twice")
        return self


class Segment(BaseModel):
    """One segment of a weapon's wheel: an effect icon, its value and its field colour."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    effect: EffectId
    value: int = Field(ge=0, le=12)
    field: FieldColor


class Weapon(BaseModel):
    """A weapon card (spec section 2.2): a wheel of equally likely segments (AMBIGUITY 17).

    ``name`` is the weapon's *kind*: at level >= 2 a hero carries each name at most once.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    code: str = Code
    name: str = Field(min_length=1)
    type: WeaponType
    energy_cost: int = Field(ge=1, le=3)
    cost_color: str
    durability: int = Field(ge=1, le=12)
    rarity_stars: int = Field(ge=1, le=4)
    average_strength: float
    wheel: tuple[Segment, ...] = Field(min_length=1)
    flavour: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> Weapon:
        if self.cost_color != COST_COLORS[self.energy_cost]:
            wanted = COST_COLORS[self.energy_cost]
            raise ValueError(f"cost {self.energy_cost} is coloured {wanted}, not {self.cost_color}")
        return self


class CardSet(BaseModel):
    """A whole card set: heroes and weapons with unique codes, and wheels of ``wheel_segments``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    wheel_segments: int = Field(ge=1)
    heroes: tuple[Hero, ...] = Field(min_length=1)
    weapons: tuple[Weapon, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> CardSet:
        codes = [h.code for h in self.heroes] + [w.code for w in self.weapons]
        dupes = sorted({c for c in codes if codes.count(c) > 1})
        if dupes:
            raise ValueError(f"duplicate codes: {dupes}")
        names = [h.name for h in self.heroes] + [w.name for w in self.weapons]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"duplicate names: {dupes}")
        weapon_codes = {w.code for w in self.weapons}
        for w in self.weapons:
            if len(w.wheel) != self.wheel_segments:
                raise ValueError(f"weapon {w.code} has {len(w.wheel)} segments, not {self.wheel_segments}")
        for h in self.heroes:
            unknown = [c for c in h.starter_weapons if c not in weapon_codes]
            if unknown:
                raise ValueError(f"hero {h.code}: unknown starter weapons {unknown}")
        for group, cards in _groups(self).items():
            averages = {c.average_strength for c in cards}
            if len(averages) != 1:
                raise ValueError(f"cards of {group} disagree on average_strength: {sorted(averages)}")
        return self


def _groups(card_set: CardSet) -> dict[str, list[Any]]:
    """Cards that share an average strength: heroes by kind, weapons by type and cost."""
    groups: dict[str, list[Any]] = {}
    for h in card_set.heroes:
        groups.setdefault(f"hero kind {h.kind!r}", []).append(h)
    for w in card_set.weapons:
        groups.setdefault(f"cost-{w.energy_cost} {w.type}s", []).append(w)
    return groups


# ------------------------------------------------------------------------------------ rarity check


def card_strength(card: Hero | Weapon) -> int:
    """The strength the rulebook's rarity check sums (seed p. 15).

    A hero: every energy value and every bonus of the lower half of the card, negative bonuses
    subtracted. A weapon (the seed prints an average but not what to sum; our reading): the sum of
    its wheel's segment values.
    """
    if isinstance(card, Hero):
        return sum(c.energy + sum(b.value for b in c.bonuses) for c in card.times_of_day)
    return sum(s.value for s in card.wheel)


def rarity_check(card: Hero | Weapon) -> dict[str, Any]:
    """The rulebook's rarity check: the card's strength against its type's average strength.

    :returns: ``{"strength": int, "average": float, "difference": float, "rare": bool}``; ``rare``
        when the strength is above the average ("Pokud je váš součet vyšší než průměr ... máte
        vzácného hrdinu").
    """
    strength = card_strength(card)
    return {
        "strength": strength,
        "average": card.average_strength,
        "difference": round(strength - card.average_strength, 2),
        "rare": strength > card.average_strength,
    }


def printed_range_problems(card_set: CardSet) -> list[str]:
    """Where a set leaves the spec's printed ranges (4-letter codes, lives 18-25, energy 1-6 per time of day,
    bonuses -2..+5 and at most 2 per column, segment values 1-6, durability rising with cost).

    :returns: one message per problem; empty when the set keeps to every range.
    """
    problems = []
    cards: list[Hero | Weapon] = [*card_set.heroes, *card_set.weapons]
    for card in cards:
        if not re.fullmatch(r"[A-Z]{4}", card.code):
            problems.append(f"{card.code}: a code is 4 capital letters")
    for h in card_set.heroes:
        if not PRINTED_LIVES[0] <= h.lives_duel <= PRINTED_LIVES[1]:
            problems.append(f"hero {h.code}: lives_duel {h.lives_duel} outside {PRINTED_LIVES}")
        for t, col in enumerate(h.times_of_day):
            if not PRINTED_ENERGY[0] <= col.energy <= PRINTED_ENERGY[1]:
                problems.append(f"hero {h.code}: {TIMES_OF_DAY[t]} energy {col.energy} outside {PRINTED_ENERGY}")
            if len(col.bonuses) > MAX_BONUSES_PER_TIME:
                problems.append(f"hero {h.code}: {TIMES_OF_DAY[t]} has more than {MAX_BONUSES_PER_TIME} bonuses")
            for b in col.bonuses:
                if not PRINTED_BONUS[0] <= b.value <= PRINTED_BONUS[1]:
                    problems.append(f"hero {h.code}: bonus {b.value} outside {PRINTED_BONUS}")
    for w in card_set.weapons:
        low, high = PRINTED_DURABILITY[w.energy_cost]
        if not low <= w.durability <= high:
            problems.append(f"weapon {w.code}: durability {w.durability} outside {low}-{high} for cost {w.energy_cost}")
        for s in w.wheel:
            if not PRINTED_SEGMENT_VALUE[0] <= s.value <= PRINTED_SEGMENT_VALUE[1]:
                problems.append(f"weapon {w.code}: segment value {s.value} outside {PRINTED_SEGMENT_VALUE}")
    return problems


# ---------------------------------------------------------------------------------- loading


def _problems(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}" for err in exc.errors())


def parse_card_set(raw: Any, source: str = "<data>") -> CardSet:
    """Validate an already-parsed set ``{"wheel_segments", "heroes": [...], "weapons": [...]}``.

    :raises CardSetError: naming ``source`` and every schema problem.
    """
    try:
        return CardSet.model_validate(raw)
    except ValidationError as exc:
        raise CardSetError(f"invalid card set {source}: {_problems(exc)}") from None


def _read_yaml(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise CardSetError(f"cannot read card file {path}: {exc}") from None


def load_card_set(heroes: str | Path = HEROES_FILE, weapons: str | Path = WEAPONS_FILE, strict: bool = True) -> CardSet:
    """Read and validate the hero file (``{"heroes": [...]}``) and the weapon file
    (``{"wheel_segments": 9, "weapons": [...]}``).

    :param strict: also require the spec's printed ranges (:func:`printed_range_problems`).
    :raises CardSetError: unreadable YAML, a schema problem or (strict) a range problem.
    """
    hero_raw, weapon_raw = _read_yaml(Path(heroes)), _read_yaml(Path(weapons))
    if not isinstance(hero_raw, dict) or not isinstance(weapon_raw, dict):
        raise CardSetError(f"card files {heroes}, {weapons} must each hold a mapping")
    raw = {**weapon_raw, **hero_raw}
    card_set = parse_card_set(raw, f"{heroes} + {weapons}")
    if strict:
        problems = printed_range_problems(card_set)
        if problems:
            raise CardSetError(f"card set {heroes} + {weapons} leaves the printed ranges: {'; '.join(problems)}")
    return card_set


# ------------------------------------------------------------------------------ compact tables


class BonusRow(NamedTuple):
    """A bonus as integers: ``kind`` (``B_EFFECT`` ...), ``effect`` (effect index or -1), ``value``."""

    kind: int
    effect: int
    value: int


class ColumnRow(NamedTuple):
    """A time-of-day column: energy and bonuses."""

    energy: int
    bonuses: tuple[BonusRow, ...]


class HeroRow(NamedTuple):
    """A hero as the engine uses it: lives, a bit mask of weapon types, 4 columns."""

    code: str
    lives: int
    types: int
    columns: tuple[ColumnRow, ...]  #: one per time of day, in cycle order


class WeaponRow(NamedTuple):
    """A weapon as the engine uses it. ``wheel`` holds ``(effect, value, field)`` integer triples."""

    code: str
    name: str
    type: int
    cost: int
    durability: int
    wheel: tuple[tuple[int, int, int], ...]


class CardBook:
    """A validated card set with lookup tables (built once; treat as read-only).

    :ivar card_set: the validated :class:`CardSet`.
    :ivar heroes: hero code -> :class:`Hero`; ``weapons``: weapon code -> :class:`Weapon`.
    :ivar hero_rows: hero code -> :class:`HeroRow`; ``weapon_rows``: code -> :class:`WeaponRow`.
    """

    def __init__(self, card_set: CardSet) -> None:
        self.card_set = card_set
        self.heroes: dict[str, Hero] = {h.code: h for h in card_set.heroes}
        self.weapons: dict[str, Weapon] = {w.code: w for w in card_set.weapons}
        self.hero_codes: tuple[str, ...] = tuple(h.code for h in card_set.heroes)
        self.weapon_codes: tuple[str, ...] = tuple(w.code for w in card_set.weapons)
        self.hero_rows: dict[str, HeroRow] = {}
        for h in card_set.heroes:
            mask = 0
            for t in h.weapon_types:
                mask |= 1 << TYPE_INDEX[t]
            columns = tuple(
                ColumnRow(
                    c.energy,
                    tuple(
                        BonusRow(BONUS_INDEX[b.kind], EFFECT_INDEX[b.effect] if b.effect else -1, b.value)
                        for b in c.bonuses
                    ),
                )
                for c in h.times_of_day
            )
            self.hero_rows[h.code] = HeroRow(h.code, h.lives_duel, mask, columns)
        self.weapon_rows: dict[str, WeaponRow] = {
            w.code: WeaponRow(
                w.code,
                w.name,
                TYPE_INDEX[w.type],
                w.energy_cost,
                w.durability,
                tuple((EFFECT_INDEX[s.effect], s.value, FIELD_INDEX[s.field]) for s in w.wheel),
            )
            for w in card_set.weapons
        }

        #: (hero, weapon) -> energy to spin or repair it (:meth:`spin_cost`)
        self.costs: dict[tuple[str, str], int] = {
            (h, w.code): w.cost + (0 if self.hero_rows[h].types >> w.type & 1 else 1)
            for h in self.hero_codes
            for w in self.weapon_rows.values()
        }

    def spin_cost(self, hero: str, weapon: str) -> int:
        """Energy to spin (or repair) ``weapon`` for ``hero``: its cost, +1 off-type (section 5.2)."""
        return self.costs[hero, weapon]

    def starter_loadout(self, hero: str) -> tuple[str, ...]:
        """The hero's suggested weapons, in card order."""
        return self.heroes[hero].starter_weapons

    def catalog(self) -> dict[str, Any]:
        """The card faces for pages and clients: ``{"heroes": [...], "weapons": [...],
        "wheel_segments", "times_of_day"}``; each card is its schema fields plus ``"rarity"``
        (:func:`rarity_check`)."""
        return {
            "wheel_segments": self.card_set.wheel_segments,
            "times_of_day": list(TIMES_OF_DAY),
            "heroes": [{**h.model_dump(mode="json"), "rarity": rarity_check(h)} for h in self.card_set.heroes],
            "weapons": [{**w.model_dump(mode="json"), "rarity": rarity_check(w)} for w in self.card_set.weapons],
        }


def book_from(raw: Mapping[str, Any] | CardSet, source: str = "<data>") -> CardBook:
    """A :class:`CardBook` from a parsed mapping or a :class:`CardSet` (no range check).

    :raises CardSetError: a schema problem.
    """
    return CardBook(raw if isinstance(raw, CardSet) else parse_card_set(raw, source))


#: The shipped card set, loaded and validated (strictly) at import.
CARD_SET: CardSet = load_card_set()
BOOK: CardBook = CardBook(CARD_SET)
