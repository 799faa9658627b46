"""Rating pools, defined in one place: which matches are rated together.

A pool is a game and, where it changes the play, its variant or level (issue 12, item 1):

==============================  ==============================================
``battle_runes``                Battle Runes (one pool)
``stratego_junior.quest``       Stratego Junior, Quest
``stratego_junior.victory``     Stratego Junior, Victory
``scratch_wars.l1`` .. ``.l3``  Scratch Wars, per level
``fantasy_duel``                Fantasy súboj (2-8 seats, teams)
``treasure_beasts``             Treasure Beasts (2-6 seats)
==============================  ==============================================

A pool key is at most :data:`POOL_MAX` characters, letters, digits, ``_`` and ``.`` only (it appears
in URLs: ``/ladders/<pool>``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: longest pool key (the ``pool`` columns are this wide)
POOL_MAX = 40
POOL_PATTERN = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)?$")


@dataclass(frozen=True, slots=True)
class Pool:
    """One rating pool: ``key`` (``"stratego_junior.quest"``), its ``game`` id and the ``part`` of
    the game it covers (``{"variant": "quest"}``, ``{"level": 2}`` or ``{}``), which the pages name
    in their own words."""

    key: str
    game: str
    part: Mapping[str, Any]


#: the option that splits a game into pools, with the value a match has when it does not say
_SPLIT: dict[str, tuple[str, Any]] = {
    "stratego_junior": ("variant", "victory"),
    "scratch_wars": ("level", 3),
}
#: the values each split option may take (anything else is not a pool)
_VALUES: dict[str, tuple[Any, ...]] = {"stratego_junior": ("quest", "victory"), "scratch_wars": (1, 2, 3)}
_ONE_POOL = ("battle_runes", "fantasy_duel", "treasure_beasts")


def _key(game: str, value: Any) -> str:
    return f"{game}.l{value}" if game == "scratch_wars" else f"{game}.{value}"


def all_pools() -> list[Pool]:
    """Every pool, in the order the pages list them."""
    pools: list[Pool] = []
    for game in ("battle_runes", "stratego_junior", "scratch_wars", "fantasy_duel", "treasure_beasts"):
        if game in _SPLIT:
            option = _SPLIT[game][0]
            pools.extend(Pool(_key(game, v), game, {option: v}) for v in _VALUES[game])
        else:
            pools.append(Pool(game, game, {}))
    return pools


_BY_KEY = {p.key: p for p in all_pools()}


def get_pool(key: str) -> Pool | None:
    """The pool named ``key``, or ``None`` when there is none."""
    return _BY_KEY.get(key)


def pool_of(game: str, options: Mapping[str, Any]) -> Pool | None:
    """The pool a match of ``game`` with ``options`` (its stored options) is rated in, or ``None``
    for a game no pool covers (a test game, a game added since).

    >>> pool_of("stratego_junior", {"variant": "quest", "rated": True}).key
    'stratego_junior.quest'
    >>> pool_of("scratch_wars", {}).key
    'scratch_wars.l3'
    """
    if game in _ONE_POOL:
        return _BY_KEY[game]
    split = _SPLIT.get(game)
    if split is None:
        return None
    option, default = split
    return _BY_KEY.get(_key(game, options.get(option, default)))
