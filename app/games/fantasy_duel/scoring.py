"""End of the game and final scoring (``rules/fantasy_duel.md`` sections 7 and 8).

* The game ends when the deck is empty and the units left on the table belong to at most one team
  (free-for-all: one seat) (7, 8), or by the stalemate guard (AMBIGUITY 12).
* A seat scores 1 point per card in its prison and 1 per unit of its army still on the table
  (AMBIGUITY 7); a team scores the sum of its seats.
* The best team score wins; equal best scores are a draw between those teams; every other team
  loses. Seats of one team share result and rank; ranks are competition ranks (1, 1, 3) by team
  score.
"""

from __future__ import annotations

from ..core.rules import Outcome
from .state import FantasyState

LAST_ARMY = "last_army"  #: reason: at most one team has units, the deck being empty
STALEMATE = "stalemate"  #: reason: the stalemate guard (AMBIGUITY 12)


def seat_scores(state: FantasyState) -> tuple[int, ...]:
    """Per seat: prison cards + surviving units (spec 7)."""
    return tuple(len(p) + len(a) for p, a in zip(state.prisons, state.armies, strict=True))


def team_scores(state: FantasyState) -> dict[int, int]:
    """Team -> the sum of its seats' scores (spec 8)."""
    out: dict[int, int] = {}
    for team, score in zip(state.config.teams, seat_scores(state), strict=True):
        out[team] = out.get(team, 0) + score
    return out


def is_finished(state: FantasyState) -> bool:
    """The deck is empty and at most one team still has units on the table (spec 7, 8)."""
    if state.deck:
        return False
    teams = {state.config.teams[s] for s, army in enumerate(state.armies) if army}
    return len(teams) <= 1


def final_outcome(state: FantasyState, reason: str) -> Outcome:
    """The :class:`Outcome` of final scoring: per-seat scores, results and ranks by team."""
    teams = state.config.teams
    by_team = team_scores(state)
    best = max(by_team.values())
    leaders = [t for t, score in by_team.items() if score == best]
    if len(leaders) == 1:
        results = tuple("win" if teams[s] == leaders[0] else "loss" for s in range(state.num_players))
    else:
        results = tuple("draw" if teams[s] in leaders else "loss" for s in range(state.num_players))
    ranks = tuple(
        1 + sum(1 for score in by_team.values() if score > by_team[teams[s]]) for s in range(state.num_players)
    )
    return Outcome(
        results=results, scores=tuple(float(x) for x in seat_scores(state)), reason=reason, ranks=ranks, teams=teams
    )
