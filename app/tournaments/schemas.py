"""Request bodies of ``/api/tournaments`` (checked before the service, which checks again)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from app.matches.time_control import MAX_TURN_SECONDS, MIN_TURN_SECONDS
from app.tournaments.models import NAME_MAX
from app.tournaments.service import MAX_PLAYERS, MAX_SWISS_ROUNDS
from app.validation import Name

GAMES = ("battle_runes", "stratego_junior", "scratch_wars", "fantasy_duel", "treasure_beasts")


class TournamentIn(BaseModel):
    """``POST /api/tournaments``: a new tournament. ``options``: the game's own options
    (``variant`` for Stratego Junior, ``level`` for Scratch Wars); ``rounds``: Swiss only (0: the
    recommended ``ceil(log2(max_players))``); ``starts_at``: a future time with its time zone."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[Name, Field(min_length=2, max_length=NAME_MAX)]
    game: Literal[GAMES]  # type: ignore[valid-type]
    format: Literal["round_robin", "double_round_robin", "swiss", "knockout"]
    starts_at: AwareDatetime
    max_players: Annotated[int, Field(ge=2, le=MAX_PLAYERS)] = 8
    turn_seconds: Annotated[int, Field(ge=MIN_TURN_SECONDS, le=MAX_TURN_SECONDS)] = 60
    rounds: Annotated[int, Field(ge=0, le=MAX_SWISS_ROUNDS)] = 0
    options: dict[str, Annotated[Any, Field()]] = Field(default_factory=dict, max_length=8)
    clan_only: bool = False
    rated: bool = False
