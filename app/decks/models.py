"""The ``decks`` table."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, utcnow


class Deck(Base):
    """A saved deck of one game: a Stratego Junior setup, a Scratch Wars loadout, ...

    ``data`` is the game's normal form from ``Rules.validate_deck``. Names are unique per user
    and game.
    """

    __tablename__ = "decks"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(String(60))
    data: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("user_id", "game", "name", name="uq_decks_user_game_name"),)
