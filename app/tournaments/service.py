"""Organising a tournament (issue 14, item 2): create, register, withdraw, check in, start early.

Every change checks its rules under the tournament row's lock (``FOR UPDATE`` on PostgreSQL, the
database write lock on SQLite), so a player limit holds with two processes. Errors are
:class:`~app.errors.DomainError` codes only:

* ``forbidden`` (``params.reason``): ``not_master``, creating without being a Master (or higher)
  or an administrator; ``not_organiser``, starting someone else's tournament.
* ``not_found``: no such tournament; withdrawing or checking in without being registered.
* ``bad_options`` with ``params.reason``: ``option_choice`` (``option`` ``format``, ``choices``),
  ``unknown_game`` (``game``), ``format_game`` (``format``, ``game``: the format cannot run the
  game, which needs two seats), ``option_range`` (``option`` ``max_players`` or ``rounds``,
  ``low``, ``high``), ``untimed`` (``turn_seconds`` not above 0), ``starts_at`` (not a time in the
  future with its time zone), and the match service's check of the options
  (:meth:`~app.matches.service.MatchService.check_options`).
* ``conflict`` with ``params.reason``: ``not_registering`` (it has started or is over),
  ``full``, ``already_registered``, ``not_in_clan`` (a clan-only tournament, or creating one
  outside a clan), ``checkin_not_open`` (``params.opens_at``), ``not_running``,
  ``already_withdrawn``.

What happens at the start and after is the runner's (:mod:`app.tournaments.runner`).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, false, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clans.models import ClanMember
from app.errors import DomainError, ErrorCode
from app.games.core import get_rules
from app.games.core.errors import BadOptions
from app.matches.clock import Clock
from app.matches.service import MatchService
from app.points.ranks import Rank
from app.tournaments.models import (
    CHECKED_IN,
    FORMATS,
    PLAYING,
    REGISTERED,
    REGISTERING,
    RUNNING,
    SWISS,
    WITHDRAWN,
    Tournament,
    TournamentBoard,
    TournamentPlayer,
)
from app.tournaments.pairing.swiss import recommended_rounds
from app.users.models import User

#: check-in opens this long before the start
CHECKIN_OPENS = timedelta(hours=1)
#: the largest field (players) of a tournament
MAX_PLAYERS = 64
#: the most Swiss rounds a tournament may ask for
MAX_SWISS_ROUNDS = 15


def supports(fmt: str, game: str) -> bool:
    """Whether format ``fmt`` can run ``game``: every format pairs players two by two, so the game
    must allow two seats (all five games do)."""
    try:
        rules = get_rules(game, {})
    except (BadOptions, KeyError):
        return False
    return fmt in FORMATS and rules.min_players <= 2 <= rules.max_players


async def may_organise(session: AsyncSession, user_id: int) -> bool:
    """Whether the player may organise tournaments: a Master or higher, or an administrator."""
    row = (await session.execute(select(User.rank, User.is_admin).where(User.id == user_id))).first()
    return row is not None and (bool(row.is_admin) or Rank(row.rank).level >= Rank.MASTER.level)


@dataclass(frozen=True, slots=True)
class NewTournament:
    """What an organiser asks for: ``options`` are the game's own (``variant``, ``level``);
    ``turn_seconds`` the turn time of every match (> 0: absent players' clocks must run);
    ``rounds`` (Swiss only; 0 = ``ceil(log2(players))``); ``clan_only``: only the organiser's clan
    may register; ``starts_at`` a timezone-aware time in the future."""

    name: str
    game: str
    format: str
    starts_at: datetime
    max_players: int = 8
    turn_seconds: int = 60
    options: dict[str, Any] | None = None
    rounds: int = 0
    clan_only: bool = False
    rated: bool = False


def _bad_options(reason: str, message: str, **params: Any) -> DomainError:
    return DomainError(ErrorCode.BAD_OPTIONS, message, params={"reason": reason, **params})


def _conflict(reason: str, message: str, **params: Any) -> DomainError:
    return DomainError(ErrorCode.CONFLICT, message, params={"reason": reason, **params})


class TournamentService:
    """The organising half of tournaments.

    :param sessionmaker: the request pool.
    :param matches: the match service (option checks; withdrawing resigns a running match).
    :param clock: the time source (the match service's, a fake in tests).
    :param wake: called after a change the runner should see at once (a start now).
    """

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        matches: MatchService,
        clock: Clock,
        wake: Any = None,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.matches = matches
        self.clock = clock
        self.wake = wake or (lambda: None)

    async def create(self, user_id: int, new: NewTournament) -> int:
        """Create a tournament, open for registration until ``new.starts_at``.

        :returns: its id.
        :raises DomainError: ``forbidden``, ``bad_options``, ``conflict`` ``not_in_clan``.
        """
        async with self.sessionmaker() as session:  # who may organise comes first: a player who
            if not await may_organise(session, user_id):  # may not learns nothing of the rules
                raise _not_master()
        if new.format not in FORMATS:
            raise _bad_options(
                "option_choice", f"format must be one of {FORMATS}", option="format", choices=list(FORMATS)
            )
        try:
            get_rules(new.game, {})
        except BadOptions as exc:
            raise DomainError(ErrorCode.BAD_OPTIONS, str(exc), params=exc.wire_params()) from None
        if not supports(new.format, new.game):
            raise _bad_options("format_game", f"{new.format} cannot run {new.game}", format=new.format, game=new.game)
        if not 2 <= new.max_players <= MAX_PLAYERS:
            raise _bad_options(
                "option_range",
                f"max_players must be from 2 to {MAX_PLAYERS}",
                option="max_players",
                low=2,
                high=MAX_PLAYERS,
            )
        if isinstance(new.turn_seconds, bool) or not isinstance(new.turn_seconds, int) or new.turn_seconds <= 0:
            raise _bad_options("untimed", "a tournament's matches are timed: turn_seconds > 0")
        rounds = 0
        if new.format == SWISS:
            rounds = new.rounds or recommended_rounds(new.max_players)
            most = min(MAX_SWISS_ROUNDS, new.max_players - 1)
            if not 1 <= rounds <= most:
                raise _bad_options(
                    "option_range",
                    f"a Swiss of {new.max_players} players has 1 to {most} rounds",
                    option="rounds",
                    low=1,
                    high=most,
                )
        now = self.clock.now()
        if new.starts_at.tzinfo is None or new.starts_at <= now:
            raise _bad_options("starts_at", "starts_at must be a time in the future, with its time zone")
        _players, options = self.matches.check_options(
            new.game, {**(new.options or {}), "turn_seconds": new.turn_seconds, "rated": new.rated}, players=2
        )
        async with self.sessionmaker() as session, session.begin():
            if not await may_organise(session, user_id):  # again, in the transaction that writes
                raise _not_master()
            clan_id = None
            if new.clan_only:
                clan_id = await session.scalar(select(ClanMember.clan_id).where(ClanMember.user_id == user_id))
                if clan_id is None:
                    raise _conflict("not_in_clan", "a clan-only tournament needs its organiser in a clan")
            t = Tournament(
                name=new.name,
                game=new.game,
                options=options,
                format=new.format,
                rounds=rounds,
                max_players=new.max_players,
                starts_at=new.starts_at,
                clan_id=clan_id,
                rated=new.rated,
                status=REGISTERING,
                due_at=new.starts_at,
                created_by=user_id,
                created_at=now,
            )
            session.add(t)
            await session.flush()
            return t.id

    async def register(self, tournament_id: int, user_id: int) -> None:
        """Sign up for a tournament that has not started.

        :raises DomainError: ``not_found``, ``conflict`` (``not_registering``, ``full``,
            ``already_registered``, ``not_in_clan``).
        """
        async with self.sessionmaker() as session, session.begin():
            t = await lock_tournament(session, tournament_id)
            if t.status != REGISTERING:
                raise _conflict("not_registering", "this tournament is not open for registration")
            if await session.get(TournamentPlayer, (tournament_id, user_id)) is not None:
                raise _conflict("already_registered", "you are registered already")
            if t.clan_id is not None:
                clan = await session.scalar(select(ClanMember.clan_id).where(ClanMember.user_id == user_id))
                if clan != t.clan_id:
                    raise _conflict("not_in_clan", "this tournament is for one clan's members")
            count = await session.scalar(
                select(func.count())
                .select_from(TournamentPlayer)
                .where(TournamentPlayer.tournament_id == tournament_id)
            )
            if (count or 0) >= t.max_players:
                raise _conflict("full", "this tournament is full", max_players=t.max_players)
            session.add(
                TournamentPlayer(
                    tournament_id=tournament_id, user_id=user_id, status=REGISTERED, registered_at=self.clock.now()
                )
            )

    async def check_in(self, tournament_id: int, user_id: int) -> None:
        """Confirm you will play: from :data:`CHECKIN_OPENS` before the start until it starts.
        Players who have not checked in at the start are left out.

        :raises DomainError: ``not_found`` (no tournament, or not registered), ``conflict``
            (``not_registering``, ``checkin_not_open`` with ``opens_at``).
        """
        async with self.sessionmaker() as session, session.begin():
            t = await lock_tournament(session, tournament_id)
            p = await session.get(TournamentPlayer, (tournament_id, user_id))
            if p is None:
                raise DomainError(ErrorCode.NOT_FOUND, "you are not registered for this tournament")
            if t.status != REGISTERING:
                raise _conflict("not_registering", "this tournament has started")
            now = self.clock.now()
            opens = t.starts_at - CHECKIN_OPENS
            if now < opens:
                raise _conflict("checkin_not_open", "check-in has not opened yet", opens_at=opens.isoformat())
            if p.status == REGISTERED:
                p.status, p.checked_in_at = CHECKED_IN, now

    async def withdraw(self, tournament_id: int, user_id: int) -> None:
        """Leave a tournament. Before the start the registration is removed; while it runs the
        player forfeits the rest: their running match is resigned and they are paired no more
        (a round robin scores their remaining games as forfeits).

        :raises DomainError: ``not_found`` (no tournament, or not registered), ``conflict``
            (``not_running``: it is over; ``already_withdrawn``).
        """
        running: list[int] = []
        async with self.sessionmaker() as session, session.begin():
            t = await lock_tournament(session, tournament_id)
            p = await session.get(TournamentPlayer, (tournament_id, user_id))
            if p is None:
                raise DomainError(ErrorCode.NOT_FOUND, "you are not registered for this tournament")
            if t.status == REGISTERING:
                await session.execute(
                    delete(TournamentPlayer).where(
                        TournamentPlayer.tournament_id == tournament_id, TournamentPlayer.user_id == user_id
                    )
                )
                return
            if t.status != RUNNING:
                raise _conflict("not_running", "this tournament is over")
            if p.status != PLAYING:
                raise _conflict("already_withdrawn", "you are no longer playing in this tournament")
            p.status, p.left_round = WITHDRAWN, t.current_round
            running = [
                match_id
                for match_id in (
                    await session.execute(
                        select(TournamentBoard.match_id).where(
                            TournamentBoard.tournament_id == tournament_id,
                            TournamentBoard.result.is_(None),
                            TournamentBoard.match_id.is_not(None),
                            (TournamentBoard.first_user_id == user_id) | (TournamentBoard.second_user_id == user_id),
                        )
                    )
                ).scalars()
                if match_id is not None
            ]
        for match_id in running:
            # over already, or not started: the runner scores what the match gives
            with contextlib.suppress(DomainError):
                await self.matches.resign(match_id, user_id)
        self.wake()

    async def start_now(self, tournament_id: int, user_id: int) -> None:
        """Start a tournament before its time (its organiser or an administrator): the runner
        starts it at once with the players checked in.

        :raises DomainError: ``not_found``, ``forbidden``, ``conflict`` ``not_registering``.
        """
        async with self.sessionmaker() as session, session.begin():
            t = await lock_tournament(session, tournament_id)
            admin = await session.scalar(select(User.is_admin).where(User.id == user_id))
            if t.created_by != user_id and not admin:
                raise DomainError(
                    ErrorCode.FORBIDDEN,
                    "only the organiser may start this tournament",
                    params={"reason": "not_organiser"},
                )
            if t.status != REGISTERING:
                raise _conflict("not_registering", "this tournament has started")
            now = self.clock.now()
            t.starts_at = min(t.starts_at, now)
            t.due_at = now
        self.wake()


async def lock_tournament(session: AsyncSession, tournament_id: int, *, skip_locked: bool = False) -> Tournament:
    """The tournament's row, locked for the rest of the transaction (``FOR UPDATE`` on PostgreSQL;
    on SQLite the database write lock, taken by an empty update first).

    :raises DomainError: ``not_found`` (also when ``skip_locked`` finds the row locked: callers
        that skip use :func:`try_lock_tournament`).
    """
    t = await try_lock_tournament(session, tournament_id, skip_locked=skip_locked)
    if t is None:
        raise DomainError(ErrorCode.NOT_FOUND, "no such tournament", params={"tournament_id": tournament_id})
    return t


async def try_lock_tournament(
    session: AsyncSession, tournament_id: int, *, skip_locked: bool = False
) -> Tournament | None:
    """As :func:`lock_tournament`, or None when there is no such row (or, with ``skip_locked`` on
    PostgreSQL, another transaction holds it)."""
    if session.get_bind().dialect.name != "postgresql":
        await session.execute(update(Tournament).where(false()).values(status=Tournament.status))
        stmt = select(Tournament).where(Tournament.id == tournament_id)
    else:
        stmt = (
            select(Tournament)
            .where(Tournament.id == tournament_id)
            .with_for_update(skip_locked=skip_locked)
            .execution_options(populate_existing=True)
        )
    return (await session.execute(stmt)).scalar_one_or_none()


def _not_master() -> DomainError:
    """The refusal of a player who may not organise (a Knight who is not an administrator)."""
    return DomainError(
        ErrorCode.FORBIDDEN,
        "only a Master or an administrator may organise a tournament",
        params={"reason": "not_master"},
    )
