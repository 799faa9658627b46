"""Request bodies of the match routes (pydantic)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Path, Query
from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError

from app.validation import Integer, integral_floats

#: the largest id or version the database columns hold (32-bit signed integers)
MAX_INT = 2**31 - 1
#: a match id in a URL; larger numbers are refused with 422 before they reach the database
MatchId = Annotated[int, Path(ge=1, le=MAX_INT)]
#: a version in a query string
VersionQuery = Annotated[int, Query(ge=0, le=MAX_INT)]
#: how many live matches to list
LiveQuery = Annotated[int, Query(ge=1, le=100)]


def check_game(value: str | None) -> str | None:
    """``value`` when it is a registered game's id (or None).

    :raises PydanticCustomError: ``unknown_game`` (``ctx``: ``{"game"}``), which the API answers
        with 422 ``validation_error``; the OpenAPI document lists the games as an enum.
    """
    from app.games.core import all_games

    if value is not None and value not in all_games():
        raise PydanticCustomError("unknown_game", "no game {game}", {"game": value})
    return value


#: a filter by game in a query string: a registered game's id
GameQuery = Annotated[str | None, AfterValidator(check_game), Query(max_length=40)]


class ComputerSeat(BaseModel):
    """A seat for the computer: ``level`` is a difficulty (``easy``, ``medium``, ``hard``) or one
    of the game's bot levels by name (``GET /api/games``: ``bot_levels``, easiest first); default
    ``medium`` (``app/games/core/levels.py``). Numbers are JSON integers here and below (:data:`app.validation.Integer`): ``true`` is not
    seat 1, ``1.0`` is."""

    model_config = ConfigDict(extra="forbid")  # a misspelt field is refused, not ignored

    seat: Integer = Field(ge=0, le=7)
    level: str | None = None


class CreateMatch(BaseModel):
    """``POST /api/matches``. ``options`` holds the clock (``turn_seconds``, 0 = untimed, only
    without computer seats; or ``clock: "bank"`` with ``bank_seconds`` and ``increment_seconds``:
    :mod:`app.matches.time_control`), ``spectators``, ``rated`` (true: a rated match) and the game's
    own options (``variant`` where the game has variants)."""

    model_config = ConfigDict(extra="forbid")  # a misspelt field is refused, not ignored

    game: str = Field(min_length=1, max_length=40)
    options: Annotated[dict[str, Any], AfterValidator(integral_floats)] = Field(default_factory=dict)
    players: Integer | None = Field(default=None, ge=1, le=8)
    computer: list[ComputerSeat] = Field(default_factory=list, max_length=8)
    seat: Integer | None = Field(default=None, ge=0, le=7)


class JoinBody(BaseModel):
    """``POST /api/matches/{id}/join`` (the body is optional): ``accept_rated`` agrees to a rated
    match between a bot account and a person (docs/bots.md)."""

    model_config = ConfigDict(extra="forbid")  # a misspelt field is refused, not ignored

    accept_rated: bool = Field(default=False, strict=True)


class ActBody(BaseModel):
    """``POST /api/matches/{id}/act``: the HTTP twin of the websocket ``act`` frame."""

    model_config = ConfigDict(extra="forbid")  # a misspelt field is refused, not ignored

    action: Any
    version: Integer = Field(ge=0, le=MAX_INT)


class RematchBody(BaseModel):
    """``POST /api/matches/{id}/rematch`` (the body is optional): ``rated`` asks for a rated
    rematch (default: rated when the match was); it is rated only if every player agrees."""

    model_config = ConfigDict(extra="forbid")  # a misspelt field is refused, not ignored

    rated: bool | None = Field(default=None, strict=True)
