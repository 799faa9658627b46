"""The pure pairing modules: Swiss (FIDE Dutch, through py4swiss), round robin (Berger tables),
knockout (seeded brackets)."""

from __future__ import annotations

import itertools
import random

import pytest

from app.tournaments.pairing import Board, knockout, round_robin, swiss


def _play_swiss(players: int, rounds: int, rng: random.Random) -> list[Board]:
    """A whole Swiss with random results (some draws), every round paired from the ones before."""
    boards: list[Board] = []
    for r in range(1, rounds + 1):
        for a, b in swiss.pair_round(players, rounds, boards):
            result = "bye" if b is None else rng.choice(["1-0", "0-1", "1/2"])
            boards.append(Board(r, a, b, result))
    return boards


@pytest.mark.parametrize("players", [5, 8, 13])
@pytest.mark.parametrize("seed", range(8))
def test_swiss_never_repeats_a_pairing_and_gives_at_most_one_bye(players, seed):
    rounds = swiss.recommended_rounds(players)  # the full number: 3, 3 and 4 rounds
    boards = _play_swiss(players, rounds, random.Random(seed))
    games = [frozenset((b.first, b.second)) for b in boards if b.second is not None]
    assert len(games) == len(set(games)), "a pairing was repeated"
    byes = [b.first for b in boards if b.second is None]
    assert len(byes) == len(set(byes)) == rounds * (players % 2)
    for r in range(1, rounds + 1):  # everybody plays once per round
        seen = [p for b in boards if b.round == r for p in (b.first, b.second) if p is not None]
        assert sorted(seen) == list(range(1, players + 1))
    for p in range(1, players + 1):  # colours: never three in a row, difference within 2
        colours = [
            1 if b.first == p else -1
            for b in sorted(boards, key=lambda b: b.round)
            if b.second and p in (b.first, b.second)
        ]
        assert abs(sum(colours)) <= 2
        assert all(abs(sum(colours[i : i + 3])) < 3 for i in range(len(colours) - 2))


def test_swiss_round_one_is_top_half_against_bottom_half_with_alternating_colours():
    """FIDE C.04.3 (Dutch), A.2 and E: round 1 pairs the top half against the bottom half by
    starting number (1-5, 2-6, ...), the top seed White (the ``white1`` lot) and colours
    alternating board by board; with an odd field the last player gets the bye (A.5, C.04.1.c)."""
    assert swiss.pair_round(8, 3, []) == [(1, 5), (6, 2), (3, 7), (8, 4)]
    assert swiss.pair_round(13, 4, []) == [(1, 7), (8, 2), (3, 9), (10, 4), (5, 11), (12, 6), (13, None)]


def test_swiss_later_rounds_match_the_dutch_rules_worked_by_hand():
    """Rounds 2 and 3 of 8 players where the lower starting number always wins, worked by hand
    from C.04.3: round 2's score groups {1,2,3,4} and {5,6,7,8} pair S1 against S2, and the
    transposition 1-4, 2-3 is taken because it gives every player their colour preference
    (criterion C.12 before the S2 order); round 3 pairs the 2-point group 1-2, the 1-point group
    3-5 and 4-6 (colours: 3 and 6 are due White), and 7-8."""
    boards: list[Board] = []
    expected = [
        [(1, 5), (6, 2), (3, 7), (8, 4)],
        [(4, 1), (2, 3), (5, 8), (7, 6)],
        [(1, 2), (3, 5), (6, 4), (8, 7)],
    ]
    for r, want in enumerate(expected, start=1):
        got = swiss.pair_round(8, 3, boards)
        assert got == want
        boards += [Board(r, a, b, "1-0" if a < b else "0-1") for a, b in got if b is not None]


def test_swiss_leaves_out_a_withdrawn_player():
    boards = [Board(1, a, b, "1-0") for a, b in swiss.pair_round(6, 3, [])]
    pairs = swiss.pair_round(6, 3, boards, withdrawn={2})
    assert all(2 not in p for p in pairs) and sum(1 for _a, b in pairs if b is None) == 1


def test_swiss_with_no_legal_pairing_says_so():
    boards = [Board(1, 1, 2, "1-0")]
    with pytest.raises(swiss.SwissPairingError):
        swiss.pair_round(2, 2, boards)


BERGER_4 = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
BERGER_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]


def test_round_robin_reproduces_the_published_berger_tables():
    """FIDE Handbook C.05, Annex 1: the Berger tables for 3-4 and 5-6 players."""
    assert round_robin.schedule(4) == BERGER_4
    assert round_robin.schedule(6) == BERGER_6
    # an odd field: the player who would meet the dummy (6) rests
    assert round_robin.schedule(5)[0] == [(2, 5), (3, 4), (1, None)]


@pytest.mark.parametrize("players", range(2, 15))
def test_round_robin_schedules_every_pair_once(players):
    rounds = round_robin.schedule(players)
    assert len(rounds) == round_robin.rounds_needed(players)
    games = [frozenset(p) for rnd in rounds for p in rnd if p[1] is not None]
    assert sorted(map(sorted, games)) == sorted(
        map(sorted, map(frozenset, itertools.combinations(range(1, players + 1), 2)))
    )
    for rnd in rounds:
        seen = [x for p in rnd for x in p if x is not None]
        assert sorted(seen) == list(range(1, players + 1))
    double = round_robin.schedule(players, double=True)
    assert len(double) == 2 * len(rounds)
    assert double[len(rounds)][0] == (rounds[0][0][1], rounds[0][0][0]) or rounds[0][0][1] is None


def test_knockout_bracket_of_sixteen_is_the_standard_one():
    assert knockout.first_round(16) == [(1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)]


@pytest.mark.parametrize("players", range(5, 17))
def test_knockout_brackets_give_byes_to_the_top_seeds_and_end_with_one_winner(players):
    first = knockout.first_round(players)
    size = 1 << knockout.rounds_needed(players)
    assert len(first) == size // 2
    byes = sorted(a for a, b in first if b is None)
    assert byes == list(range(1, size - players + 1))  # the top seeds
    assert sorted(x for p in first for x in p if x is not None) == list(range(1, players + 1))
    # the favourite always wins: the last four are the top four, the final 1 v 2
    boards = [Board(1, a, b, "bye" if b is None else "1-0" if a < b else "0-1") for a, b in first]
    winners = [knockout.winner(b) for b in boards]
    r = 1
    while len(winners) > 1:
        r += 1
        if len(winners) == 4:
            assert sorted(winners) == [1, 2, 3, 4]
        pairs = knockout.next_round(winners)
        if len(pairs) == 1:
            assert sorted(pairs[0]) == [1, 2]
        winners = [knockout.winner(Board(r, a, b, "1-0" if a < b else "0-1")) for a, b in pairs]
    assert winners == [1] and r == knockout.rounds_needed(players)


def test_a_drawn_knockout_board_sends_the_higher_seed_through():
    assert knockout.winner(Board(2, 6, 3, "1/2")) == 3
