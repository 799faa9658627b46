"""Request bodies of the match routes (pydantic)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Path, Query
from pydantic import BaseModel, Field

#: the largest id or version the database columns hold (32-bit signed integers)
MAX_INT = 2**31 - 1
#: a match id in a URL; larger numbers are refused with 422 before they reach the database
MatchId = Annotated[int, Path(ge=1, le=MAX_INT)]
#: a version in a query string
VersionQuery = Annotated[int, Query(ge=0, le=MAX_INT)]


class ComputerSeat(BaseModel):
    """A seat for the computer: ``level`` is one of the game's bot levels (default: strongest)."""

    seat: int = Field(ge=0, le=7)
    level: str | None = None


class CreateMatch(BaseModel):
    """``POST /api/matches``. ``options`` holds ``turn_seconds`` (0 = untimed, only without computer
    seats), ``spectators``, ``rated`` (true: a rated match) and the game's own options (``variant``
    where the game has variants)."""

    game: str = Field(min_length=1, max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    players: int | None = Field(default=None, ge=1, le=8)
    computer: list[ComputerSeat] = Field(default_factory=list, max_length=8)
    seat: int | None = Field(default=None, ge=0, le=7)


class ActBody(BaseModel):
    """``POST /api/matches/{id}/act``: the HTTP twin of the websocket ``act`` frame."""

    action: Any
    version: int = Field(ge=0, le=MAX_INT)
