"""Computer levels as players see them: Easy, Medium and Hard in every game.

Each game registers its bots easiest first (:func:`~.registry.register`); every game has exactly
three, and a player picks them by difficulty (:data:`DIFFICULTIES`), the algorithm's name being
only a tooltip (issue 16: "Computer levels are named nash, expectimax, expert, and a new player
starts against the strongest"). Where a game has one strong algorithm, its Medium level is
:func:`casual`: the strong bot that now and then plays a random legal action instead, as chess
servers weaken an engine by mixing in random moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .rules import JSON, Bot

#: the difficulties, easiest first; a game's bot levels map onto them in order
DIFFICULTIES = ("easy", "medium", "hard")
#: the difficulty a new player's first game is offered at
DEFAULT_DIFFICULTY = "medium"


def casual(strong: Callable[[], Bot], name: str, random_share: float = 0.35) -> type:
    """A bot class that plays like ``strong`` but picks a uniformly random legal action instead
    with probability ``random_share`` (when ``legal`` lists any: a choice a game cannot list, a
    whole hidden setup, is always left to ``strong``).

    :param strong: the factory of the strong bot.
    :param name: the level's name (the class's ``name``).
    :param random_share: the probability, in [0, 1], of a random action at each decision.
    :returns: a class with a no-argument constructor, usable as a bot factory.
    :raises ValueError: ``random_share`` outside [0, 1].
    """
    if not 0.0 <= random_share <= 1.0:
        raise ValueError(f"random_share must be in [0, 1], not {random_share}")

    class Casual:
        __doc__ = f"{name}: the strong bot, with a random legal action {random_share:.0%} of the time."

        def __init__(self) -> None:
            self.strong = strong()

        def choose(
            self, observation: Mapping[str, JSON], legal: Sequence[Any], rng: random.Random, budget_ms: int = 50
        ) -> Any:
            """:returns: a random element of ``legal`` or ``strong``'s choice (see the class)."""
            if legal and rng.random() < random_share:
                return legal[rng.randrange(len(legal))]
            return self.strong.choose(observation, legal, rng, budget_ms)

    Casual.name = name  # type: ignore[attr-defined]
    Casual.__qualname__ = Casual.__name__ = f"Casual[{name}]"
    return Casual


def difficulty_levels(levels: Sequence[str]) -> dict[str, str]:
    """``{"easy": level, "medium": level, "hard": level}`` for a game's bot levels (easiest first).

    :raises ValueError: the game does not have exactly three levels.
    """
    if len(levels) != len(DIFFICULTIES):
        raise ValueError(f"a game offers {len(DIFFICULTIES)} computer levels, easiest first; not {list(levels)}")
    return dict(zip(DIFFICULTIES, levels, strict=True))


def difficulty_of_levels() -> dict[str, str]:
    """Every registered bot level's difficulty, ``{"random": "easy", "nash": "hard", ...}``, which
    the pages use to name a computer seat ("Computer (Hard)") without knowing its game.

    A game that does not offer exactly three levels (a test's toy game) names none.

    :raises ValueError: one level name stands at two difficulties in two games.
    """
    from .registry import all_games, bot_levels

    names: dict[str, str] = {}
    for game in all_games():
        levels = bot_levels(game)
        if len(levels) != len(DIFFICULTIES):
            continue
        for difficulty, level in difficulty_levels(levels).items():
            if names.setdefault(level, difficulty) != difficulty:
                raise ValueError(f"level {level!r} is {names[level]!r} in one game and {difficulty!r} in {game!r}")
    return names
