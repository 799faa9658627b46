"""Scratch Wars loadouts (``rules/scratch_wars.md`` section 3.1): checking a hero and its weapons,
saved loadouts (decks), the "quick random" draw, and the two loadout phases.

``loadout``: both seats choose at the same time (each choice hidden until both chose) a hero and
1-5 weapons, or "random". ``draw_loadouts``: chance draws the loadouts asked for with "random" (or
both, with the option ``random_loadouts``); the draw is public. Then the start spin follows
(:mod:`.start`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from ..core.errors import BadAction, IllegalAction
from ..core.rules import JSON
from .actions import RANDOM_LOADOUT, DrawnLoadouts, Loadout, RandomLoadout, ScratchAction
from .data import CardBook
from .events import Events, emit
from .state import DRAW_LOADOUTS, GAME, MAX_WEAPONS, START_SPIN, START_WEAPON, Seat, Slot, State, evolve


def check_loadout(book: CardBook, hero: JSON, weapons: JSON, level: int = 3) -> tuple[str, tuple[str, ...]]:
    """Check a hero and its weapons (section 3.1).

    :returns: ``(hero, weapons)`` in normal form.
    :raises BadAction: with its ``reason``: an unknown hero (``unknown_hero``: ``hero``), weapons
        not a list of codes (``shape``), not 1-5 weapons (``weapon_count``: ``min``, ``max``,
        ``count``), an unknown weapon (``unknown_weapon``: ``weapons``, the unknown codes), or
        (level >= 2) a weapon name twice (``weapon_twice``: ``names``; "kind means the same weapon
        name, not the weapon type"; level 1 allows the same weapon twice).
    """
    if not isinstance(hero, str) or hero not in book.hero_rows:
        raise BadAction(
            f"{GAME}: unknown hero {hero!r}; heroes are {list(book.hero_codes)}",
            reason="unknown_hero",
            params={"hero": hero if isinstance(hero, str) else repr(hero)},
        )
    if not isinstance(weapons, list | tuple) or not all(isinstance(w, str) for w in weapons):
        raise BadAction(f"{GAME}: weapons must be a list of weapon codes, got {weapons!r}", reason="shape")
    if not 1 <= len(weapons) <= MAX_WEAPONS:
        raise BadAction(
            f"{GAME}: a hero carries 1 to {MAX_WEAPONS} weapons, not {len(weapons)}",
            reason="weapon_count",
            params={"min": 1, "max": MAX_WEAPONS, "count": len(weapons)},
        )
    unknown = [w for w in weapons if w not in book.weapon_rows]
    if unknown:
        raise BadAction(
            f"{GAME}: unknown weapon code(s) {unknown}", reason="unknown_weapon", params={"weapons": unknown}
        )
    if level >= 2:
        names = [book.weapon_rows[w].name for w in weapons]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise BadAction(
                f"{GAME}: a hero may carry each weapon name only once; twice: {twice}",
                reason="weapon_twice",
                params={"names": twice},
            )
    return hero, tuple(weapons)


def loadout_ok(book: CardBook, action: ScratchAction, level: int) -> bool:
    """Whether ``action`` is a loadout choice valid at ``level``: "random", or a :class:`Loadout`
    that :func:`check_loadout` accepts."""
    if isinstance(action, RandomLoadout):
        return True
    if not isinstance(action, Loadout):
        return False
    try:
        check_loadout(book, action.hero, action.weapons, level)
    except BadAction:
        return False
    return True


def validate_deck(book: CardBook, data: JSON) -> dict[str, JSON]:
    """Check a saved loadout ``{"hero": code, "weapons": [codes]}`` (also accepted wrapped as
    ``{"loadout": {...}}``) with the level-2/3 rule of one weapon per kind.

    :returns: the normal form ``{"hero": code, "weapons": [codes]}``.
    :raises BadAction: not that shape (``reason`` ``shape``), an unknown hero or weapon, not 1-5
        weapons, a kind twice (``reason`` as :func:`check_loadout`).
    """
    if isinstance(data, dict) and set(data) == {"loadout"}:
        data = data["loadout"]
    if not isinstance(data, dict) or set(data) != {"hero", "weapons"}:
        raise BadAction(f"{GAME}: a loadout is {{'hero': code, 'weapons': [codes]}}, got {data!r}", reason="shape")
    hero, weapons = check_loadout(book, data["hero"], data["weapons"], 3)
    return {"hero": hero, "weapons": list(weapons)}


def deck_schema(book: CardBook) -> dict[str, JSON]:
    """The JSON Schema of a saved loadout (:func:`validate_deck`): a hero and 1-5 weapons by code,
    or that object wrapped as ``{"loadout": ...}``. One weapon per kind is the one rule JSON Schema
    cannot state (two codes of one kind are different items of an enum)."""
    loadout: dict[str, JSON] = {
        "type": "object",
        "required": ["hero", "weapons"],
        "additionalProperties": False,
        "properties": {
            "hero": {"enum": list(book.hero_codes)},
            "weapons": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_WEAPONS,
                "items": {"enum": list(book.weapon_codes)},
            },
        },
    }
    wrapped: JSON = {
        "type": "object",
        "required": ["loadout"],
        "additionalProperties": False,
        "properties": {"loadout": loadout},
    }
    return {"anyOf": [loadout, wrapped]}


def random_loadout(book: CardBook, rng: random.Random) -> Loadout:
    """A "quick random" loadout: a random hero and 5 different weapons, of the hero's own types
    first (shuffled), topped up with other types (valid at every level)."""
    hero = book.hero_codes[rng.randrange(len(book.hero_codes))]
    mask = book.hero_rows[hero].types
    own = [w for w in book.weapon_codes if mask >> book.weapon_rows[w].type & 1]
    other = [w for w in book.weapon_codes if not mask >> book.weapon_rows[w].type & 1]
    rng.shuffle(own)
    rng.shuffle(other)
    return Loadout(hero, tuple((own + other)[:MAX_WEAPONS]))


def choices(book: CardBook, st: State, seat: int) -> list[ScratchAction]:
    """The loadout choices listed for a seat: "random" and each hero with its suggested weapons
    (any valid loadout is accepted, see :func:`loadout_ok`)."""
    return [RANDOM_LOADOUT, *(Loadout(h, book.starter_loadout(h)) for h in book.hero_codes)]


def new_seat(book: CardBook, loadout: Loadout) -> Seat:
    """A seat at the start: the hero's duel lives, no energy, every weapon ready."""
    return Seat(loadout.hero, book.hero_rows[loadout.hero].lives, 0, tuple(Slot(w) for w in loadout.weapons))


def choose(book: CardBook, st: State, actions: Mapping[int, ScratchAction], ev: Events) -> State:
    """Both seats' loadout choices, applied together.

    :raises IllegalAction: a choice that is not a valid loadout at the match's level.
    """
    level = st.config.level
    seats: list[Seat | None] = [None, None]
    randoms = []
    for seat in (0, 1):
        action = actions[seat]
        if isinstance(action, RandomLoadout):
            randoms.append(seat)
        elif isinstance(action, Loadout) and loadout_ok(book, action, level):
            seats[seat] = new_seat(book, action)
        else:
            raise IllegalAction(f"{GAME}: seat {seat}: {action!r} is not a valid loadout")
    if randoms:
        return evolve(st, seats=(seats[0], seats[1]), phase=DRAW_LOADOUTS, random_seats=tuple(randoms))
    return _revealed(evolve(st, seats=(seats[0], seats[1])), ev)


def draw(book: CardBook, rng: random.Random, st: State) -> DrawnLoadouts:
    """Chance: a random loadout for every seat in ``st.random_seats``."""
    return DrawnLoadouts(tuple((seat, random_loadout(book, rng)) for seat in st.random_seats))


def drawn(book: CardBook, st: State, action: DrawnLoadouts, ev: Events) -> State:
    """Apply the drawn loadouts.

    :raises IllegalAction: not exactly the seats waiting for a draw, or an invalid loadout.
    """
    if sorted(seat for seat, _ in action.loadouts) != sorted(st.random_seats):
        raise IllegalAction(f"{GAME}: expected loadouts for seats {list(st.random_seats)}")
    seats = list(st.seats)
    for seat, loadout in action.loadouts:
        if not loadout_ok(book, loadout, st.config.level):
            raise IllegalAction(f"{GAME}: drawn loadout {loadout.hero!r} {loadout.weapons!r} is not valid")
        seats[seat] = new_seat(book, loadout)
    return _revealed(evolve(st, seats=(seats[0], seats[1])), ev)


def _revealed(st: State, ev: Events) -> State:
    """Both loadouts are known: reveal them; the start spin follows (a choice of start weapon
    first, unless both carry one weapon)."""
    a, b = st.seat(0), st.seat(1)
    if ev is not None:
        emit(
            ev,
            "loadouts_revealed",
            heroes=[a.hero, b.hero],
            weapons=[[sl.weapon for sl in s.slots] for s in (a, b)],
            random=list(st.random_seats),
        )
    if len(a.slots) == 1 and len(b.slots) == 1:
        return evolve(st, random_seats=(), phase=START_SPIN, start=(0, 0, -1, -1))
    return evolve(st, random_seats=(), phase=START_WEAPON)
