"""Player points for rated wins and wins over a Lord, exactly once: the ``"points"`` consumer of
``match_results`` (:mod:`app.matches.results`; issue 13, item 5).

What earns points, per seat row of a finished match:

- **rated_win** (``settings.points_rated_win``, ``ref`` the match id): the seat won (``result``
  ``win``) a match that counts as rated, by the ratings' own rule
  (:func:`app.ratings.apply.rated_matches`: created rated, in a pool, every seat a different
  person; so a match with a computer seat, and a casual one, give nothing), and the player
  played it to the end (a seat the computer finished for a player who was away earns nothing:
  points reward one's own wins).
- **beat_lord** (``settings.points_beat_lord``, ``ref`` the match id): such a win finished ahead of
  (another team, a worse place) at least one player whose rank was Lord or Leader when the match
  ended (:func:`app.points.ranks.rank_at`, from the ``rank_changes`` audit, so a consumer catching
  up late judges by the rank of that moment). It also makes a Knight a Master
  (:func:`~app.points.ranks.promote_to_at_least`, reason ``beat_lord``, ``ref`` the match id).

Every credit lifts ``earned`` and promotes by the thresholds of the settings
(:func:`~app.points.ranks.thresholds_from`).

Exactly once: :func:`app.matches.results.claim` delivers each row to this consumer once, in the
transaction that records its delivery, and the ledger is unique per ``(player, reason, ref)`` as a
second key (a row delivered again changes nothing). The credits of one claim are made in player id
order, so two claimers never lock two players' ``player_points`` rows in opposite orders.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.matches.hub import LocalHub
from app.matches.models import MatchResult
from app.matches.results import Handler, claim, consume_forever
from app.points.ledger import credit
from app.points.ranks import Rank, RankThresholds, promote_to_at_least, rank_at, thresholds_from
from app.ratings.apply import rated_matches
from app.settings import Settings

#: the consumer's name in ``result_deliveries``
CONSUMER = "points"


@dataclass(frozen=True, slots=True)
class Awards:
    """How many points each kind of win gives, and the rank thresholds (from the settings:
    ``POINTS_RATED_WIN``, ``POINTS_BEAT_LORD``, ``RANK_*_POINTS``)."""

    rated_win: int = 10
    beat_lord: int = 25
    thresholds: RankThresholds = field(default_factory=RankThresholds)

    @classmethod
    def from_settings(cls, settings: Settings) -> Awards:
        """The awards the server's settings set."""
        return cls(settings.points_rated_win, settings.points_beat_lord, thresholds_from(settings))


@dataclass(frozen=True, slots=True)
class _Credit:
    user_id: int
    reason: str
    match_id: int
    points: int
    game: str


async def apply_points(session: AsyncSession, rows: Sequence[MatchResult], awards: Awards) -> int:
    """Credit the points ``rows`` earn (see the module docstring), in the caller's transaction.

    Idempotent: a ``(player, reason, match)`` credited before is skipped.

    :returns: how many ledger rows were added.
    """
    due: list[_Credit] = []
    wins = [r for r in rows if r.result == "win" and r.user_id is not None and not r.computer_finished]
    counted = await rated_matches(session, (r.match_id for r in wins))
    for r in wins:
        if r.match_id not in counted or r.user_id is None:  # (the filter above: for the type checker)
            continue
        m, _pool, results = counted[r.match_id]
        game, match_end = m.game, m.finished_at or r.created_at
        due.append(_Credit(r.user_id, "rated_win", r.match_id, awards.rated_win, game))
        beaten = [o for o in results if o.team != r.team and o.rank > r.rank and o.user_id is not None]
        for o in beaten:
            assert o.user_id is not None
            if (await rank_at(session, o.user_id, match_end)).level >= Rank.LORD.level:
                due.append(_Credit(r.user_id, "beat_lord", r.match_id, awards.beat_lord, game))
                break
    added = 0
    for c in sorted(due, key=lambda c: (c.user_id, c.match_id, c.reason)):
        if c.points > 0:
            params = {"match_id": c.match_id, "game": c.game}
            entry = await credit(
                session, c.user_id, c.points, c.reason, c.match_id, params=params, thresholds=awards.thresholds
            )
            added += entry is not None
        if c.reason == "beat_lord":
            await promote_to_at_least(session, c.user_id, Rank.MASTER, "beat_lord", str(c.match_id))
    return added


def handler(awards: Awards) -> Handler:
    """The consumer's handler for :func:`app.matches.results.claim`: :func:`apply_points` with
    ``awards``."""

    async def handle(session: AsyncSession, rows: Sequence[MatchResult]) -> None:
        await apply_points(session, rows, awards)

    return handle


async def catch_up(sessionmaker: async_sessionmaker[AsyncSession], awards: Awards, limit: int = 100) -> int:
    """Apply every result row not yet delivered to the points consumer (tests, scripts).

    :returns: how many rows were delivered."""
    total = 0
    handle = handler(awards)
    while (n := await claim(sessionmaker, CONSUMER, handle, limit)) > 0:
        total += n
    return total


def start(
    sessionmaker: async_sessionmaker[AsyncSession], hub: LocalHub, settings: Settings, poll_seconds: float = 30.0
) -> asyncio.Task[None]:
    """Start the points consumer (:func:`app.matches.results.consume_forever`) as a task; cancel
    it on shutdown."""
    return asyncio.create_task(
        consume_forever(
            sessionmaker, hub, CONSUMER, handler(Awards.from_settings(settings)), poll_seconds=poll_seconds
        ),
        name="points",
    )
