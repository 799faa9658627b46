"""Tie-breaks worked by hand on small tables (:mod:`app.tournaments.standings`)."""

from __future__ import annotations

from app.tournaments.pairing import Board
from app.tournaments.standings import knockout_table, points_table


def test_round_robin_ties_go_to_sonneborn_berger_then_the_direct_encounter():
    # 4 players, one round robin: 1 beat 2, 2 beat 3, 3 beat 1 (a cycle), all beat 4 except a draw 1-4
    boards = [
        Board(1, 1, 4, "1/2"),
        Board(1, 2, 3, "1-0"),
        Board(2, 4, 3, "0-1"),
        Board(2, 1, 2, "1-0"),
        Board(3, 2, 4, "1-0"),
        Board(3, 3, 1, "1-0"),
    ]
    table = points_table(4, boards, swiss=False)
    # points: 1: 0.5+1+0 = 1.5, 2: 1+0+1 = 2, 3: 0+1+1 = 2, 4: 0.5
    # Sonneborn-Berger: 2 beat 3 (2) and 4 (0.5) = 2.5; 3 beat 4 (0.5) and 1 (1.5) = 2
    assert [(s.number, s.points, s.sonneborn_berger) for s in table] == [
        (2, 2, 2.5),
        (3, 2, 2.0),
        (1, 1.5, 1 * 2 + 0.5 * 0.5),
        (4, 0.5, 0.5 * 1.5),
    ]
    assert [s.buchholz for s in table] == [None] * 4


def test_the_direct_encounter_separates_players_equal_on_everything_before():
    """A 5-player round robin, every game decisive (winner first):
    1>2, 1>4, 1>5, 3>1 | 2>5, 2>3, 4>2 | 3>4, 5>3 | 4>5.
    Points 1: 3, 2: 2, 3: 2, 4: 2, 5: 1. Sonneborn-Berger: 3 beat 4 and 1 (2 + 3 = 5); 2 beat 5 and 3
    (1 + 2 = 3); 4 beat 5 and 2 (1 + 2 = 3). 2 and 4 are equal on points and S-B; 4 beat 2."""
    wins = [(1, 2), (1, 4), (1, 5), (3, 1), (2, 5), (2, 3), (4, 2), (3, 4), (5, 3), (4, 5)]
    boards = [Board(i // 2 + 1, a, b, "1-0") for i, (a, b) in enumerate(wins)]
    table = points_table(5, boards, swiss=False)
    assert [(s.number, s.points, s.sonneborn_berger, s.direct) for s in table] == [
        (1, 3, 5, 0),
        (3, 2, 5, 0),
        (4, 2, 3, 1),
        (2, 2, 3, 0),
        (5, 1, 2, 0),
    ]


def test_the_direct_encounter_decides_a_full_tie():
    # 1 and 2 drew each other's opponents identically; 2 beat 1
    boards = [
        Board(1, 1, 3, "1-0"),
        Board(1, 2, 4, "1-0"),
        Board(2, 2, 1, "1-0"),
        Board(2, 3, 4, "1/2"),
        Board(3, 1, 4, "1-0"),
        Board(3, 3, 2, "1-0"),
    ]
    table = points_table(4, boards, swiss=True)
    by = {s.number: s for s in table}
    # 1: beat 3 and 4, lost to 2 = 2; 2: beat 4 and 1, lost to 3 = 2
    # Buchholz 1: 3 (1.5) + 2 (2) + 4 (0.5) = 4; 2: 4 (0.5) + 1 (2) + 3 (1.5) = 4
    # S-B 1: 3 (1.5) + 4 (0.5) = 2; 2: 4 (0.5) + 1 (2) = 2.5 -> 2 ahead by S-B already
    assert (by[1].points, by[1].buchholz, by[1].sonneborn_berger) == (2, 4, 2)
    assert (by[2].points, by[2].buchholz, by[2].sonneborn_berger) == (2, 4, 2.5)
    assert [s.number for s in table][:2] == [2, 1]


def test_byes_and_forfeits_score_without_an_opponent():
    boards = [Board(1, 1, 2, "+-"), Board(1, 3, None, "bye"), Board(2, 3, 1, "1/2"), Board(2, 2, None, "bye")]
    table = points_table(3, boards, swiss=True)
    by = {s.number: s for s in table}
    assert (by[1].points, by[1].buchholz, by[1].games) == (1.5, 1.5, 1)  # only 3 was met over the board
    assert (by[3].points, by[3].buchholz) == (1.5, 1.5)
    assert (by[2].points, by[2].buchholz, by[2].games) == (1, 0, 0)


def test_knockout_places_come_from_the_bracket():
    # 5 players: bracket of 8, byes to 1, 2, 3; 4-5 in round 1; semis 1-4, 2-3; final 1-2
    boards = [
        Board(1, 1, None, "bye"),
        Board(1, 4, 5, "1-0"),
        Board(1, 2, None, "bye"),
        Board(1, 3, None, "bye"),
        Board(2, 1, 4, "1-0"),
        Board(2, 2, 3, "1/2"),  # a draw: the higher seed goes through
        Board(3, 1, 2, "0-1"),
    ]
    table = knockout_table(5, boards, 3)
    assert [(s.number, s.place) for s in table] == [(2, 1), (1, 2), (3, 3), (4, 3), (5, 5)]
