"""Request bodies of ``/api/rewards`` (checked before the service, which checks again)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.rewards.models import CODE_MAX, CODE_PATTERN, COST_MAX

Kind = Literal["board_theme", "card_back", "emblem", "title"]
Code = Annotated[str, Field(min_length=2, max_length=CODE_MAX, pattern=CODE_PATTERN)]
Cost = Annotated[int, Field(ge=1, le=COST_MAX)]


class RewardIn(BaseModel):
    """``POST /api/rewards``: a new reward (administrators)."""

    model_config = ConfigDict(extra="forbid")

    code: Code
    kind: Kind
    cost: Cost


class RewardUpdate(BaseModel):
    """``PATCH /api/rewards/{code}``: a new cost, on or off sale (missing or null: unchanged)."""

    model_config = ConfigDict(extra="forbid")

    cost: Cost | None = None
    active: bool | None = None


class EquipIn(BaseModel):
    """``POST /api/users/me/equipped``: show the owned reward ``code`` as your ``kind`` (null: none)."""

    model_config = ConfigDict(extra="forbid")

    kind: Kind
    code: Code | None = None
