"""The Battle Runes rune table: loading, schema validation and fast lookup tables (spec section 6).

The runes are data (``runes.yaml``); the rules (``resolve.py``) only know the *vocabularies* below:
the kinds, the bonus conditions and the modifier effects. :func:`load_runes` checks a file against
them and raises :class:`RuneDataError` with every problem listed; the module loads the packaged
table once at import and exposes it as :data:`RUNE_BOOK` plus plain dicts/tuples for the hot paths.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

#: The file shipped with the package.
RUNES_FILE = Path(__file__).with_name("runes.yaml")

#: Ids the rules refer to by name: the two "special modifiers" (spec section 1, 6.3).
FIRE = "FIRE"
WATER = "WATER"

Kind = Literal["build", "destroy", "modifier"]
Condition = Literal[
    "always",
    "water_any",
    "water_self",
    "water_opp",
    "fire_any",
    "fire_self",
    "fire_opp",
    "opp_no_modifier",
    "opp_base_destruction_zero",
    "opp_base_construction_zero",
]
CrossBonus = Literal["own_base_destruction", "own_base_construction"]
Effect = Literal[
    "none_enabler",
    "annul_turn_if_fire_or_water_any",
    "double_own_S",
    "double_own_R",
    "add_2x_abs_diff_S_to_leader",
    "add_2x_abs_diff_R_to_leader",
    "swap_own_S_R",
    "swap_opp_S_R",
    "swap_S_between_players",
    "swap_R_between_players",
    "swap_total_scores_if_fire_and_water_any",
]

#: The order number each modifier effect must carry (spec section 6.3); ``None``: no number.
EFFECT_ORDER: dict[str, int | None] = {
    "none_enabler": None,
    "annul_turn_if_fire_or_water_any": None,
    "double_own_S": 3,
    "double_own_R": 3,
    "add_2x_abs_diff_S_to_leader": 4,
    "add_2x_abs_diff_R_to_leader": 4,
    "swap_own_S_R": 5,
    "swap_opp_S_R": 5,
    "swap_S_between_players": 6,
    "swap_R_between_players": 6,
    "swap_total_scores_if_fire_and_water_any": 6,
}

#: A deck must hold at least an opening hand (5) plus one deal (3), so a reshuffle can always
#: complete a deal (spec section 3.5-3.6).
MIN_DECK_SIZE = 8


class RuneDataError(ValueError):
    """The rune table does not fit the schema; the message names the file and every problem."""


class Rune(BaseModel):
    """One rune (a row of the spec's section 6.4 table), immutable.

    Construction (``build``) runes are order 1 and destruction (``destroy``) runes order 2; they
    give ``base`` points plus ``bonus`` when ``condition`` holds (or the cross term for
    ``cross_term`` runes). Modifiers carry an ``effect`` and the order number of that effect.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[A-Z][A-Z0-9_]*$")
    name: str = Field(min_length=1)
    name_ru: str = Field(min_length=1)
    kind: Kind
    order: int | None
    base: int = Field(default=0, ge=0)
    condition: Condition | None = None
    bonus: int | CrossBonus = 0
    bonus_kind: Literal["build", "destroy"] | None = None
    bonus_kind_as_printed: Literal["build", "destroy"] | None = None
    cross_term: bool = False
    effect: Effect | None = None
    copies: int = Field(ge=0, le=30)
    text: str = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> Rune:
        if self.kind == "modifier":
            if self.effect is None:
                raise ValueError("a modifier needs an effect")
            if self.base or self.condition is not None or self.bonus or self.bonus_kind or self.cross_term:
                raise ValueError("a modifier has no base, condition, bonus or cross term")
            if self.order != EFFECT_ORDER[self.effect]:
                raise ValueError(f"effect {self.effect} has order {EFFECT_ORDER[self.effect]}, not {self.order}")
            return self
        expected_order = 1 if self.kind == "build" else 2
        if self.order != expected_order:
            raise ValueError(f"a {self.kind} rune has order {expected_order}, not {self.order}")
        if self.effect is not None:
            raise ValueError("only modifiers have an effect")
        if self.condition is None:
            raise ValueError("a construction/destruction rune needs a condition (use 'always')")
        if self.base < 1:
            raise ValueError("a construction/destruction rune gives at least 1 point (AMBIGUITY 4 relies on it)")
        if isinstance(self.bonus, str):
            wanted = "own_base_destruction" if self.kind == "build" else "own_base_construction"
            if self.bonus != wanted or not self.cross_term or self.condition != "always":
                raise ValueError(f"a {self.kind} cross-term rune has bonus {wanted}, cross_term true, condition always")
        elif self.cross_term:
            raise ValueError("cross_term needs bonus own_base_destruction/own_base_construction")
        if self.bonus and self.bonus_kind is None:
            raise ValueError("a rune with a bonus needs bonus_kind")
        if self.bonus_kind_as_printed is not None and not self.bonus:
            raise ValueError("bonus_kind_as_printed without a bonus")
        return self


class RuneBook(BaseModel):
    """The whole table: every rune once, in catalog order; the deck holds ``copies`` of each."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    runes: tuple[Rune, ...]

    @model_validator(mode="after")
    def _consistent(self) -> RuneBook:
        ids = [r.id for r in self.runes]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"duplicate rune ids: {dupes}")
        by_id = {r.id: r for r in self.runes}
        for special in (FIRE, WATER):
            if special not in by_id or by_id[special].effect != "none_enabler":
                raise ValueError(f"rune {special} must exist with effect none_enabler")
        size = sum(r.copies for r in self.runes)
        if size < MIN_DECK_SIZE:
            raise ValueError(f"a deck needs at least {MIN_DECK_SIZE} cards, this one has {size}")
        return self

    def deck(self) -> tuple[str, ...]:
        """One seat's full deck as rune ids, in catalog order (``copies`` of each)."""
        return tuple(r.id for r in self.runes for _ in range(r.copies))


def parse_runes(raw: Any, source: str = "<data>") -> RuneBook:
    """Validate an already-parsed table (``{"runes": [...]}``).

    :raises RuneDataError: naming ``source`` and every schema problem.
    """
    try:
        return RuneBook.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}" for err in exc.errors()
        )
        raise RuneDataError(f"invalid rune table {source}: {problems}") from None


def load_runes(path: str | Path = RUNES_FILE) -> RuneBook:
    """Read and validate a rune table file.

    :raises RuneDataError: unreadable YAML or a schema problem (message names the file).
    """
    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise RuneDataError(f"cannot read rune table {path}: {exc}") from None
    return parse_runes(raw, str(path))


RUNE_BOOK: RuneBook = load_runes()
#: Rune id -> validated :class:`Rune`.
RUNES: Mapping[str, Rune] = {r.id: r for r in RUNE_BOOK.runes}
#: Rune ids in catalog order.
RUNE_IDS: tuple[str, ...] = tuple(r.id for r in RUNE_BOOK.runes)
#: Rune id -> catalog position; hands and picks are kept sorted by it.
RUNE_INDEX: Mapping[str, int] = {rid: i for i, rid in enumerate(RUNE_IDS)}
#: One seat's deck (both seats' decks are identical, spec section 1).
DECK: tuple[str, ...] = RUNE_BOOK.deck()


def catalog_entries() -> list[dict[str, Any]]:
    """The card faces for pages and clients: ``[{"id", "name", "name_ru", "kind", "order", "text",
    "copies"}]`` in catalog order."""
    return [
        {
            "id": r.id,
            "name": r.name,
            "name_ru": r.name_ru,
            "kind": r.kind,
            "order": r.order,
            "text": r.text,
            "copies": r.copies,
        }
        for r in RUNE_BOOK.runes
    ]
