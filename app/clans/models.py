"""Clan tables: ``clans``, ``clan_members`` (a player's one clan and role), ``clan_invitations``
(pending invitations from a clan and join requests to it) and ``clan_history`` (every change, as
a code and its parameters).

One clan per player is a key, not only a check: ``clan_members.user_id`` is the primary key. Clan
names and tags are unique ignoring letter case (``name_key``, ``tag_key``: lowercase, unique); a
name mixing scripts may not pass for another clan's (``name_skeleton``, :mod:`app.users.names`). A
disbanded clan keeps its row and history but gives up its keys and skeleton (set to NULL), so its
name and tag may be taken again.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.clans.regions import REGION_MAX
from app.db.base import Base, utcnow

#: longest clan name, tag and description, in characters
CLAN_NAME_MAX = 40
CLAN_TAG_MIN, CLAN_TAG_MAX = 2, 6
DESCRIPTION_MAX = 500


class Role(StrEnum):
    """A member's role: one ``leader``, any number of ``officer``s, the rest ``member``s."""

    LEADER = "leader"
    OFFICER = "officer"
    MEMBER = "member"


class InvitationKind(StrEnum):
    """``invite``: the clan asked the player; ``request``: the player asked the clan."""

    INVITE = "invite"
    REQUEST = "request"


class Clan(Base):
    """A clan. ``colour`` is the emblem colour ``#rrggbb``; ``region`` a code of
    :mod:`app.clans.regions`; ``members`` the number of ``clan_members`` rows (kept with them, under
    the clan's row lock, so the member limit is checked without counting); ``disbanded_at`` is set
    when the clan is disbanded (``name_key``, ``name_skeleton`` and ``tag_key`` are then NULL)."""

    __tablename__ = "clans"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(CLAN_NAME_MAX))
    name_key: Mapped[str | None] = mapped_column(String(3 * CLAN_NAME_MAX), unique=True)
    name_skeleton: Mapped[str | None] = mapped_column(String(3 * CLAN_NAME_MAX), index=True)
    tag: Mapped[str] = mapped_column(String(CLAN_TAG_MAX))
    tag_key: Mapped[str | None] = mapped_column(String(CLAN_TAG_MAX), unique=True)
    region: Mapped[str] = mapped_column(String(REGION_MAX), index=True)
    description: Mapped[str] = mapped_column(String(DESCRIPTION_MAX), default="")
    colour: Mapped[str] = mapped_column(String(7))
    members: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    disbanded_at: Mapped[datetime | None]


class ClanMember(Base):
    """A player in a clan, with their ``role`` (:class:`Role`). The primary key ``user_id`` makes
    one clan per player a rule of the database."""

    __tablename__ = "clan_members"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    clan_id: Mapped[int] = mapped_column(ForeignKey("clans.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(8))
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)


class ClanInvitation(Base):
    """A pending invitation (``kind`` ``invite``, sent by ``by_user_id``, an officer or the leader)
    or join request (``kind`` ``request``, by the player). At most one per clan and player;
    accepting or declining deletes it (the history keeps what happened)."""

    __tablename__ = "clan_invitations"

    id: Mapped[int] = mapped_column(primary_key=True)
    clan_id: Mapped[int] = mapped_column(ForeignKey("clans.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(8))
    by_user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("clan_id", "user_id", name="uq_clan_invitations_clan_user"),)


class ClanHistory(Base):
    """One change to a clan: ``code`` (``founded``, ``joined``, ``promoted``, ...; the list is
    :data:`app.clans.service.HISTORY_CODES`) and ``params`` (JSON: the values the page needs to say
    it, players as ``{"id", "name"}``), by ``actor_id`` (NULL once that account is gone), at ``at``."""

    __tablename__ = "clan_history"

    id: Mapped[int] = mapped_column(primary_key=True)
    clan_id: Mapped[int] = mapped_column(ForeignKey("clans.id", ondelete="CASCADE"))
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    code: Mapped[str] = mapped_column(String(24))
    params: Mapped[dict[str, Any]] = mapped_column(default=dict)
    at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (Index("ix_clan_history_clan_id_id", "clan_id", "id"),)


class ClanPoints(Base):
    """One credit (or debit) of a clan's ladder points in a month (``"YYYY-MM"``, UTC): a won
    challenge series, a month's trophy bonus, ... ``reason`` and ``ref`` name what caused it and are
    the row's idempotency key with the clan (unique), so a job that runs twice credits once.
    ``params`` holds what a page needs to say it. A clan's standing in a month adds its rows of that
    month (and its members' ladder points, :mod:`app.ratings`)."""

    __tablename__ = "clan_points"

    id: Mapped[int] = mapped_column(primary_key=True)
    clan_id: Mapped[int] = mapped_column(ForeignKey("clans.id", ondelete="CASCADE"))
    month: Mapped[str] = mapped_column(String(7))
    points: Mapped[int]
    reason: Mapped[str] = mapped_column(String(24))
    ref: Mapped[str] = mapped_column(String(64))
    params: Mapped[dict[str, Any]] = mapped_column(default=dict)
    at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        UniqueConstraint("clan_id", "reason", "ref", name="uq_clan_points_once"),
        Index("ix_clan_points_month_clan_id", "month", "clan_id"),
    )
