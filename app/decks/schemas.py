"""Request and response bodies of the deck routes. Names follow :data:`app.validation.Name`
(no control characters, trimmed, not blank: 422 ``validation_error`` otherwise)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from app.validation import Name, Text


class DeckIn(BaseModel):
    """A deck to save: ``data`` is the game's deck payload (see the game's ``validate_deck``;
    the OpenAPI document gives its shape per game). A deck of the right shape can still break a
    rule JSON Schema cannot state, and is refused with 422 ``bad_deck``: a Stratego Junior setup
    must hold exactly one side's castles, a Scratch Wars loadout no weapon name twice (rule 3.1: two different axes are fine)."""

    game: Text = Field(min_length=1, max_length=40)
    name: Name = Field(max_length=60)
    data: dict[str, Any]


class DeckUpdate(BaseModel):
    """A rename and/or new contents (checked by the deck's game, as :class:`DeckIn`)."""

    name: Name | None = Field(default=None, max_length=60)
    data: dict[str, Any] | None = None
