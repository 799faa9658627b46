"""Clan pages (issue 13, item 7: the clan part), server-rendered from :mod:`app.clans.reads` (the
same data as their JSON twins under ``/api/clans``); the buttons and forms call that API from
``static/js/clans.js`` and show its errors in the words of ``static/js/messages.js``.

=============================  ===========================================================
``/clans?q=&region=&page=N``   the clans (search by name or tag, region filter, 20 a page);
                               your clan and invitations; the form to found one
``/clans/{tag}``               a clan: members with roles, what you may do, its history; for
                               its leader and officers the management section
=============================  ===========================================================

Words players read come from codes here: regions by :func:`app.clans.regions.region_name`, roles
and history codes by the templates (``templates/clan.html``); every name a player wrote is escaped
by Jinja2's autoescaping. Every word is in the page's language (docs/i18n.md): the regions keep
their own names (the Czech and Slovak kraje), only "Other" is translated.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from jinja2 import pass_context
from jinja2.runtime import Context

from app.clans import reads
from app.clans.regions import REGION_MAX, region_name
from app.errors import DomainError
from app.i18n.jinja import ENGLISH, N_, Language
from app.users.deps import OptionalUser, SessionDep
from app.web.challenges import clan_context as challenge_context
from app.web.clan_ladder import clan_section
from app.web.pages import not_found, render_page, templates

router = APIRouter(include_in_schema=False)

#: the name of region ``"other"`` (app/clans/regions.yaml): the one region name that is a word
#: rather than a place's own name, so the only one translated
OTHER_REGION = N_("Other")


def shown_region_name(code: str, lang: Language = ENGLISH) -> str:
    """Region ``code``'s name as a page in ``lang`` shows it: a kraj's own name, "Other" translated."""
    name = region_name(code)
    return lang.gettext(name) if code == "other" else name


@pass_context
def _region_name_filter(context: Context, code: str) -> str:
    lang = context.get("i18n")
    return shown_region_name(code, lang if isinstance(lang, Language) else ENGLISH)


templates.env.filters["region_name"] = _region_name_filter


@router.get("/clans", response_class=HTMLResponse)
async def clans_page(
    request: Request,
    session: SessionDep,
    user: OptionalUser,
    q: Annotated[str, Query(max_length=40)] = "",
    region: Annotated[str, Query(max_length=REGION_MAX)] = "",
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
) -> HTMLResponse:
    """The clan list with search, region filter and pages; your clan or the form to found one."""
    try:
        listing = await reads.list_clans(session, q=q, region=region or None, page=page)
    except DomainError:  # an unknown region: show every region instead
        listing = await reads.list_clans(session, q=q, page=page)
    mine = await reads.my_clan(session, user.id) if user else None
    return render_page(
        request, "clans.html", user, title=N_("Clans"), listing=listing, mine=mine, regions=reads.regions_json()
    )


@router.get("/clans/{tag}", response_class=HTMLResponse)
async def clan_page(request: Request, session: SessionDep, user: OptionalUser, tag: str) -> HTMLResponse:
    """One clan's page."""
    try:
        data = await reads.clan_page(session, tag[:20], user.id if user else None)
    except DomainError:
        return not_found(request, user, N_("There is no clan “%(tag)s”."), tag=tag[:20])
    return render_page(
        request,
        "clan.html",
        user,
        title=f"{data['clan']['name']} [{data['clan']['tag']}]",
        page=data,
        limit=request.app.state.settings.clan_max_members,
        regions=reads.regions_json(),
        clan_ladder=await clan_section(session, data["clan"]["id"], user.id if user else None),
        **await challenge_context(request, session, data["clan"]["id"], user),
    )
