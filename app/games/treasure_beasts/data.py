"""Treasure Beasts card data: the schema, its effect vocabulary, loading and the set checks
(``rules/treasure_beasts.md`` sections 10, 11 and 15).

The seed has no cards, so the shipped set (``cards.yaml``) is ours. A card follows the spec's
schema (section 15); abilities are data written in a small vocabulary the engine knows:

*Static* effects (passive abilities, group abilities, attach options) hold while their source is on
the field:

==============  =================================================  ===========================
``do``          meaning                                            fields
==============  =================================================  ===========================
``strength``    strength + ``amount`` (may be negative; floor 0)   ``amount``, ``target``
``grant``       gains ``property``                                 ``property``, ``target``
``remove``      loses ``property`` (a removal beats a grant)       ``property``, ``target``
``extra_move``  may move ``amount`` more times per turn            ``amount``, ``target``
``take_bonus``  takes ``amount`` more treasure per take or theft   ``amount``, ``target``
==============  =================================================  ===========================

Static targets: ``self``; ``host`` (attach options: the creature it is attached to; the default
there); ``own`` (every creature of the source's owner); ``enemy`` (every creature of the owner's
opponents); ``group`` (creatures of the source's group: the owner's, or with a group ability of
``scope: all`` every player's).

*One-shot* effects (on-enter, activated and on-leave abilities, alternative uses) happen once:

==========  ======================================================================================
``do``      meaning
==========  ======================================================================================
``gain``    the owner takes ``amount`` treasure from the central pool
``drain``   each opponent not protected by Threat loses ``amount`` treasure to the central pool
``steal``   ``amount`` treasure from the richest opponent not protected by Threat
``draw``    the owner draws ``amount`` cards
``discard`` each opponent discards the ``amount`` cards it drew last
``ap``      the owner gets ``amount`` action points (only during the owner's own turn)
``destroy`` destroys the ``target`` creature (``max_strength``: only if its strength is at most this)
``return``  returns the ``target`` creature to its owner's hand (``max_strength`` as for destroy)
``revive``  puts the newest other creature card of the discard onto the owner's field (its start zone)
``move``    moves the ``target`` one zone ``forward`` (towards Center) or ``back``
``tire``    tires the ``target``
``ready``   readies the ``target``
==========  ======================================================================================

One-shot targets are chosen by rule, never by a player (legal actions stay short): ``self``,
``host``, ``strongest_enemy``, ``weakest_enemy``, ``ready_enemy`` (the strongest ready one) among
the enemy creatures the source may target (Flight and Threat apply, attached creatures excluded),
and ``own_tired`` (the owner's strongest tired creature). Ties go to the lowest creature id.

:func:`load_card_set` raises :class:`CardSetError` listing every schema problem;
:func:`set_problems` lists where a set misses the issue's requirements for a shipped set (tests may
build smaller synthetic sets with :func:`parse_card_set`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, NamedTuple

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

CARDS_FILE = Path(__file__).with_name("cards.yaml")

PROPERTIES: tuple[str, ...] = (
    "flight",
    "jump",
    "threat",
    "interception",
    "theft",
    "carrying_capacity",
    "peacefulness",
    "aggressiveness",
    "stealth",
    "attentiveness",
)
GROUPS: tuple[str, ...] = ("pacifists", "birds", "bloodthirsty", "felines", "attachers")
ZONES: tuple[str, ...] = ("start", "bushes", "center")  #: index = distance from the owner
START, BUSHES, CENTER = range(3)
ZONE_INDEX: Mapping[str, int] = {z: i for i, z in enumerate(ZONES)}
TRIGGERS: tuple[str, ...] = ("on_enter", "activated", "on_leave", "passive")

STATIC_VERBS = frozenset({"strength", "grant", "remove", "extra_move", "take_bonus"})
SHOT_VERBS = frozenset(
    {"gain", "drain", "steal", "draw", "discard", "ap", "destroy", "return", "revive", "move", "tire", "ready"}
)
STATIC_TARGETS = frozenset({"self", "host", "own", "enemy", "group"})
SHOT_TARGETS = frozenset({"self", "host", "strongest_enemy", "weakest_enemy", "ready_enemy", "own_tired"})
_TARGETED = frozenset({"destroy", "return", "move", "tire", "ready"})

Property = Literal[
    "flight",
    "jump",
    "threat",
    "interception",
    "theft",
    "carrying_capacity",
    "peacefulness",
    "aggressiveness",
    "stealth",
    "attentiveness",
]
Group = Literal["pacifists", "birds", "bloodthirsty", "felines", "attachers"]
Zone = Literal["start", "bushes", "center"]
Trigger = Literal["on_enter", "activated", "on_leave", "passive"]


class CardSetError(ValueError):
    """A card set does not fit the schema; the message names the source and every problem."""


class Effect(BaseModel):
    """One effect of the vocabulary above (module docstring); which fields it takes depends on ``do``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    do: str
    amount: int = 1
    target: str | None = None
    property: Property | None = None
    max_strength: int | None = Field(default=None, ge=0)
    direction: Literal["forward", "back"] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Effect:
        do = self.do
        if do not in STATIC_VERBS | SHOT_VERBS:
            raise ValueError(f"unknown effect {do!r}; known: {sorted(STATIC_VERBS | SHOT_VERBS)}")
        if (self.property is not None) != (do in ("grant", "remove")):
            raise ValueError(f"{do}: 'property' is for grant and remove only, and they need it")
        if (self.direction is not None) != (do == "move"):
            raise ValueError(f"{do}: 'direction' is for move only, and move needs it")
        if self.max_strength is not None and do not in ("destroy", "return"):
            raise ValueError(f"{do}: 'max_strength' is for destroy and return only")
        if do == "strength":
            if self.amount == 0:
                raise ValueError("strength: amount is never 0")
        elif not 1 <= self.amount <= 6:
            raise ValueError(f"{do}: amount must be 1..6, got {self.amount}")
        if do in STATIC_VERBS:
            if self.target is not None and self.target not in STATIC_TARGETS:
                raise ValueError(f"{do}: static target must be one of {sorted(STATIC_TARGETS)}")
        elif do in _TARGETED:
            if self.target not in SHOT_TARGETS:
                raise ValueError(f"{do}: needs a target among {sorted(SHOT_TARGETS)}")
        elif self.target is not None:
            raise ValueError(f"{do}: takes no target")
        return self


Effects = tuple[Effect, ...]


def _all(effects: Effects, static: bool, where: str) -> None:
    if not effects:
        raise ValueError(f"{where}: needs at least one effect")
    for e in effects:
        if (e.do in STATIC_VERBS) != static:
            kind = "static" if static else "one-shot"
            raise ValueError(f"{where}: effect {e.do!r} is not a {kind} effect")


class Ability(BaseModel):
    """A personal ability (section 11.1): one trigger and its effects (static for ``passive``,
    one-shot for the others)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    trigger: Trigger
    effects: Effects
    text: str = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> Ability:
        _all(self.effects, self.trigger == "passive", self.trigger)
        if self.trigger == "passive" and any(e.target == "group" for e in self.effects):
            raise ValueError("passive: target 'group' means the owner's creatures of the card's group")
        return self


class GroupAbility(BaseModel):
    """A group ability (section 11.2): static effects, active while the owner has at least
    ``required_count`` creatures of the card's group on the field (the card itself included)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    required_count: int = Field(ge=2, le=6)
    scope: Literal["own", "all"] = "own"
    effects: Effects
    text: str = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> GroupAbility:
        _all(self.effects, True, "group_ability")
        for e in self.effects:
            if (e.target or "group") not in ("group", "own", "self"):
                raise ValueError("group_ability: targets are group, own or self")
        return self


class Cost(BaseModel):
    """The extra cost of an alternative use, beyond its base 1 AP (AMBIGUITY 10)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ap: int = Field(default=0, ge=0, le=1)
    treasure: int = Field(default=0, ge=0, le=6)


class AlternativeUse(BaseModel):
    """Play from hand for 1 AP plus ``extra_cost``: discard the card and resolve ``effects`` (5.3)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    extra_cost: Cost = Cost()
    effects: Effects
    text: str = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> AlternativeUse:
        _all(self.effects, False, "alternative_use")
        return self


class AttachOption(BaseModel):
    """May be attached to a creature of ``hosts`` instead of being deployed (5.2); ``effects`` are
    static modifiers of the host."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    hosts: Literal["own", "opponent", "any"]
    effects: Effects
    text: str = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> AttachOption:
        _all(self.effects, True, "attach_option")
        if any(e.target not in (None, "host") for e in self.effects):
            raise ValueError("attach_option: effects act on the host")
        return self


class Card(BaseModel):
    """One creature card (the spec's schema, section 15), plus ``copies`` in the deck and flavour."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    #: the card's own name, in the game's original language (Ukrainian, like its rulebook)
    name: str = Field(min_length=1)
    #: the name's translations beside it, by language code (``{"en": ..., "cs": ...}``, docs/i18n.md)
    names: dict[str, str] = Field(default_factory=dict)
    group: Group
    strength: int = Field(ge=0, le=9)
    start_position: Zone
    properties: tuple[Property, ...] = ()
    group_ability: GroupAbility | None = None
    personal_abilities: tuple[Ability, ...] = ()
    alternative_use: AlternativeUse | None = None
    attach_option: AttachOption | None = None
    copies: int = Field(default=1, ge=1, le=4)
    flavour: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> Card:
        if len(set(self.properties)) != len(self.properties):
            raise ValueError("a property is listed twice")
        if sum(a.trigger == "activated" for a in self.personal_abilities) > 1:
            raise ValueError("at most one activated ability per card")
        if self.attach_option is None and any(e.target == "host" for a in self.personal_abilities for e in a.effects):
            raise ValueError("target 'host' needs an attach option")
        return self

    def abilities(self, trigger: str) -> tuple[Ability, ...]:
        """The personal abilities with ``trigger``."""
        return tuple(a for a in self.personal_abilities if a.trigger == trigger)


class CardSet(BaseModel):
    """A whole card set: distinct ids; the deck holds ``copies`` of each card."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cards: tuple[Card, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> CardSet:
        ids = Counter(c.id for c in self.cards)
        dupes = sorted(i for i, n in ids.items() if n > 1)
        if dupes:
            raise ValueError(f"duplicate card ids: {dupes}")
        return self

    def deck(self) -> tuple[str, ...]:
        """The full deck as card ids, in catalog order."""
        return tuple(c.id for c in self.cards for _ in range(c.copies))


class Stats(NamedTuple):
    """A creature's current values (:func:`~.properties.derive`): ``strength`` (>= 0), ``props``
    (property ids), ``moves`` allowed per turn, ``take_bonus`` (extra treasure per take or theft)."""

    strength: int
    props: frozenset[str]
    moves: int
    take_bonus: int


class CardBook:
    """A validated set with the lookups the engine uses: ``cards[id]``, ``deck``, ``order[id]``,
    and per card the values :func:`~.properties.derive` starts from (``base_props``: printed
    properties, plus Carrying Capacity for Pacifists, AMBIGUITY 13; ``passive``: the static effects
    of its passive abilities; ``has_static``: it has passive, attach or group effects;
    ``activated``: it has an activated ability; ``base_stats``: its :class:`Stats` before effects;
    ``group_of``: its group)."""

    __slots__ = (
        "activated",
        "base_props",
        "base_stats",
        "card_set",
        "cards",
        "deck",
        "group_of",
        "has_static",
        "order",
        "passive",
    )

    def __init__(self, card_set: CardSet) -> None:
        self.card_set = card_set
        self.cards: Mapping[str, Card] = {c.id: c for c in card_set.cards}
        self.order: Mapping[str, int] = {c.id: i for i, c in enumerate(card_set.cards)}
        self.deck: tuple[str, ...] = card_set.deck()
        self.group_of: Mapping[str, str] = {c.id: c.group for c in card_set.cards}
        self.base_props: Mapping[str, frozenset[str]] = {
            c.id: frozenset(c.properties) | ({"carrying_capacity"} if c.group == "pacifists" else frozenset())
            for c in card_set.cards
        }
        self.passive: Mapping[str, Effects] = {
            c.id: tuple(e for a in c.abilities("passive") for e in a.effects) for c in card_set.cards
        }
        self.base_stats: Mapping[str, Stats] = {
            c.id: Stats(c.strength, self.base_props[c.id], 1, 0) for c in card_set.cards
        }
        self.activated: frozenset[str] = frozenset(c.id for c in card_set.cards if c.abilities("activated"))
        self.has_static: frozenset[str] = frozenset(
            c.id
            for c in card_set.cards
            if self.passive[c.id] or c.attach_option is not None or c.group_ability is not None
        )


def _problems(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}" for err in exc.errors())


def parse_card_set(raw: Any, source: str = "<data>") -> CardBook:
    """Validate an already-parsed set ``{"cards": [...]}``.

    :raises CardSetError: naming ``source`` and every schema problem.
    """
    try:
        return CardBook(CardSet.model_validate(raw))
    except ValidationError as exc:
        raise CardSetError(f"invalid card set {source}: {_problems(exc)}") from None


def load_card_set(path: str | Path = CARDS_FILE, strict: bool = True) -> CardBook:
    """Read and validate a card file.

    :param strict: also require the shipped set's requirements (:func:`set_problems`).
    :raises CardSetError: unreadable YAML, schema problems, or (strict) missed requirements.
    """
    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise CardSetError(f"cannot read card file {path}: {exc}") from None
    book = parse_card_set(raw, str(path))
    if strict:
        problems = set_problems(book)
        if problems:
            raise CardSetError(f"card set {path} misses requirements: {'; '.join(problems)}")
    return book


#: What a shipped set must hold (issue 11): cards, per group, per property, per trigger, ...
MIN_CARDS, MIN_PER_GROUP, MIN_PER_PROPERTY, MIN_PER_TRIGGER, MIN_ATTACH, MIN_ALT = 40, 6, 3, 4, 6, 6
MIN_DECK = 6 * 6 + 12  #: six players' draft plus a dozen draws


def set_problems(book: CardBook) -> list[str]:
    """Every way ``book`` misses the shipped set's requirements (empty when it meets them all)."""
    cards = book.card_set.cards
    out: list[str] = []
    if len(cards) < MIN_CARDS:
        out.append(f"{len(cards)} cards, need {MIN_CARDS}")
    if len(book.deck) < MIN_DECK:
        out.append(f"deck of {len(book.deck)}, need {MIN_DECK}")
    for group in GROUPS:
        members = [c for c in cards if c.group == group]
        if len(members) < MIN_PER_GROUP:
            out.append(f"group {group}: {len(members)} cards, need {MIN_PER_GROUP}")
        if not any(c.group_ability for c in members):
            out.append(f"group {group}: no group ability")
    for prop in PROPERTIES:
        n = sum(prop in c.properties for c in cards)
        if n < MIN_PER_PROPERTY:
            out.append(f"property {prop}: {n} cards, need {MIN_PER_PROPERTY}")
    for trigger in TRIGGERS:
        n = sum(bool(c.abilities(trigger)) for c in cards)
        if n < MIN_PER_TRIGGER:
            out.append(f"trigger {trigger}: {n} cards, need {MIN_PER_TRIGGER}")
    if (n := sum(c.attach_option is not None for c in cards)) < MIN_ATTACH:
        out.append(f"{n} cards attach, need {MIN_ATTACH}")
    if (n := sum(c.alternative_use is not None for c in cards)) < MIN_ALT:
        out.append(f"{n} cards have an alternative use, need {MIN_ALT}")
    for zone in ZONES:
        if not any(c.start_position == zone for c in cards):
            out.append(f"no card starts in {zone}")
    return out


def catalog_entries(book: CardBook) -> list[dict[str, Any]]:
    """The card faces for pages and clients, in catalog order: each card as its schema's JSON
    (``{"id", "name", "names", "group", "strength", "start_position", "properties", "group_ability",
    "personal_abilities", "alternative_use", "attach_option", "copies", "flavour"}``)."""
    return [c.model_dump(mode="json", exclude_none=True) for c in book.card_set.cards]
