"""Request bodies of ``/api/admin`` (checked before the service, which checks again)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.admin.models import NOTE_MAX
from app.admin.service import ADJUST_MAX
from app.validation import Text

Note = Annotated[Text, Field(max_length=NOTE_MAX)]


class RankIn(BaseModel):
    """``POST /api/admin/users/{name}/rank``: the rank to give (higher: a grant; lower: a revoke)
    and why (kept in the audit, shown to administrators only)."""

    model_config = ConfigDict(extra="forbid")

    rank: Literal["knight", "master", "lord", "leader"]
    note: Note = ""


class PointsIn(BaseModel):
    """``POST /api/admin/users/{name}/points``: points to add (negative: to take away; never 0)
    and why."""

    model_config = ConfigDict(extra="forbid")

    delta: int = Field(ge=-ADJUST_MAX, le=ADJUST_MAX, json_schema_extra={"not": {"const": 0}})
    note: Note = ""

    @field_validator("delta")
    @classmethod
    def _not_zero(cls, value: int) -> int:
        if value == 0:
            raise ValueError("an adjustment moves some points")
        return value
