"""The clan wall's table (issue 13, item 7): ``clan_wall_posts``, short messages of a clan's
players on its page. A removed post keeps its row (``removed_at``, ``removed_by_id``: the author,
an officer, the leader or an administrator) and no page shows it again."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, utcnow

#: longest wall post, in characters
WALL_POST_MAX = 280


class ClanWallPost(Base):
    """One post on ``clan_id``'s wall by ``author_id`` (NULL once that account is gone): ``text``
    (1-280 characters, stored as written; every page escapes it) at ``at``."""

    __tablename__ = "clan_wall_posts"

    id: Mapped[int] = mapped_column(primary_key=True)
    clan_id: Mapped[int] = mapped_column(ForeignKey("clans.id", ondelete="CASCADE"))
    author_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    text: Mapped[str] = mapped_column(String(WALL_POST_MAX))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    removed_at: Mapped[datetime | None]
    removed_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))

    __table_args__ = (Index("ix_clan_wall_posts_clan_id_id", "clan_id", "id"),)
