"""The ``decks`` table."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, utcnow

#: longest deck name, in characters (after NFKC)
DECK_NAME_MAX = 60


class Deck(Base):
    """A saved deck of one game: a Stratego Junior setup, a Scratch Wars loadout, ...

    ``data`` is the game's normal form from ``Rules.validate_deck``. ``name`` is stored NFKC-normalised
    and trimmed; names are unique per user and game ignoring letter case (``name_key``,
    :func:`app.users.names.name_key`, which case folding may make up to three times longer).
    """

    __tablename__ = "decks"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(String(DECK_NAME_MAX))
    name_key: Mapped[str] = mapped_column(String(3 * DECK_NAME_MAX))
    data: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("user_id", "game", "name_key", name="uq_decks_user_game_name_key"),)
