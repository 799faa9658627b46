"""Request bodies of ``/api/clans`` (checked before anything reaches the service, which checks
again): text through :mod:`app.validation`, a tag of 2-6 letters or digits, a colour ``#rrggbb``."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.clans.models import CLAN_NAME_MAX, CLAN_TAG_MAX, CLAN_TAG_MIN, DESCRIPTION_MAX
from app.clans.regions import REGION_MAX, region_codes
from app.clans.wall_models import WALL_POST_MAX
from app.users.models import NAME_MAX
from app.validation import MultilineText, Name, Text

TAG_PATTERN = r"^[A-Za-z0-9]+$"
#: the tags a clan may not take, any case (:data:`app.clans.service.RESERVED_TAGS`: ``/clans/ladder``)
RESERVED_TAG_PATTERN = r"^[Ll][Aa][Dd][Dd][Ee][Rr]$"
COLOUR_PATTERN = r"^#[0-9a-fA-F]{6}$"

ClanName = Annotated[Name, Field(min_length=2, max_length=CLAN_NAME_MAX)]
ClanTag = Annotated[str, Field(min_length=CLAN_TAG_MIN, max_length=CLAN_TAG_MAX, pattern=TAG_PATTERN)]
#: a region's code; the OpenAPI document lists them (``app/clans/regions.yaml``)
RegionCode = Annotated[
    str, Field(min_length=2, max_length=REGION_MAX, json_schema_extra={"enum": sorted(region_codes())})
]
Colour = Annotated[str, Field(pattern=COLOUR_PATTERN, min_length=7, max_length=7)]
#: a clan's description: its lines are kept (the clan page shows them, site.css ``pre-line``)
Description = Annotated[MultilineText, Field(max_length=DESCRIPTION_MAX)]


class ClanIn(BaseModel):
    """``POST /api/clans``: found a clan."""

    model_config = ConfigDict(extra="forbid")

    name: ClanName
    tag: Annotated[ClanTag, Field(json_schema_extra={"not": {"pattern": RESERVED_TAG_PATTERN}})]
    region: RegionCode
    colour: Colour
    description: Description = ""

    @field_validator("tag")
    @classmethod
    def _not_reserved(cls, tag: str) -> str:
        if re.fullmatch(RESERVED_TAG_PATTERN, tag):
            raise ValueError("this tag is reserved")
        return tag


class ClanUpdate(BaseModel):
    """``PATCH /api/clans/{tag}``: the fields to change (missing or null: unchanged)."""

    model_config = ConfigDict(extra="forbid")

    description: Description | None = None
    colour: Colour | None = None
    region: RegionCode | None = None


class InviteIn(BaseModel):
    """``POST /api/clans/{tag}/invitations``: the player to invite, by name (any case)."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[Name, Field(max_length=NAME_MAX)]


class RoleIn(BaseModel):
    """``POST /api/clans/{tag}/members/{user_id}/role``: ``officer`` (promote), ``member``
    (demote) or ``leader`` (hand the leadership over)."""

    model_config = ConfigDict(extra="forbid")

    role: Literal["officer", "member", "leader"]


class WallPostIn(BaseModel):
    """``POST /api/clans/{tag}/wall``: a post of 1-280 characters, not only spaces, no control
    characters (no line breaks)."""

    model_config = ConfigDict(extra="forbid")

    text: Annotated[Text, Field(min_length=1, max_length=WALL_POST_MAX, pattern=r"\S")]
