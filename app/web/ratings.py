"""Ladder and profile pages (issue 12, item 4), server-rendered from :mod:`app.ratings.reads` (the
same data as their JSON twins under ``/api``), with the rating-history chart drawn as inline SVG.

=============================  ===========================================================
``/ladders``                   every rating pool, with a link to its ladder
``/ladders/{pool}?page=N``     a pool's ladder: 50 rows a page, the viewer's row highlighted
``/users/{name}``              a player's profile: rank and chosen title, points and rewards
                               (:mod:`app.points.reads`, ``templates/_points.html``), ratings
                               with a chart, records, recent matches, head-to-head
=============================  ===========================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Annotated, Any

from babel.dates import format_date
from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse
from jinja2 import pass_context
from jinja2.runtime import Context

from app.errors import DomainError
from app.i18n.jinja import ENGLISH, N_, Language
from app.points.reads import player_points
from app.ratings import reads
from app.ratings.pools import POOL_MAX, all_pools
from app.users.deps import OptionalUser, SessionDep
from app.users.models import NAME_MAX
from app.web.games import game_title
from app.web.pages import not_found, render_page, request_language, templates

router = APIRouter(include_in_schema=False)

#: the size of a rating-history chart, in SVG user units (the page scales it to its width)
CHART_W, CHART_H, CHART_PAD = 600, 180, 24
#: Stratego Junior's games, named as each language's rulebook names them (the Czech and Slovak ones
#: keep "Quest" and "Victory", the Hungarian one says "Csata" and "Győzelem"; docs/i18n.md)
_VARIANTS = {"quest": N_("Quest"), "victory": N_("Victory")}


def part_name(part: Mapping[str, Any], language: Language = ENGLISH) -> str | None:
    """The part of a game a pool covers, in ``language``: ``"Quest"`` (``"Csata"`` in Hungarian),
    ``"level 2"`` (``"úroveň 2"``); ``None`` for a whole game."""
    if "variant" in part:
        return language.gettext(_VARIANTS.get(part["variant"], str(part["variant"])))
    if "level" in part:
        return language.gettext(N_("level %(level)s")) % {"level": part["level"]}
    return None


def pool_title(pool: dict[str, Any], language: Language = ENGLISH) -> str:
    """``"Stratego Junior · Quest"``, ``"Scratch Wars · level 2"`` (``"úroveň 2"`` in Czech),
    ``"Battle Runes"`` from :func:`app.ratings.reads.pool_json`, in ``language``."""
    title = game_title(pool["game"])
    part = part_name(pool.get("part") or {}, language)
    return f"{title} · {part}" if part else title


def _context_language(context: Context) -> Language:
    lang = context.get("i18n")
    return lang if isinstance(lang, Language) else ENGLISH


def day(iso: str | None, language: Language = ENGLISH) -> str:
    """An ISO 8601 time as its day in ``language`` (CLDR's medium date, UTC): ``Nov 30, 2026``,
    ``30. 11. 2026``; empty for none."""
    if not iso:
        return ""
    return str(format_date(datetime.fromisoformat(iso), format="medium", locale=language.code))


@pass_context
def _pool_title_filter(context: Context, pool: dict[str, Any]) -> str:
    return pool_title(pool, _context_language(context))


@pass_context
def _day_filter(context: Context, iso: str | None) -> str:
    return day(iso, _context_language(context))


templates.env.filters["pool_title"] = _pool_title_filter
templates.env.filters["day"] = _day_filter


def chart(history: list[dict[str, Any]]) -> dict[str, Any]:
    """The rating-history chart of one pool: ``{"width", "height", "points": [{"x", "y", "rating",
    "at", "match_id", "game"}], "line": "x,y x,y ...", "low", "high"}`` in SVG user units, oldest
    on the left, each point placed by its match's number in the pool (``game``), so a downsampled
    history (:func:`app.ratings.reads._history`) keeps its shape; the y axis spans the lowest to
    the highest rating (at least 100 points of rating tall)."""
    ratings = [p["rating"] for p in history] or [1500]
    low, high = min(ratings), max(ratings)
    if high - low < 100:
        mid = (high + low) / 2
        low, high = round(mid - 50), round(mid + 50)
    span_x = CHART_W - 2 * CHART_PAD
    span_y = CHART_H - 2 * CHART_PAD
    games = [p.get("game", i + 1) for i, p in enumerate(history)]
    first, last = (games[0], games[-1]) if games else (1, 1)
    points = []
    for g, p in zip(games, history, strict=True):
        x = CHART_PAD + (span_x * (g - first) / (last - first) if last > first else span_x / 2)
        y = CHART_PAD + span_y * (high - p["rating"]) / (high - low)
        points.append({"x": round(x, 1), "y": round(y, 1), **p})
    return {
        "width": CHART_W,
        "height": CHART_H,
        "pad": CHART_PAD,
        "points": points,
        "line": " ".join(f"{p['x']},{p['y']}" for p in points),
        "low": low,
        "high": high,
    }


def _now(request: Request) -> Any:
    return request.app.state.matches.clock.now()


@router.get("/ladders", response_class=HTMLResponse)
async def ladders_page(request: Request, user: OptionalUser) -> HTMLResponse:
    """Every rating pool."""
    pools = [reads.pool_json(p) for p in all_pools()]
    return render_page(request, "ladders.html", user, title=N_("Ladders"), pools=pools)


@router.get("/ladders/{pool}", response_class=HTMLResponse)
async def ladder_page(
    request: Request,
    session: SessionDep,
    user: OptionalUser,
    pool: Annotated[str, Path(max_length=POOL_MAX)],
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
    find_me: bool = False,
) -> HTMLResponse:
    """A pool's ladder, one page of 50 (``find_me``: the page the viewer is on)."""
    try:
        viewer = user.id if user else None
        data = await reads.ladder(session, pool, page, viewer, _now(request), find_viewer=find_me)
    except DomainError:
        return not_found(request, user, N_("There is no ladder “%(pool)s”."), pool=pool[:40])
    lang = request_language(request, user)
    title = lang.gettext(N_("%(pool)s ladder")) % {"pool": pool_title(data["pool"], lang)}
    return render_page(request, "ladder.html", user, title=title, ladder=data)


@router.get("/ladders/{pool}/season", response_class=HTMLResponse)
async def season_page(
    request: Request,
    session: SessionDep,
    user: OptionalUser,
    pool: Annotated[str, Path(max_length=POOL_MAX)],
    season: Annotated[str | None, Query(pattern=r"^[0-9]{4}-(0[1-9]|1[0-2])$")] = None,
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
    find_me: bool = False,
) -> HTMLResponse:
    """A pool's season standings by ladder points, one page of 50 (``season``: a month, the current
    one by default; ``find_me``: the page the viewer is on)."""
    try:
        viewer = user.id if user else None
        data = await reads.season_standings(session, pool, season, page, viewer, _now(request), find_viewer=find_me)
    except DomainError:
        return not_found(request, user, N_("There is no ladder “%(pool)s”."), pool=pool[:40])
    lang = request_language(request, user)
    title = lang.gettext(N_("%(pool)s: season %(season)s")) % {
        "pool": pool_title(data["pool"], lang),
        "season": data["season"],
    }
    return render_page(request, "ladder_season.html", user, title=title, standings=data)


@router.get("/users/{name}", response_class=HTMLResponse)
async def profile_page(
    request: Request, session: SessionDep, user: OptionalUser, name: Annotated[str, Path(max_length=NAME_MAX)]
) -> HTMLResponse:
    """A player's profile."""
    try:
        data = await reads.profile(session, name, user.id if user else None, _now(request))
    except DomainError:
        return not_found(request, user, N_("There is no player “%(name)s”."), name=name[:40])
    charts = {r["pool"]["key"]: chart(r["history"]) for r in data["ratings"]}
    points = await player_points(session, name)  # rank, balance, ledger, rewards (templates/_points.html)
    return render_page(
        request,
        "profile.html",
        user,
        title=data["user"]["name"],
        profile=data,
        charts=charts,
        points=points,
        game_titles={r["game"]: game_title(r["game"]) for r in data["records"] + data["recent"]},
    )
