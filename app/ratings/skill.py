"""The rating math: OpenSkill's Plackett-Luce model (Weng and Lin 2011) for every pool, and the
season's ladder points.

Why one model: Fantasy súboj has 2-8 seats and teams, Treasure Beasts 2-6 seats; Plackett-Luce
rates any number of teams of any size from their finishing ranks (ties allowed), and for two seats
it behaves like Glicko-2 (a mean and a deviation per player, big moves while the deviation is
high). One model means one code path, one scale and one provisional rule for every pool
(``docs/ratings.md``).

Scale: the library's ``mu`` starts at 25 with ``sigma`` 25/3. Players see
``rating = 1500 + 60 * (mu - 25)`` and ``deviation = 60 * sigma`` (so a new player is 1500 with a
deviation of 500, the familiar Elo-like scale). A rating is provisional (shown with ``?``, as
Lichess marks a Glicko-2 deviation above 110) while its deviation is above
:data:`PROVISIONAL_DEVIATION`: the first eight to a dozen rated matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: the model with the library's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
MODEL = PlackettLuce()
START_MU: float = MODEL.mu
START_SIGMA: float = MODEL.sigma
#: displayed rating of ``START_MU``, and rating points per unit of ``mu``
BASE, SCALE = 1500, 60
#: a displayed deviation above this marks the rating provisional (a new player has 500)
PROVISIONAL_DEVIATION = 400
#: ladder points for beating an equal opponent; 0-2 times this for a stronger/weaker one
EVEN_WIN_POINTS = 10


@dataclass(frozen=True, slots=True)
class Skill:
    """One player's skill in one pool: OpenSkill's ``mu`` and ``sigma`` (the library's units)."""

    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def rating(self) -> int:
        """The displayed rating, ``1500 + 60 * (mu - 25)`` rounded."""
        return display_rating(self.mu)

    @property
    def deviation(self) -> int:
        """The displayed deviation, ``60 * sigma`` rounded."""
        return round(SCALE * self.sigma)

    @property
    def provisional(self) -> bool:
        """Whether the pages mark the rating with ``?`` (deviation above :data:`PROVISIONAL_DEVIATION`)."""
        return is_provisional(self.sigma)


def display_rating(mu: float) -> int:
    """``mu`` on the displayed scale: ``round(1500 + 60 * (mu - 25))``."""
    return round(BASE + SCALE * (mu - START_MU))


def is_provisional(sigma: float) -> bool:
    """Whether a rating with this ``sigma`` is provisional (``60 * sigma > PROVISIONAL_DEVIATION``)."""
    return SCALE * sigma > PROVISIONAL_DEVIATION


def rate(teams: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """New skills after one match, by OpenSkill's Plackett-Luce ``rate``.

    :param teams: the players of each team (a two-seat game: two teams of one).
    :param ranks: each team's finishing place, 1 = best, equal for a tie.
    :returns: the new skills, in the shape of ``teams``.
    :raises ValueError: fewer than two teams, an empty team, or ``ranks`` not one per team.
    """
    if len(teams) < 2 or any(not t for t in teams) or len(ranks) != len(teams):
        raise ValueError(f"need two or more non-empty teams and one rank each: {len(teams)} teams, {len(ranks)} ranks")
    rated = MODEL.rate(
        [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams], ranks=[float(r) for r in ranks]
    )
    return [[Skill(p.mu, p.sigma) for p in team] for team in rated]


def win_probability(player: Skill, opponent: Skill) -> float:
    """The model's chance (0-1) that ``player`` beats ``opponent`` (``predict_win``)."""
    return float(
        MODEL.predict_win(
            [[MODEL.rating(mu=player.mu, sigma=player.sigma)], [MODEL.rating(mu=opponent.mu, sigma=opponent.sigma)]]
        )[0]
    )


def win_points(p_win: float, earlier_wins_today: int) -> int:
    """Season ladder points for beating one opponent (issue 12, item 3; kept apart from skill).

    ``2 * EVEN_WIN_POINTS * (1 - p_win)`` rounded: 10 for an even match, up to 20 for beating a far
    stronger opponent, down to 1 for a far weaker one; halved for each earlier win over the same
    opponent in the same pool that UTC day (at least 1).

    :param p_win: the winner's chance before the match (:func:`win_probability`), 0-1.
    :param earlier_wins_today: wins over this opponent earlier the same day, >= 0.
    """
    points = max(1, round(2 * EVEN_WIN_POINTS * (1.0 - p_win)))
    return max(1, points >> max(0, earlier_wins_today))
