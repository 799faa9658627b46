"""Request and response bodies of the deck routes. Names follow :data:`app.validation.Name`
(no control characters, trimmed, not blank: 422 ``validation_error`` otherwise)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from app.validation import Name, Text


class DeckIn(BaseModel):
    """A deck to save: ``data`` is the game's deck payload (see the game's ``validate_deck``)."""

    game: Text = Field(min_length=1, max_length=40)
    name: Name = Field(max_length=60)
    data: dict[str, Any]


class DeckUpdate(BaseModel):
    """A rename and/or new contents."""

    name: Name | None = Field(default=None, max_length=60)
    data: dict[str, Any] | None = None
