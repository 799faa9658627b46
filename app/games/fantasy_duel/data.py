"""The Fantasy súboj unit table: loading, schema validation and the engine's fast unit records
(``rules/fantasy_duel.md`` sections 1, 5 and 9).

The units are data (``units.yaml``, the spec's section 9 table with the Slovak and English names);
the rules only know the *vocabularies* below: the factions, the ability ids of section 5 and the
kinds a bonus can name. :func:`load_units` checks a file and raises :class:`UnitDataError` naming
every problem; the module loads the packaged table once at import and exposes it as :data:`UNITS`,
a tuple of :class:`UnitDef` (plain frozen records with one flag per ability, for the hot paths).

A *card* is one physical card of the shared deck: with ``packs`` packs mixed together there are
``packs * len(UNITS)`` cards, numbered from 0, and card ``c`` shows unit ``UNITS[c % len(UNITS)]``
(spec section 1: card instances are distinct from card definitions).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

#: The file shipped with the package.
UNITS_FILE = Path(__file__).with_name("units.yaml")

Faction = Literal["human-empire", "human-barbarian", "elf", "undead"]
#: The factions in table order; ``undead`` is the only one that is not living (AMBIGUITY 13).
FACTIONS: tuple[str, ...] = ("human-empire", "human-barbarian", "elf", "undead")
UNDEAD = "undead"
#: What a ``bonus_vs`` or ``defense_bonus_vs`` may name (spec 5.1, 5.2).
Kind = Literal["mounted", "undead", "living"]
#: The ability ids of spec section 5, in the order a card lists them.
ABILITY_IDS: tuple[str, ...] = (
    "bonus_vs",
    "defense_bonus_vs",
    "hiding",
    "tracking",
    "poison",
    "healer",
    "taunt",
    "tactics",
    "ally_support",
    "defensive_fire",
    "doom_vs_living",
)
#: Most packs a match may mix (the ``packs`` option).
MAX_PACKS = 6


class UnitDataError(ValueError):
    """The unit table does not fit the schema; the message names the file and every problem."""


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class BonusVs(_Strict):
    """``bonus_vs {target, attack}`` (spec 5.1): +``attack`` when attacking a ``target`` unit."""

    target: Kind
    attack: int = Field(ge=1, le=20)


class DefenseBonusVs(_Strict):
    """``defense_bonus_vs {attacker, defense}`` (spec 5.2): +``defense`` against such attackers."""

    attacker: Kind
    defense: int = Field(ge=1, le=20)


class AllySupport(_Strict):
    """``ally_support`` (spec 5.9): extra dice per other unit of the faction, capped."""

    extra_dice_per_ally: int = Field(ge=1, le=3)
    max_extra_dice: int = Field(ge=1, le=6)


class Flag(_Strict):
    """An ability without parameters (``hiding: {}``)."""


class Ability(_Strict):
    """One entry of a unit's ``abilities``: exactly one of the fields is set."""

    bonus_vs: BonusVs | None = None
    defense_bonus_vs: DefenseBonusVs | None = None
    hiding: Flag | None = None
    tracking: Flag | None = None
    poison: Flag | None = None
    healer: Flag | None = None
    taunt: Flag | None = None
    tactics: Flag | None = None
    ally_support: AllySupport | None = None
    defensive_fire: Flag | None = None
    doom_vs_living: Flag | None = None

    @model_validator(mode="after")
    def _one(self) -> Ability:
        if len(self.model_fields_set) != 1:
            raise ValueError(f"an ability names exactly one of {list(ABILITY_IDS)}")
        return self

    @property
    def id(self) -> str:
        """The ability id (spec section 5)."""
        return next(iter(self.model_fields_set))


class Unit(_Strict):
    """One unit card definition (a row of spec section 9)."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name_sk: str = Field(min_length=1)
    name_en: str = Field(min_length=1)
    faction: Faction
    attack: int = Field(ge=0, le=30)
    dice: int = Field(ge=0, le=8)
    defense: int = Field(ge=0, le=40)
    average: float
    mounted: bool
    abilities: tuple[Ability, ...] = ()
    ability_text_sk: str | None = None
    flavor_sk: str = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> Unit:
        if abs(self.average - (self.attack + 3.5 * self.dice)) > 1e-9:
            raise ValueError(f"average {self.average} != attack + 3.5 x dice = {self.attack + 3.5 * self.dice}")
        ids = [a.id for a in self.abilities if a.id not in ("bonus_vs", "defense_bonus_vs")]
        if len(ids) != len(set(ids)):
            raise ValueError(f"an ability is listed twice: {ids}")
        if self.abilities and self.ability_text_sk is None:
            raise ValueError("a unit with abilities carries its rule line (ability_text_sk)")
        return self


class UnitTable(_Strict):
    """The whole table: every unit of one pack once, in card order."""

    units: tuple[Unit, ...] = Field(min_length=3)

    @model_validator(mode="after")
    def _unique(self) -> UnitTable:
        ids = [u.id for u in self.units]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"duplicate unit ids: {dupes}")
        return self


@dataclass(frozen=True, slots=True)
class UnitDef:
    """A unit as the rules use it: numbers and one field per ability (spec section 5).

    :param index: position in the table (card ``c`` shows ``UNITS[c % len(UNITS)]``).
    :param bonus_vs: ``(kind, attack)`` pairs, spec 5.1; ``defense_bonus_vs``: ``(kind, defense)``.
    :param support_per_ally: extra dice per other unit of the faction (0: no ally support);
        ``support_max``: the cap (spec 5.9).
    """

    index: int
    id: str
    faction: str
    attack: int
    dice: int
    defense: int
    mounted: bool
    living: bool
    bonus_vs: tuple[tuple[str, int], ...]
    defense_bonus_vs: tuple[tuple[str, int], ...]
    hiding: bool
    tracking: bool
    poison: bool
    healer: bool
    taunt: bool
    tactics: bool
    defensive_fire: bool
    doom: bool
    support_per_ally: int
    support_max: int

    def matches(self, kind: str) -> bool:
        """Whether this unit is of ``kind`` (``mounted``, ``undead`` or ``living``; spec 5.1)."""
        if kind == "mounted":
            return self.mounted
        if kind == "undead":
            return not self.living
        return self.living


def _unit_def(index: int, unit: Unit) -> UnitDef:
    present = {a.id for a in unit.abilities}
    support = next((a.ally_support for a in unit.abilities if a.ally_support is not None), None)
    return UnitDef(
        index=index,
        id=unit.id,
        faction=unit.faction,
        attack=unit.attack,
        dice=unit.dice,
        defense=unit.defense,
        mounted=unit.mounted,
        living=unit.faction != UNDEAD,
        bonus_vs=tuple((a.bonus_vs.target, a.bonus_vs.attack) for a in unit.abilities if a.bonus_vs),
        defense_bonus_vs=tuple(
            (a.defense_bonus_vs.attacker, a.defense_bonus_vs.defense) for a in unit.abilities if a.defense_bonus_vs
        ),
        hiding="hiding" in present,
        tracking="tracking" in present,
        poison="poison" in present,
        healer="healer" in present,
        taunt="taunt" in present,
        tactics="tactics" in present,
        defensive_fire="defensive_fire" in present,
        doom="doom_vs_living" in present,
        support_per_ally=support.extra_dice_per_ally if support else 0,
        support_max=support.max_extra_dice if support else 0,
    )


def parse_units(raw: Any, source: str = "<data>") -> UnitTable:
    """Validate an already-parsed table (``{"units": [...]}``).

    :raises UnitDataError: naming ``source`` and every schema problem.
    """
    try:
        return UnitTable.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}" for err in exc.errors()
        )
        raise UnitDataError(f"invalid unit table {source}: {problems}") from None


def load_units(path: str | Path = UNITS_FILE) -> UnitTable:
    """Read and validate a unit table file.

    :raises UnitDataError: unreadable YAML or a schema problem (the message names the file).
    """
    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise UnitDataError(f"cannot read unit table {path}: {exc}") from None
    return parse_units(raw, str(path))


TABLE: UnitTable = load_units()
#: The unit records in table order.
UNITS: tuple[UnitDef, ...] = tuple(_unit_def(i, u) for i, u in enumerate(TABLE.units))
#: Cards in one pack.
PACK_SIZE = len(UNITS)
#: Unit id -> record.
UNIT_BY_ID: dict[str, UnitDef] = {u.id: u for u in UNITS}
#: Card number -> unit record, for every card of the largest deck (``MAX_PACKS`` packs).
CARD_UNITS: tuple[UnitDef, ...] = UNITS * MAX_PACKS
#: The most dice one attack can roll (own dice plus the largest ally support).
MAX_DICE = max(u.dice + u.support_max for u in UNITS)


def unit_of(card: int) -> UnitDef:
    """The unit card ``card`` shows.

    :raises IndexError: ``card`` is not a card of a ``MAX_PACKS`` deck.
    """
    return CARD_UNITS[card]


def catalog_entries() -> list[dict[str, Any]]:
    """The unit list for pages: ``[{"id", "name_sk", "name_en", "faction", "attack", "dice",
    "defense", "average", "mounted", "abilities": [{"id", ...parameters}], "ability_text_sk",
    "flavor_sk"}]`` in table order."""
    out = []
    for unit in TABLE.units:
        abilities = []
        for ability in unit.abilities:
            params = getattr(ability, ability.id)
            abilities.append({"id": ability.id, **params.model_dump()})
        out.append(
            {
                "id": unit.id,
                "name_sk": unit.name_sk,
                "name_en": unit.name_en,
                "faction": unit.faction,
                "attack": unit.attack,
                "dice": unit.dice,
                "defense": unit.defense,
                "average": unit.average,
                "mounted": unit.mounted,
                "abilities": abilities,
                "ability_text_sk": unit.ability_text_sk,
                "flavor_sk": unit.flavor_sk,
            }
        )
    return out
