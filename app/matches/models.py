"""Match tables: ``matches``, ``match_seats``, ``match_events``, ``rematch_offers``, and what a match
leaves behind when it ends, ``match_results`` and ``result_deliveries`` (DESIGN.md section 5, "After
a match"), and the quick chat of its table, ``match_chat``.

``matches.state`` is a snapshot that can always be rebuilt by replaying ``match_events``
(:meth:`MatchService.rebuild`; ``tests/service/test_match_service.py`` checks it). Columns that hold hidden information (``seed``,
``state``, ``pending``, event payloads) are never sent to a client as they are.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db.base import Base, JSONType, utcnow

WAITING, ACTIVE, FINISHED, ABORTED = "waiting", "active", "finished", "aborted"
#: where a match comes from (``matches.origin``): a casual game, a rated game, a clan challenge, a
#: tournament round. Consumers of ``match_results`` decide from it what the match counts for.
CASUAL, RATED, CHALLENGE, TOURNAMENT = "casual", "rated", "challenge", "tournament"
ORIGINS = (CASUAL, RATED, CHALLENGE, TOURNAMENT)


class Match(Base):
    """One match of one game.

    ``version`` counts the rows of ``match_events``; ``state_version`` is the version at which the
    engine state last changed (a hidden simultaneous choice bumps ``version`` but not
    ``state_version``, so the other seat's pending ``act`` is not made stale by it).
    ``deadline_at`` is the earliest deadline of any seat that must act (indexed for the sweeper);
    while a computer move is being chosen it holds the end of that claim (see
    :mod:`app.matches.sweeper`). ``origin`` is one of :data:`ORIGINS`; ``origin_ref`` names what the
    match belongs to (a challenge or tournament id), null for casual and rated matches.
    """

    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(40), index=True)
    options: Mapped[dict[str, Any]]
    num_players: Mapped[int]
    status: Mapped[str] = mapped_column(String(16), default=WAITING, index=True)
    seed: Mapped[str] = mapped_column(String(64))
    seed_hash: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(default=0)
    state_version: Mapped[int] = mapped_column(default=0)
    state: Mapped[dict[str, Any] | None]
    pending: Mapped[dict[str, Any]] = mapped_column(default=dict)
    result: Mapped[dict[str, Any] | None]
    deadline_at: Mapped[datetime | None]
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    origin: Mapped[str] = mapped_column(String(16), default=CASUAL, server_default=CASUAL)
    origin_ref: Mapped[str | None] = mapped_column(String(64))

    seats: Mapped[list[MatchSeat]] = relationship(
        back_populates="match", order_by="MatchSeat.seat", lazy="selectin", cascade="all, delete-orphan"
    )

    __table_args__ = (Index("ix_matches_status_deadline", "status", "deadline_at"),)
    # every UPDATE checks the version it loaded (compare-and-set); the service sets it itself
    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}  # noqa: RUF012


class MatchSeat(Base):
    """A seat of a match, held by a user, by a bot (``bot_level``), or still free.

    ``deadline_at``: when this seat must have acted (null when it need not act or the match is
    untimed). ``timeouts_in_row``, ``away`` and ``away_since`` implement computer takeover
    (DESIGN.md section 3): after two timeouts in a row the seat is away and the computer plays it
    at once until the player acts or says "I'm back". ``resigned``: the player gave up and the
    game went on without them (:meth:`Rules.resign` returned ``None``); the computer plays the seat
    at once to the end, and the seat's final result is the player's. ``bank_ms``: a time bank
    match's (``options.clock == "bank"``) bank of this seat in milliseconds when its clock last
    stopped (null: never stopped, the full ``bank_seconds``); while the clock runs the bank is
    ``deadline_at - now`` (:mod:`app.matches.time_control`). Null in a per-turn match.
    """

    __tablename__ = "match_seats"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    bot_level: Mapped[str | None] = mapped_column(String(32))
    joined_at: Mapped[datetime | None]
    deadline_at: Mapped[datetime | None]
    timeouts_in_row: Mapped[int] = mapped_column(default=0)
    away: Mapped[bool] = mapped_column(default=False)
    away_since: Mapped[datetime | None]
    resigned: Mapped[bool] = mapped_column(default=False, server_default=false())
    result: Mapped[str | None] = mapped_column(String(8))
    score: Mapped[float | None]
    bank_ms: Mapped[int | None]

    match: Mapped[Match] = relationship(back_populates="seats")
    user = relationship("User", lazy="selectin")


class MatchEvent(Base):
    """One input to a match, in order: ``(match_id, version)`` is unique, so two writers can never
    both append the same version.

    ``kind`` says where an input came from: ``start``, ``chance``, ``action`` (a person),
    ``bot`` (a computer seat), ``timeout`` (the computer played for a seat whose clock ran out),
    ``back`` (a player took the seat back), ``resign``, ``abandoned``, ``end``. A simultaneous choice is hidden by its
    ``visible_to`` (only its own seat) until the turn resolves.
    ``payload``: ``{"action": <encoded action or null>, "visible_to": [seats] | null,
    "events": [Event.to_json(), ...], ...}``.
    """

    __tablename__ = "match_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    version: Mapped[int]
    seat: Mapped[int | None]
    kind: Mapped[str] = mapped_column(String(16))
    payload: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("match_id", "version", name="uq_match_events_match_version"),)


class MatchResult(Base):
    """One seat's final result, written in the transaction that ends the match (by the rules, a
    resignation, the computer playing a timed-out seat to the end, or abandonment); one row per seat.

    ``user_id`` is null for a computer seat; ``team`` and ``rank`` (1 = best, equal for ties) come
    from the :class:`~app.games.core.Outcome`; ``result`` is ``win``, ``loss`` or ``draw``;
    ``reason`` is the outcome's termination (``flag_captured``, ``resigned``, ``abandoned``...);
    ``computer_finished`` says the computer played the seat at the end (a computer seat, an away
    seat, or a seat whose player resigned while the game went on). Consumers read these rows
    through :mod:`app.matches.results`.
    """

    __tablename__ = "match_results"

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seat: Mapped[int]
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    team: Mapped[int]
    rank: Mapped[int]
    result: Mapped[str] = mapped_column(String(8))
    reason: Mapped[str] = mapped_column(String(40))
    score: Mapped[float | None]
    computer_finished: Mapped[bool]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("match_id", "seat", name="uq_match_results_match_seat"),)


class ResultDelivery(Base):
    """That ``consumer`` (``"ratings"``, ``"clans"``...) has applied the result row of
    ``(match_id, seat)``. Unique per consumer, match and seat, so a row is applied at most once;
    written in the consumer's own transaction with its effect (see :mod:`app.matches.results`)."""

    __tablename__ = "result_deliveries"

    id: Mapped[int] = mapped_column(primary_key=True)
    consumer: Mapped[str] = mapped_column(String(40))
    result_id: Mapped[int] = mapped_column(ForeignKey("match_results.id", ondelete="CASCADE"), index=True)
    match_id: Mapped[int]
    seat: Mapped[int]
    delivered_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        UniqueConstraint("consumer", "match_id", "seat", name="uq_result_deliveries_consumer_match_seat"),
        # a claim's floor: the newest row the consumer applied (app.matches.results)
        Index("ix_result_deliveries_consumer_result", "consumer", "result_id"),
    )


class ServiceHeartbeat(Base):
    """When a server process last said it was running (one row, ``id`` 1; the sweeper writes it
    every few seconds). After a restart the gap since then is downtime, and the deadlines of
    running matches move by it (:mod:`app.matches.heartbeat`), so nobody loses a turn to the
    server."""

    __tablename__ = "service_heartbeat"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime]


#: the states of a rematch offer (``rematch_offers.status``)
OFFER_OPEN, OFFER_ACCEPTED, OFFER_DECLINED = "open", "accepted", "declined"


class RematchOffer(Base):
    """The rematch offer of a finished match: at most one row per match (``match_id`` is unique),
    so a match has at most one live offer (:mod:`app.matches.rematch` decides every change).

    ``status``: ``open`` (waiting for the other people of the match), ``accepted`` (every person
    agreed and ``rematch_id`` is the new match), ``declined`` (a person said no, or the offerer
    withdrew; ``declined_by``; a player may offer again, which reopens the row).
    ``agreed``: the user ids that agreed so far (the offerer first), a JSON list.
    ``rated``: the rematch is rated (every person agreed to a rated match by offering or
    accepting it).
    """

    __tablename__ = "rematch_offers"

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), unique=True)
    status: Mapped[str] = mapped_column(String(16))
    offered_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    agreed: Mapped[list[int]] = mapped_column(JSONType)
    rated: Mapped[bool]
    declined_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    rematch_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class MatchChat(Base):
    """One quick-chat line of a match (issue 16): the seat that said it and the phrase's code
    (one of :data:`app.matches.chat.PHRASES`; free text is never stored or sent). Kept so that a
    page reloaded (or a socket reconnected) shows the recent conversation; written by
    :meth:`app.matches.chat.TableChat.say` and read in ``id`` order."""

    __tablename__ = "match_chat"

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seat: Mapped[int]
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    phrase: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (Index("ix_match_chat_match_id_id", "match_id", "id"),)
