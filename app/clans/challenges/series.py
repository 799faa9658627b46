"""A challenge's series result (issue 13, item 3): a board is decided once, and when every board is
decided the series follows and its points are credited, all in the caller's transaction.

The rule: each board is won by a side (by its match, or because the other side did not show), drawn,
or lost by both (``none``: both sides forfeited). The side with more board wins wins the series;
equal wins are a draw. The winning clan gets ``challenge_win_points`` clan ladder points in the
month the series finished (``clan_points``, reason ``challenge_win``, ref the challenge id), and
each of its players gets ``challenge_board_points`` player points per board they won for it
(``points_ledger``, reason ``challenge_win``, ref ``"<challenge id>:<board>"``). Both ledgers are
unique per reason and reference, so a series credited twice (it is not: the status changes in the
same transaction) would still credit once.

Callers (the result consumer, the deadline job) hold the challenge's row lock
(:func:`app.clans.challenges.service.lock_challenge`), so one of them decides a board and finishes a series.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.clans.challenges.models import Challenge, ChallengeBoard, ChallengeStatus, Side
from app.clans.challenges.service import boards_of, clan_ref, clans_of, history_both
from app.clans.points import credit_clan, month_of
from app.points.ledger import credit
from app.points.ranks import RankThresholds, thresholds_from
from app.settings import Settings

#: what a board's ``winner`` may be besides a side
DRAW, NONE = "draw", "none"


@dataclass(frozen=True, slots=True)
class SeriesPoints:
    """``win``: clan ladder points for a won series; ``board``: player points per board won by a
    player of the winning clan; ``thresholds``: the rank thresholds those player points count
    towards (None: no promotion)."""

    win: int = 10
    board: int = 5
    thresholds: RankThresholds | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> SeriesPoints:
        """``CHALLENGE_WIN_POINTS``, ``CHALLENGE_BOARD_POINTS`` and the rank thresholds."""
        return cls(settings.challenge_win_points, settings.challenge_board_points, thresholds_from(settings))


def decide(row: ChallengeBoard, winner: str, forfeit: str | None, now: datetime) -> bool:
    """Record ``row``'s result unless it has one: ``winner`` a :class:`Side` value, ``draw`` or
    ``none``; ``forfeit`` the side that did not show (``both``), or None when the match decided.

    :returns: False when the board was decided before (nothing changed).
    """
    if row.winner is not None:
        return False
    row.winner, row.forfeit, row.decided_at = winner, forfeit, now
    return True


def score(boards: list[ChallengeBoard]) -> dict[Side, int]:
    """Boards won by each side so far."""
    return {side: sum(1 for b in boards if b.winner == side.value) for side in Side}


async def finish_if_decided(session: AsyncSession, ch: Challenge, points: SeriesPoints, now: datetime) -> bool:
    """Finish the accepted challenge ``ch`` (its row locked by the caller) when every board is
    decided: the score, the result, the ``challenge_finished`` history rows and the credits.

    :returns: True when the series finished now.
    """
    if ch.status != ChallengeStatus.ACCEPTED.value:
        return False
    await session.flush()
    boards = await boards_of(session, ch.id)
    if any(b.winner is None for b in boards):
        return False
    wins = score(boards)
    ch.challenger_wins, ch.challenged_wins = wins[Side.CHALLENGER], wins[Side.CHALLENGED]
    winner = None
    if wins[Side.CHALLENGER] != wins[Side.CHALLENGED]:
        winner = Side.CHALLENGER if wins[Side.CHALLENGER] > wins[Side.CHALLENGED] else Side.CHALLENGED
    ch.result = "draw" if winner is None else ("win" if winner is Side.CHALLENGER else "loss")
    ch.status = ChallengeStatus.FINISHED.value
    ch.finished_at = now
    clans = await clans_of(session, ch)
    per_side = {
        side: {
            "result": "draw" if winner is None else ("win" if winner is side else "loss"),
            "score": [wins[side], wins[side.other]],
        }
        for side in Side
    }
    history_both(session, ch, clans, None, "challenge_finished", now, per_side=per_side)
    if winner is not None:
        clan = clans[winner]
        params = {"challenge": ch.id, "clan": clan_ref(clans[winner.other]), "score": per_side[winner]["score"]}
        await credit_clan(session, clan.id, points.win, "challenge_win", ch.id, month=month_of(now), params=params)
        won = sorted(
            ((b.player(winner), b.board) for b in boards if b.winner == winner.value and b.player(winner) is not None),
            key=lambda pb: (pb[0] or 0, pb[1]),
        )
        for user_id, board in won:  # in user order: the ledger's row locks, one order everywhere
            assert user_id is not None
            await credit(
                session,
                user_id,
                points.board,
                "challenge_win",
                f"{ch.id}:{board}",
                params={"challenge": ch.id, "board": board, "clan": clan_ref(clan)},
                thresholds=points.thresholds,
            )
    await session.flush()
    return True
