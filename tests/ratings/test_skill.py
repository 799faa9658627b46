"""The rating math against OpenSkill's published examples, the displayed scale, the provisional
mark, ladder points and the pools (app/ratings/skill.py, app/ratings/pools.py)."""

from __future__ import annotations

import pytest

from app.ratings import skill
from app.ratings.pools import all_pools, get_pool, pool_of


def test_the_published_two_teams_example():
    """openskill 6.x README ("Usage"): two teams of two new players; the first wins."""
    new = skill.Skill()
    [[a, b], [x, y]] = skill.rate([[new, new], [new, new]], [1, 2])
    assert a.mu == pytest.approx(26.964294621803063, abs=1e-12)
    assert a.sigma == pytest.approx(8.177962604389991, abs=1e-12)
    assert x.mu == pytest.approx(23.035705378196937, abs=1e-12)
    assert x.sigma == pytest.approx(8.177962604389991, abs=1e-12)
    assert a == b and x == y


def test_a_new_player_starts_provisional_at_1500():
    new = skill.Skill()
    assert (new.mu, new.sigma) == (25.0, 25 / 3)
    assert new.rating == 1500 and new.deviation == 500 and new.provisional


def test_a_two_seat_win_moves_both_ratings_by_the_same_amount():
    [[w], [lo]] = skill.rate([[skill.Skill()], [skill.Skill()]], [1, 2])
    assert w.rating > 1500 > lo.rating
    assert w.rating - 1500 == 1500 - lo.rating
    assert w.sigma < skill.START_SIGMA


def test_an_upset_moves_more_than_an_expected_win():
    strong, weak = skill.Skill(mu=30, sigma=4), skill.Skill(mu=20, sigma=4)
    [[s1], _] = skill.rate([[strong], [weak]], [1, 2])
    _, [w2] = skill.rate([[strong], [weak]], [2, 1])
    assert w2.mu - weak.mu > s1.mu - strong.mu > 0


def test_a_draw_between_equals_keeps_the_means_equal():
    [[a], [b]] = skill.rate([[skill.Skill()], [skill.Skill()]], [1, 1])
    assert a.mu == pytest.approx(b.mu) == pytest.approx(25.0)
    assert a.sigma < skill.START_SIGMA


def test_four_seats_rank_in_order():
    players = [[skill.Skill()] for _ in range(4)]
    after = skill.rate(players, [1, 2, 3, 4])
    mus = [team[0].mu for team in after]
    assert mus == sorted(mus, reverse=True) and mus[0] > 25 > mus[-1]


def test_the_mark_goes_after_about_a_dozen_matches():
    a, b = skill.Skill(), skill.Skill()
    games = 0
    while a.provisional:
        [[a], [b]] = skill.rate([[a], [b]], [1 + games % 2, 2 - games % 2])
        games += 1
    assert 8 <= games <= 16


def test_bad_teams_are_refused():
    with pytest.raises(ValueError):
        skill.rate([[skill.Skill()]], [1])
    with pytest.raises(ValueError):
        skill.rate([[skill.Skill()], []], [1, 2])
    with pytest.raises(ValueError):
        skill.rate([[skill.Skill()], [skill.Skill()]], [1])


def test_ladder_points():
    even = skill.win_probability(skill.Skill(), skill.Skill())
    assert even == pytest.approx(0.5)
    assert skill.win_points(even, 0) == 10
    stronger = skill.win_probability(skill.Skill(mu=20), skill.Skill(mu=30))
    weaker = skill.win_probability(skill.Skill(mu=30), skill.Skill(mu=20))
    assert skill.win_points(stronger, 0) > 10 > skill.win_points(weaker, 0) >= 1
    assert [skill.win_points(even, k) for k in range(5)] == [10, 5, 2, 1, 1]


def test_pools():
    assert pool_of("stratego_junior", {"variant": "quest"}).key == "stratego_junior.quest"
    assert pool_of("stratego_junior", {"variant": "victory"}).key == "stratego_junior.victory"
    assert pool_of("stratego_junior", {}).key == "stratego_junior.victory"
    assert [pool_of("scratch_wars", {"level": n}).key for n in (1, 2, 3)] == [
        "scratch_wars.l1",
        "scratch_wars.l2",
        "scratch_wars.l3",
    ]
    assert pool_of("battle_runes", {"rated": True}).key == "battle_runes"
    assert pool_of("fantasy_duel", {}).key == "fantasy_duel"
    assert pool_of("treasure_beasts", {}).key == "treasure_beasts"
    assert pool_of("tally_test", {}) is None
    assert pool_of("scratch_wars", {"level": 9}) is None
    keys = [p.key for p in all_pools()]
    assert len(keys) == len(set(keys)) == 8
    assert all(get_pool(k) is not None for k in keys) and get_pool("chess") is None
