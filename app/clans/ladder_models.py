"""Clan ladder tables (issue 13, item 4): ``ladder_months`` (each month the ladder has known: when
it opened and when its close finished), ``ladder_closes`` (one row per month and region whose close
is done: the job's exactly-once marker, written in the transaction that awards the region's
trophies) and ``clan_trophies`` (gold, silver, bronze per region and month).

Exactly once is a key, not only a check: ``clan_trophies`` is unique per ``(region, month,
place)`` and ``ladder_closes`` per ``(month, region)``, so a second close of a region that slipped
past the lock fails on the key and rolls back whole (its bonus points with it).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.clans.regions import REGION_MAX
from app.db.base import Base, utcnow

#: ``"YYYY-MM"``
MONTH_LEN = 7
#: the places that win a trophy: 1 gold, 2 silver, 3 bronze
TROPHY_PLACES = (1, 2, 3)


class LadderMonth(Base):
    """A ladder month (``"YYYY-MM"``, UTC): ``opened_at`` when the month-close job first saw it
    (it "starts" the month), ``closed_at`` when every region's close of it was done (NULL while it
    is the current month or its close is under way)."""

    __tablename__ = "ladder_months"

    month: Mapped[str] = mapped_column(String(MONTH_LEN), primary_key=True)
    opened_at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[datetime | None]


class LadderClose(Base):
    """The close of one region's ladder for one month is done: its trophies (``trophies``: how
    many, 0-3) and bonus points were written in the same transaction as this row."""

    __tablename__ = "ladder_closes"

    month: Mapped[str] = mapped_column(
        String(MONTH_LEN), ForeignKey("ladder_months.month", ondelete="CASCADE"), primary_key=True
    )
    region: Mapped[str] = mapped_column(String(REGION_MAX), primary_key=True)
    trophies: Mapped[int] = mapped_column(default=0)
    closed_at: Mapped[datetime] = mapped_column(default=utcnow)


class ClanTrophy(Base):
    """A trophy: ``clan_id`` was ``place`` (1 gold, 2 silver, 3 bronze) of ``region``'s ladder in
    ``month`` with ``score`` ladder points; ``bonus`` is the clan ladder points it brought in the
    next month. One per ``(region, month, place)``."""

    __tablename__ = "clan_trophies"

    id: Mapped[int] = mapped_column(primary_key=True)
    clan_id: Mapped[int] = mapped_column(ForeignKey("clans.id", ondelete="CASCADE"))
    region: Mapped[str] = mapped_column(String(REGION_MAX))
    month: Mapped[str] = mapped_column(String(MONTH_LEN))
    place: Mapped[int]
    score: Mapped[int]
    bonus: Mapped[int] = mapped_column(default=0)
    at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        UniqueConstraint("region", "month", "place", name="uq_clan_trophies_place"),
        CheckConstraint("place BETWEEN 1 AND 3", name="place_podium"),
        Index("ix_clan_trophies_clan_id_month", "clan_id", "month"),
        Index("ix_clan_trophies_month", "month"),
    )
