"""Rematches: a player of a finished match offers the other people of it a new match of the same
game with the same options, seats rotated; when every person has agreed, the new match is created
with everybody seated and starts at once.

The rules, all checked here under a lock on the finished match's row (``FOR UPDATE`` on
PostgreSQL, the database write lock on SQLite), so two answers never both count:

- only people who held a seat in the match may offer, accept or decline (``forbidden``, reason
  ``not_player``), and only once it is ``finished`` (``not_finished``, reason ``rematch``);
- a match has one offer row (``rematch_offers.match_id`` is unique): one live offer at a time. An
  offer while another player's offer is open agrees to it; an offer (or accept) once the rematch
  has started answers with that match, so nobody starts a second one;
- the new match: game and options as before; the player of seat ``s`` takes seat ``(s + 1) %
  n`` (two seats swap), a computer seat stays a computer seat at its level, and a ``teams``
  option rotates with the seats so partners stay partners; created by the offerer;
- rated only if every person agreed to a rated match, as for the original (``rated`` of the
  offer: by default the original's; an offer that meets another's is rated only if both are);
  a rematch of a challenge or tournament match is not part of them (``rated`` or ``casual``);
- against the computer only (one person): the offer is accepted at once ("Play the computer
  again").

The new match (built by :func:`app.matches.service.new_match`, every seat taken) and the offer's
``accepted`` state are committed in one transaction; the match is started right after
(:meth:`MatchService.start_waiting`, again on any later read of an accepted offer whose match
still waits, so a crash in between loses nothing). Every change is announced with a ``{"rematch":
{}}`` table notice on the hub (:meth:`app.matches.hub.LocalHub.publish_table`, to every process);
the gateway sends the ``rematch`` frame (:func:`offer_view`) to the match's sockets that asked
for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import TimeoutError as SQLAlchemyTimeoutError

from app.errors import DomainError, ErrorCode, busy
from app.matches.models import (
    CASUAL,
    FINISHED,
    OFFER_ACCEPTED,
    OFFER_DECLINED,
    OFFER_OPEN,
    RATED,
    WAITING,
    Match,
    RematchOffer,
)
from app.matches.service import MatchService, new_match
from app.matches.views import seat_of
from app.matches.write import lock_match

#: the key of the table notice announcing a change of a match's rematch offer (``{NOTICE: {}}``)
NOTICE = "rematch"


def offer_view(m: Match, offer: RematchOffer | None) -> dict[str, Any]:
    """The rematch state of finished match ``m``, in seats (pages name the players):
    ``{"match_id", "status": "none" | "open" | "accepted" | "declined", "offered_by": seat | null,
    "agreed": [seats], "waiting_for": [seats of people who have not agreed], "declined_by": seat |
    null, "rated": bool, "rematch_id": int | null}``."""
    people = [s.seat for s in m.seats if s.user_id is not None]
    if offer is None:
        return {
            "match_id": m.id,
            "status": "none",
            "offered_by": None,
            "agreed": [],
            "waiting_for": [],
            "declined_by": None,
            "rated": m.origin == RATED,
            "rematch_id": None,
        }
    agreed = [seat for seat in (seat_of(m, u) for u in offer.agreed) if seat is not None]
    return {
        "match_id": m.id,
        "status": offer.status,
        "offered_by": seat_of(m, offer.offered_by),
        "agreed": agreed,
        "waiting_for": [s for s in people if s not in agreed] if offer.status == OFFER_OPEN else [],
        "declined_by": seat_of(m, offer.declined_by),
        "rated": offer.rated,
        "rematch_id": offer.rematch_id,
    }


def rotated(m: Match) -> tuple[dict[int, int], dict[int, str], dict[str, Any]]:
    """The seats and options of the rematch of ``m``: ``(users, bots, options)`` where the holder
    of seat ``s`` moves to ``(s + 1) % n`` (a per-seat ``teams`` list moves with them)."""
    n = m.num_players
    users = {(s.seat + 1) % n: s.user_id for s in m.seats if s.user_id is not None}
    bots = {(s.seat + 1) % n: s.bot_level for s in m.seats if s.bot_level}
    options = dict(m.options)
    teams = options.get("teams")
    if isinstance(teams, list) and len(teams) == n:
        options["teams"] = [teams[(s - 1) % n] for s in range(n)]
    return users, bots, options


class Rematches:
    """Offers, answers and reads rematch offers (see the module's rules).

    :param matches: the match service (its sessions, clock, the start of the new match, and its
        hub, where changes are announced as table notices).
    """

    def __init__(self, matches: MatchService) -> None:
        self.matches = matches

    async def get(self, match_id: int) -> dict[str, Any]:
        """The rematch state of ``match_id`` (:func:`offer_view`); anyone may read it.

        :raises DomainError: ``not_found``, ``busy``.
        """
        try:
            async with self.matches.sessionmaker() as session:
                m = await session.get(Match, match_id)
                if m is None:
                    raise DomainError(ErrorCode.NOT_FOUND, f"no match {match_id}", params={"match_id": match_id})
                offer = await session.scalar(select(RematchOffer).where(RematchOffer.match_id == match_id))
                view = offer_view(m, offer)
        except SQLAlchemyTimeoutError:
            raise busy("every database connection is in use") from None
        await self._start_waiting(view)
        return view

    async def offer(self, match_id: int, user_id: int, rated: bool | None = None) -> dict[str, Any]:
        """Offer a rematch (or agree to the open offer of another player of the match).

        :param rated: ask for a rated rematch (default: rated when the match was).
        :returns: the rematch state (:func:`offer_view`); ``status`` ``accepted`` with
            ``rematch_id`` once every person agreed (at once against the computer).
        :raises DomainError: ``not_found``, ``forbidden`` (``reason``: ``not_player``),
            ``not_finished`` (``reason``: ``rematch``), ``busy``.
        """

        def change(m: Match, offer: RematchOffer | None, session: Any) -> RematchOffer | None:
            want_rated = (m.origin == RATED) if rated is None else rated
            if offer is None:
                offer = RematchOffer(match_id=m.id, status=OFFER_OPEN, offered_by=user_id, agreed=[user_id])
                offer.rated = want_rated
                session.add(offer)
            elif offer.status == OFFER_DECLINED:
                offer.status, offer.offered_by, offer.agreed = OFFER_OPEN, user_id, [user_id]
                offer.rated, offer.declined_by = want_rated, None
            elif offer.status == OFFER_OPEN and user_id not in offer.agreed:
                offer.agreed = [*offer.agreed, user_id]  # meets the other's offer: agrees to it
                offer.rated = offer.rated and want_rated
            else:  # already agreed, or already started: nothing changes
                return None
            return offer

        return await self._change(match_id, user_id, change)

    async def accept(self, match_id: int, user_id: int) -> dict[str, Any]:
        """Agree to the open rematch offer (its terms: ``rated`` as offered).

        :returns: as :meth:`offer`; once the rematch has started, its state (again, changing
            nothing: a second accept lands in the same match).
        :raises DomainError: ``not_found`` (no match; or ``reason`` ``rematch_offer``: no open
            offer), ``forbidden`` (``not_player``), ``not_finished`` (``rematch``), ``conflict``
            (``reason``: ``own_offer``, you agreed already), ``busy``.
        """

        def change(m: Match, offer: RematchOffer | None, session: Any) -> RematchOffer | None:
            if offer is not None and offer.status == OFFER_ACCEPTED:
                return None
            if offer is None or offer.status != OFFER_OPEN:
                raise DomainError(
                    ErrorCode.NOT_FOUND,
                    "there is no open rematch offer in this match",
                    params={"reason": "rematch_offer"},
                )
            if user_id in offer.agreed:
                raise DomainError(
                    ErrorCode.CONFLICT, "you agreed to this rematch already", params={"reason": "own_offer"}
                )
            offer.agreed = [*offer.agreed, user_id]
            return offer

        return await self._change(match_id, user_id, change)

    async def decline(self, match_id: int, user_id: int) -> dict[str, Any]:
        """Decline the open rematch offer (its offerer: withdraw it).

        :raises DomainError: ``not_found`` (no match; or ``reason`` ``rematch_offer``: no open
            offer), ``forbidden`` (``not_player``), ``not_finished`` (``rematch``), ``conflict``
            (``reason``: ``rematch_started``), ``busy``.
        """

        def change(m: Match, offer: RematchOffer | None, session: Any) -> RematchOffer | None:
            if offer is not None and offer.status == OFFER_ACCEPTED:
                raise DomainError(
                    ErrorCode.CONFLICT, "the rematch has started already", params={"reason": "rematch_started"}
                )
            if offer is None or offer.status != OFFER_OPEN:
                raise DomainError(
                    ErrorCode.NOT_FOUND,
                    "there is no open rematch offer in this match",
                    params={"reason": "rematch_offer"},
                )
            offer.status, offer.declined_by = OFFER_DECLINED, user_id
            return offer

        return await self._change(match_id, user_id, change)

    async def _change(self, match_id: int, user_id: int, change: Any) -> dict[str, Any]:
        """Lock the finished match, check the player, apply ``change(m, offer, session)`` (the
        changed offer, or ``None`` for no change), create the rematch when every person agreed,
        commit, start it, announce."""
        matches = self.matches
        try:
            async with matches.sessionmaker() as session, session.begin():
                m = await lock_match(session, match_id, postgres=not matches.settings.is_sqlite)
                if m is None:
                    raise DomainError(ErrorCode.NOT_FOUND, f"no match {match_id}", params={"match_id": match_id})
                if seat_of(m, user_id) is None:
                    raise DomainError(
                        ErrorCode.FORBIDDEN,
                        "only the match's players may answer rematches",
                        params={"reason": "not_player"},
                    )
                if m.status != FINISHED:
                    raise DomainError(
                        ErrorCode.NOT_FINISHED,
                        "a rematch is offered once the match is over",
                        params={"reason": "rematch"},
                    )
                offer = await session.scalar(
                    select(RematchOffer).where(RematchOffer.match_id == match_id).with_for_update()
                )
                changed = change(m, offer, session)
                if changed is not None:
                    offer = changed
                    offer.updated_at = matches.clock.now()
                    people = {s.user_id for s in m.seats if s.user_id is not None}
                    if offer.status == OFFER_OPEN and people <= set(offer.agreed):
                        offer.rematch_id = await self._create(session, m, offer)
                        offer.status = OFFER_ACCEPTED
                    await session.flush()
                view = offer_view(m, offer)
        except SQLAlchemyTimeoutError:
            raise busy("every database connection is in use") from None
        await self._start_waiting(view)
        if changed is not None:
            await self.matches.hub.publish_table(match_id, {NOTICE: {}})
        return view

    async def _create(self, session: Any, m: Match, offer: RematchOffer) -> int:
        """Insert the rematch of ``m`` (seats rotated, ``rated`` as agreed); its id."""
        users, bots, options = rotated(m)
        options["rated"] = offer.rated
        created_by = offer.offered_by if offer.offered_by in users.values() else None
        new = new_match(
            m.game,
            options,
            m.num_players,
            users,
            bots,
            created_by=created_by,
            now=self.matches.clock.now(),
            origin=RATED if offer.rated else CASUAL,
        )
        session.add(new)
        await session.flush()
        return new.id

    async def _start_waiting(self, view: Mapping[str, Any]) -> None:
        """Start the accepted offer's rematch if it still waits (after a crash, or right now)."""
        if view["status"] == OFFER_ACCEPTED and view["rematch_id"] is not None:
            info = await self.matches.get_match(view["rematch_id"])
            if info["status"] == WAITING:
                await self.matches.start_waiting(view["rematch_id"])
