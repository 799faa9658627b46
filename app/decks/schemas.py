"""Request and response bodies of the deck routes."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class DeckIn(BaseModel):
    """A deck to save: ``data`` is the game's deck payload (see the game's ``validate_deck``)."""

    game: str = Field(min_length=1, max_length=40)
    name: str = Field(min_length=1, max_length=60)
    data: dict[str, Any]


class DeckUpdate(BaseModel):
    """A rename and/or new contents."""

    name: str | None = Field(default=None, min_length=1, max_length=60)
    data: dict[str, Any] | None = None
