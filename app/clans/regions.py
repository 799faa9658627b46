"""The regions a clan belongs to (issue 13, item 1), as data: ``regions.yaml`` beside this module,
checked by a schema when first read. The 14 Czech kraje and 8 Slovak kraje by their ISO 3166-2
codes (``"CZ-64"``, ``"SK-BL"``), and ``"other"``. Clans, and later the regional ladders, store the
code; the pages show the name.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

REGIONS_FILE = Path(__file__).with_name("regions.yaml")
#: longest region code (``"CZ-10"``, ``"other"``)
REGION_MAX = 8


class Region(BaseModel):
    """One region: ``code`` (stored), ``country`` (``CZ``, ``SK`` or ``other``), ``name`` (shown)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    code: str = Field(min_length=2, max_length=REGION_MAX, pattern=r"^(CZ-\d\d|SK-[A-Z]{2}|other)$")
    country: Literal["CZ", "SK", "other"]
    name: str = Field(min_length=1, max_length=60)


@lru_cache
def all_regions() -> tuple[Region, ...]:
    """Every region, in the order the pages list them.

    :raises ValueError: the data file breaks the schema or repeats a code.
    """
    raw = yaml.safe_load(REGIONS_FILE.read_text(encoding="utf-8"))
    regions = tuple(TypeAdapter(list[Region]).validate_python(raw))
    codes = [r.code for r in regions]
    if len(set(codes)) != len(codes):
        raise ValueError(f"{REGIONS_FILE.name} repeats a region code")
    return regions


def region_codes() -> frozenset[str]:
    """The codes of :func:`all_regions`."""
    return frozenset(r.code for r in all_regions())


def region_name(code: str) -> str:
    """The name shown for region ``code``; the code itself for an unknown one."""
    return next((r.name for r in all_regions() if r.code == code), code)
