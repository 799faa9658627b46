"""Clan ladder pages and the clan page's ladder section (issue 13, item 7), server-rendered from
:mod:`app.clans.ladder` and :mod:`app.clans.wall` (the same data as their JSON twins,
:mod:`app.api.clan_ladder`).

=====================================  ====================================================
``/clans/ladder?month=&page=``         every region's clans together, by score this month
                                       (or a past month, with the trophies each won)
``/clans/ladder/{region}?month=&page=``  one region's ladder; a closed month shows its podium
=====================================  ====================================================

:func:`clan_section` is what ``templates/_clan_ladder.html`` shows on a clan page: the score this
month and the place in the region, the trophy cabinet and the wall. These routes are included
before ``/clans/{tag}`` (``ladder`` is a reserved tag, :data:`app.clans.service.RESERVED_TAGS`).
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

from babel.dates import format_skeleton
from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import pass_context
from jinja2.runtime import Context

from app.clans import ladder, reads, wall
from app.clans.months import is_month, month_start
from app.clans.regions import REGION_MAX, region_codes
from app.i18n.jinja import ENGLISH, N_, Language
from app.i18n.locales import DEFAULT_LOCALE
from app.users.deps import OptionalUser, SessionDep
from app.web.pages import not_found, render_page, templates

router = APIRouter(include_in_schema=False)

Page = Annotated[int, Query(ge=1, le=100_000)]
Month = Annotated[str, Query(max_length=20)]


def month_title(month: str, locale: str = DEFAULT_LOCALE) -> str:
    """``"2026-11"`` as ``"November 2026"`` in ``locale`` (Babel's CLDR month and year: ``listopad
    2026``, ``2026. november``; the code itself when malformed)."""
    if not is_month(month):
        return month
    return str(format_skeleton("yMMMM", month_start(month).date(), locale=locale))


@pass_context
def _month_title_filter(context: Context, month: str) -> str:
    lang = context.get("i18n")
    return month_title(month, (lang if isinstance(lang, Language) else ENGLISH).code)


templates.env.filters["month_title"] = _month_title_filter


async def clan_section(session: Any, clan_id: int, viewer_id: int | None) -> dict[str, Any]:
    """The clan page's ladder section: ``{"standing": ladder.clan_standing, "trophies":
    ladder.clan_trophies, "wall": wall.wall}``."""
    return {
        "standing": await ladder.clan_standing(session, clan_id),
        "trophies": await ladder.clan_trophies(session, clan_id),
        "wall": await wall.wall(session, clan_id, viewer_id),
    }


async def _ladder_page(
    request: Request, session: Any, user: Any, region: str | None, month: str, page: int
) -> HTMLResponse:
    data = await ladder.standings(session, month if is_month(month) else None, region, page)
    return render_page(
        request,
        "clan_ladder.html",
        user,
        title=N_("Clan ladder"),
        ladder=data,
        regions=reads.regions_json(),
    )


@router.get("/clans/ladder", response_class=HTMLResponse)
async def overall_page(
    request: Request,
    session: SessionDep,
    user: OptionalUser,
    month: Month = "",
    page: Page = 1,
    region: Annotated[str, Query(max_length=REGION_MAX)] = "",
) -> Response:
    """Every region's clans together (a malformed month shows this month). The page's picker
    sends ``region`` here: a known one redirects to its ladder."""
    if region in region_codes():
        target = f"/clans/ladder/{quote(region)}" + (f"?month={month}" if is_month(month) else "")
        return RedirectResponse(target, status_code=303)
    return await _ladder_page(request, session, user, None, month, page)


@router.get("/clans/ladder/{region}", response_class=HTMLResponse)
async def region_page(
    request: Request, session: SessionDep, user: OptionalUser, region: str, month: Month = "", page: Page = 1
) -> HTMLResponse:
    """One region's ladder (404 for an unknown region)."""
    if len(region) > REGION_MAX or region not in region_codes():
        return not_found(request, user, N_("There is no region “%(region)s”."), region=region[:20])
    return await _ladder_page(request, session, user, region, month, page)
