"""Computer levels as players see them (``app/games/core/levels.py``): three per game, easiest
first, named Easy, Medium and Hard; the Medium of a game with one strong algorithm mixes in
random legal actions."""

from __future__ import annotations

import random

import pytest

from app.games.core import all_games, bot_levels
from app.games.core.levels import DIFFICULTIES, casual, difficulty_levels, difficulty_of_levels


@pytest.mark.parametrize("game", sorted(all_games()))
def test_every_game_offers_easy_medium_and_hard(game):
    levels = bot_levels(game)
    assert difficulty_levels(levels) == dict(zip(DIFFICULTIES, levels, strict=True))
    assert levels[0] == "random"


def test_one_level_name_means_one_difficulty_in_every_game():
    names = difficulty_of_levels()
    assert names["random"] == "easy" and names["nash"] == "hard" and names["casual"] == "medium"
    assert set(names.values()) == set(DIFFICULTIES)


def test_a_game_with_two_levels_is_refused():
    with pytest.raises(ValueError):
        difficulty_levels(["random", "expert"])


class _First:
    name = "first"

    def choose(self, observation, legal, rng, budget_ms=50):
        return legal[0]


def test_casual_plays_the_strong_choice_or_a_random_legal_action():
    legal = list(range(10))
    never, always = casual(_First, "never", 0.0)(), casual(_First, "always", 1.0)()
    rng = random.Random(3)
    assert {never.choose({}, legal, rng) for _ in range(50)} == {0}
    assert len({always.choose({}, legal, rng) for _ in range(200)}) > 5
    mixed = casual(_First, "mixed", 0.35)()
    picks = [mixed.choose({}, legal, random.Random(seed)) for seed in range(400)]
    strong_share = picks.count(0) / len(picks)
    assert 0.55 < strong_share < 0.8  # 0.65 + 0.35 / 10 expected
    assert type(mixed).name == "mixed"


def test_casual_leaves_a_choice_it_cannot_list_to_the_strong_bot():
    class Setup:
        name = "setup"

        def choose(self, observation, legal, rng, budget_ms=50):
            return "a whole setup"

    assert casual(Setup, "c", 1.0)().choose({}, [], random.Random(1)) == "a whole setup"


def test_random_share_outside_zero_to_one_is_refused():
    with pytest.raises(ValueError):
        casual(_First, "x", 1.5)
