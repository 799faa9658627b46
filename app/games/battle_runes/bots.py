"""Battle Runes computer players (core :class:`~app.games.core.rules.Bot`), easiest first.

Each bot sees only its seat's observation (:meth:`BattleRunes.observe`) and its legal picks. Both
hands are public in Battle Runes, so every bot can list the opponent's 10 possible picks too.

* :class:`RandomBot` - a uniformly random legal pick.
* :class:`GreedyBot` - the spec's default timeout policy (AMBIGUITY 14): the pick maximising
  (own score gain - opponent's score gain) *assuming the opponent plays nothing*.
* :class:`NashBot` - one turn as a 10x10 zero-sum matrix game over a position value that knows the
  win thresholds; plays the mixed equilibrium (``scipy.optimize.linprog``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from scipy.optimize import linprog

from .actions import Pick, hand_picks, sort_runes
from .engine import end_check
from .resolve import ResolveOptions, settle_scores

JSON = Any


def _view(observation: Mapping[str, JSON], legal: Sequence[Pick]) -> tuple[int, tuple[int, int], ResolveOptions]:
    seat = observation["seat"]
    if seat not in (0, 1) or not legal:
        raise ValueError("a Battle Runes bot needs a seat that is choosing and its legal picks")
    scores = (int(observation["scores"][0]), int(observation["scores"][1]))
    return seat, scores, ResolveOptions.of(observation.get("options"))


def _scores_after(
    seat: int, mine: Sequence[str], theirs: Sequence[str], scores: tuple[int, int], options: ResolveOptions
) -> tuple[int, int]:
    if seat == 0:
        return settle_scores(mine, theirs, scores, options)
    return settle_scores(theirs, mine, scores, options)


class RandomBot:
    """Plays a uniformly random legal pick (the easy level)."""

    name: ClassVar[str] = "random"

    def choose(
        self, observation: Mapping[str, JSON], legal: Sequence[Pick], rng: random.Random, budget_ms: int = 50
    ) -> Pick:
        """:returns: one element of ``legal``. :raises IndexError: ``legal`` is empty."""
        return legal[rng.randrange(len(legal))]


class GreedyBot:
    """The spec's default fallback policy (AMBIGUITY 14), the medium level.

    For each legal pick, resolve the turn as if the opponent played **nothing** (no runes at all,
    so "opponent played no modifier/construction/destruction" bonuses count) and score it as
    (own score change - opponent's score change). Plays the best; ties broken with ``rng``. Ignores
    the win thresholds and the opponent's hand, which is what makes it beatable.
    """

    name: ClassVar[str] = "greedy"

    def choose(
        self, observation: Mapping[str, JSON], legal: Sequence[Pick], rng: random.Random, budget_ms: int = 50
    ) -> Pick:
        """:returns: one element of ``legal``. :raises ValueError: not a choosing seat."""
        seat, scores, options = _view(observation, legal)
        best: list[Pick] = []
        best_gain = -math.inf
        for pick in legal:
            after = _scores_after(seat, pick.runes, (), scores, options)
            gain = (after[seat] - scores[seat]) - (after[1 - seat] - scores[1 - seat])
            if gain > best_gain:
                best, best_gain = [pick], gain
            elif gain == best_gain:
                best.append(pick)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


#: NashBot's race model: points a seat typically makes in one turn (see :func:`position_value`).
RACE_POINTS_PER_TURN = 8.0
#: Cap of an unfinished position's value, so that a certain win always counts for more.
UNFINISHED_CAP = 0.9


def position_value(scores: tuple[int, int], seat: int, win_score: int, turn: int = 0, max_turns: int = 0) -> float:
    """NashBot's value, for ``seat``, of the position after a turn, in [-1, 1]; zero-sum.

    * Game over (spec section 4): +1 win, -1 loss, 0 when both win, both lose or the turn cap draws
      (``(result(seat) - result(opponent)) / 2`` with win = 1, draw = 0, loss = -1).
    * Otherwise a race model. ``need_x`` = the fewest points x still needs =
      ``min(win_score - own score, opponent's score)`` (reach 50 by construction, or bring the
      opponent to 0 by destruction). Each turn x finishes with probability
      ``p_x = exp(-need_x / 8)`` (8 ~ the points of a typical turn), independently; the value is
      P(I finish strictly first) - P(they do) = ``(p_me - p_opp) / (p_me + p_opp - p_me * p_opp)``,
      times 0.9 so an unfinished position never equals a certain win. Unlike a plain score
      difference this knows the thresholds: 49 against 30 (one point from winning) is worth more
      than 40 against 21, as the seed's tactics note says.
    """
    outcome = end_check(scores, win_score, turn, max_turns)
    if outcome is not None:
        points = {"win": 1, "draw": 0, "loss": -1}
        return (points[outcome.results[seat]] - points[outcome.results[1 - seat]]) / 2
    mine, theirs = scores[seat], scores[1 - seat]
    p_me = math.exp(-min(win_score - mine, theirs) / RACE_POINTS_PER_TURN)
    p_opp = math.exp(-min(win_score - theirs, mine) / RACE_POINTS_PER_TURN)
    return UNFINISHED_CAP * (p_me - p_opp) / (p_me + p_opp - p_me * p_opp)


def solve_zero_sum(matrix: Sequence[Sequence[float]] | np.ndarray) -> tuple[np.ndarray, float]:
    """Optimal mixed strategy of the row player (maximiser) of a zero-sum matrix game.

    Pure saddle points are found directly (among the maximin rows, the one with the best average
    payoff); otherwise the linear program "maximise v subject to x·A[:, j] >= v for every column,
    x >= 0, sum x = 1" is solved with ``scipy.optimize.linprog`` (HiGHS).

    :param matrix: payoffs to the row player, shape (rows, columns).
    :returns: (probabilities per row, summing to 1; the game value).
    :raises ValueError: an empty matrix. :raises RuntimeError: the solver failed.
    """
    a = np.asarray(matrix, dtype=float)
    if a.ndim != 2 or a.size == 0:
        raise ValueError("solve_zero_sum needs a non-empty 2-D payoff matrix")
    m, n = a.shape
    row_min = a.min(axis=1)
    lower = float(row_min.max())
    upper = float(a.max(axis=0).min())
    if upper - lower <= 1e-12:
        candidates = np.flatnonzero(row_min >= lower - 1e-12)
        best = int(candidates[np.argmax(a[candidates].mean(axis=1))])
        probs = np.zeros(m)
        probs[best] = 1.0
        return probs, lower
    c = np.zeros(m + 1)
    c[-1] = -1.0  # maximise v
    a_ub = np.hstack([-a.T, np.ones((n, 1))])  # v - x·A[:, j] <= 0
    a_eq = np.ones((1, m + 1))
    a_eq[0, -1] = 0.0
    bounds = [(0.0, None)] * m + [(None, None)]
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs")
    if not res.success:
        raise RuntimeError(f"linprog failed: {res.message}")
    probs = np.clip(res.x[:m], 0.0, None)
    probs /= probs.sum()
    return probs, float(res.x[-1])


class NashBot:
    """One-turn equilibrium play (the hard level).

    Both hands are public, so a turn is a zero-sum game: rows = my legal picks, columns = the
    opponent's picks from its hand, payoff = :func:`position_value` of the resolved position for
    me. The bot solves it (:func:`solve_zero_sum`) and samples its pick from the equilibrium mixed
    strategy with ``rng``, so an opponent cannot exploit a fixed choice. It looks one turn ahead
    (future deals are unknown); typically a few milliseconds per decision.
    """

    name: ClassVar[str] = "nash"

    def strategy(self, observation: Mapping[str, JSON], legal: Sequence[Pick]) -> tuple[np.ndarray, float]:
        """The equilibrium over ``legal`` (probabilities in ``legal``'s order) and its value.

        :raises ValueError: not a choosing seat.
        """
        return solve_zero_sum(self.payoffs(observation, legal))

    def payoffs(self, observation: Mapping[str, JSON], legal: Sequence[Pick]) -> np.ndarray:
        """The payoff matrix: ``[i][j]`` = value for me of my ``legal[i]`` against the opponent's
        ``j``-th pick of its hand (hand order)."""
        seat, scores, options = _view(observation, legal)
        theirs = [pick.runes for pick in hand_picks(sort_runes(observation["hands"][1 - seat]))] or [()]
        opts = observation.get("options") or {}
        win_score = int(opts.get("win_score", 50))
        max_turns = int(opts.get("max_turns", 0))
        turn = int(observation.get("turn", 0)) + 1
        cache: dict[tuple[int, int], float] = {}
        matrix = np.empty((len(legal), len(theirs)))
        for i, pick in enumerate(legal):
            mine = pick.runes
            for j, other in enumerate(theirs):
                after = _scores_after(seat, mine, other, scores, options)
                value = cache.get(after)
                if value is None:
                    value = cache[after] = position_value(after, seat, win_score, turn, max_turns)
                matrix[i, j] = value
        return matrix

    def choose(
        self, observation: Mapping[str, JSON], legal: Sequence[Pick], rng: random.Random, budget_ms: int = 50
    ) -> Pick:
        """Sample a pick from the equilibrium strategy. :returns: one element of ``legal``."""
        probs, _ = self.strategy(observation, legal)
        r = rng.random()
        acc = 0.0
        for i, p in enumerate(probs):
            acc += p
            if r < acc:
                return legal[i]
        return legal[int(np.argmax(probs))]
