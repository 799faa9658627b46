"""Request bodies of the challenge routes (checked before anything reaches the service, which
checks again): a clan tag, a game and its options (the match service's own check follows), 1-10
boards, a deadline in hours from now, a side and a player's name."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from app.clans.challenges.models import MAX_BOARDS, MIN_BOARDS
from app.clans.schemas import ClanTag
from app.users.models import NAME_MAX
from app.validation import Integer, Name, integral_floats

#: the deadline's bounds, in hours from now (the service's: one hour to 30 days)
MIN_DEADLINE_HOURS, MAX_DEADLINE_HOURS = 1, 30 * 24


class ChallengeIn(BaseModel):
    """``POST /api/clans/{tag}/challenges``: challenge the clan ``opponent`` (a tag) to ``boards``
    matches of ``game`` with ``options`` (as ``POST /api/matches`` takes them: ``turn_seconds``,
    which must not be 0 here, ``rated``, ``spectators``, the game's own such as ``variant``),
    unplayed boards forfeited ``deadline_hours`` from now."""

    model_config = ConfigDict(extra="forbid")

    opponent: ClanTag
    game: str = Field(min_length=1, max_length=40)
    options: Annotated[dict[str, Any], AfterValidator(integral_floats)] = Field(default_factory=dict)
    boards: Integer = Field(ge=MIN_BOARDS, le=MAX_BOARDS)
    deadline_hours: Integer = Field(ge=MIN_DEADLINE_HOURS, le=MAX_DEADLINE_HOURS)


class PlayerIn(BaseModel):
    """``POST /api/challenges/{id}/boards/{board}/player``: name the player called ``name`` (a
    player of that side's clan) for ``side`` on the board."""

    model_config = ConfigDict(extra="forbid")

    side: Literal["challenger", "challenged"]
    name: Annotated[Name, Field(max_length=NAME_MAX)]
