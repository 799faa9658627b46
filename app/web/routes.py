"""Server-rendered pages (Jinja2). Thin: the pages call the JSON API and the websocket from the
browser; the match page loads the shared client (``static/js/match_client.js``) and the game's
ES module (``static/js/games/<game>.js``).

=============================  ===========================================================
``/``                          what the site is, the games, links
``/signup``, ``/login``        forms that call ``/api/auth/register|login`` (``?next=`` kept)
``/lobby``                     open matches, your matches, "create a match" (login needed)
``/matches/{id}``              the match page (players and spectators)
``/matches/{id}/replay``       steps through a finished match (says so for an aborted one)
``/games/{game}``              a game's rules summary and card catalog
``/decks``                     your saved setups, per game with an editor (login needed)
``/decks/{game}``              list, create, rename and delete them (Stratego Junior setups)
=============================  ===========================================================
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from app.api.games import game_info
from app.games.core import all_games, bot_levels
from app.matches.errors import MatchError
from app.matches.schemas import MatchId
from app.settings import ROOT
from app.users.deps import OptionalUser

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=str(ROOT / "templates"))

_RUNE_SHORT = {
    "FIRE": "Fire", "WATER": "Water", "ZERO": "Zero", "DOUBLE_S": "×2 S", "DOUBLE_R": "×2 R", "DIFF_S": "Δ S",
    "DIFF_R": "Δ R", "SWAP_SELF": "S ⇄ R", "SWAP_OPP": "S ⇄ R opp", "SWAP_S": "S ⇄ S", "SWAP_R": "R ⇄ R",
    "SWAP_ALL": "Total ⇄",
}


def rune_label(rune_id: str) -> str:
    """The short face of a Battle Runes rune, as static/js/games/battle_runes.js draws it:
    ``S1P5`` -> ``S1+5``, ``S1PR`` -> ``S1+R``, ``DOUBLE_S`` -> ``×2 S``."""
    if rune_id in _RUNE_SHORT:
        return _RUNE_SHORT[rune_id]
    head, _, bonus = rune_id.partition("P")
    return f"{head}+{bonus}" if bonus else head


def duration(seconds: int | None) -> str:
    """``3600`` -> ``1 hour``, ``5400`` -> ``90 minutes``, ``45`` -> ``45 seconds`` (as
    static/js/match_client.js's ``formatDuration``)."""
    if not seconds:
        return "a while"
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds % size == 0:
            n = seconds // size
            return f"{n} {unit}{'' if n == 1 else 's'}"
    return f"{seconds} seconds"


templates.env.filters["rune_label"] = rune_label
templates.env.filters["duration"] = duration

#: games that have their own ES module under static/js/games/; others use the generic one
GAME_MODULES = {"battle_runes", "stratego_junior", "scratch_wars"}
#: extra stylesheets of a game's pages (match, replay, rules, decks)
GAME_CSS = {"stratego_junior": ("/static/css/stratego.css",), "scratch_wars": ("/static/css/scratch_wars.css",)}
#: games whose saved decks have an editor page at /decks/{game}: the page's title and what one
#: deck is called there
DECK_EDITORS = {"stratego_junior": {"title": "Stratego Junior setups", "item": "setup"},
                "scratch_wars": {"title": "Scratch Wars loadouts", "item": "loadout"}}
#: turn times the lobby offers, in seconds (0 = untimed, only against a person)
TURN_CHOICES = (30, 60, 120, 0)


def safe_next(value: str | None, default: str = "/lobby") -> str:
    """A local path to go to after logging in; anything else gives ``default``.

    Refused: other hosts, scheme-relative ``//x``, backslashes, and any control character or
    space (browsers drop tabs and newlines, so ``/\t/evil.example`` would become ``//evil.example``).
    """
    if (
        not value
        or not value.startswith("/")
        or value.startswith("//")
        or "\\" in value
        or any(ord(ch) < 0x21 or ord(ch) == 0x7F for ch in value)
        or urlsplit(value).netloc
    ):
        return default
    return value


def _login_redirect(request: Request) -> RedirectResponse:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(f"/login?next={quote(target, safe='/')}", status_code=303)


def _games() -> list[dict[str, Any]]:
    """The games for the home page and the lobby, with their default ``options`` (as
    ``/api/games`` gives them), so the lobby can show how an open match differs from them."""
    out = []
    for rules in all_games().values():
        out.append({
            "id": rules.name,
            "title": getattr(rules, "title", rules.name),
            "min_players": rules.min_players,
            "max_players": rules.max_players,
            "bot_levels": bot_levels(rules.name),
            "default_turn_seconds": getattr(rules, "default_turn_seconds", 60),
            "options": game_info(rules)["options"],
        })
    return out


def _page(request: Request, name: str, user: Any, status_code: int = 200, **context: Any) -> HTMLResponse:
    ctx = {"user": {"id": user.id, "name": user.name} if user is not None else None, **context}
    return templates.TemplateResponse(request, name, ctx, status_code=status_code)


def _not_found(request: Request, user: Any, message: str) -> HTMLResponse:
    return _page(request, "not_found.html", user, status_code=404, title="Not found", message=message)


@router.get("/", response_class=HTMLResponse)
async def home(request: Request, user: OptionalUser) -> HTMLResponse:
    return _page(request, "home.html", user, title="Tabletop Arena", games=_games())


@router.get("/signup", response_class=HTMLResponse)
async def signup(request: Request, user: OptionalUser, next: str | None = None) -> HTMLResponse:
    return _page(request, "auth.html", user, title="Sign up", mode="signup", next=safe_next(next))


@router.get("/login", response_class=HTMLResponse)
async def login(request: Request, user: OptionalUser, next: str | None = None) -> HTMLResponse:
    return _page(request, "auth.html", user, title="Log in", mode="login", next=safe_next(next))


@router.get("/lobby", response_class=HTMLResponse)
async def lobby(request: Request, user: OptionalUser) -> Response:
    if user is None:
        return _login_redirect(request)
    return _page(request, "lobby.html", user, title="Lobby", games=_games(), turn_choices=TURN_CHOICES)


async def _match_info(request: Request, match_id: int) -> dict[str, Any] | None:
    try:
        return await request.app.state.matches.get_match(match_id)
    except MatchError as exc:
        if exc.code == "not_found":
            return None
        raise


def _game_title(game: str) -> str:
    rules = all_games().get(game)
    return getattr(rules, "title", game) if rules is not None else game


async def _match_view_page(
    request: Request, match_id: int, user: Any, template: str, title: str
) -> HTMLResponse:
    """A page about one match (live or replay) that loads the game's ES module."""
    info = await _match_info(request, match_id)
    if info is None:
        return _not_found(request, user, f"There is no match {match_id}.")
    game = info["game"]
    module = game if game in GAME_MODULES else "generic"
    settings = getattr(request.app.state, "settings", None)
    return _page(
        request, template, user, title=title.format(game=_game_title(game), id=match_id), match=info,
        game_title=_game_title(game), module=f"/static/js/games/{module}.js",
        expiry_seconds=getattr(settings, "waiting_expiry_seconds", None), game_css=GAME_CSS.get(game, ()),
    )


@router.get("/matches/{match_id}", response_class=HTMLResponse)
async def match_page(request: Request, match_id: MatchId, user: OptionalUser) -> HTMLResponse:
    """The live match page (players and spectators)."""
    return await _match_view_page(request, match_id, user, "match.html", "{game} · match {id}")


@router.get("/matches/{match_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, match_id: MatchId, user: OptionalUser) -> HTMLResponse:
    """Step through a finished match."""
    return await _match_view_page(request, match_id, user, "replay.html", "Replay · match {id}")


@router.get("/games/{game}", response_class=HTMLResponse)
async def game_page(request: Request, game: str, user: OptionalUser) -> HTMLResponse:
    rules = all_games().get(game)
    if rules is None:
        return _not_found(request, user, f"There is no game {game!r}.")
    catalog = rules.catalog() if hasattr(rules, "catalog") else []
    if isinstance(catalog, dict) and game != "scratch_wars":  # {"runes": [...]} (Battle Runes) or {"cards": [...]};
        # Scratch Wars keeps its {"heroes", "weapons", ...}
        catalog = next(iter(catalog.values()), []) if len(catalog) == 1 else catalog.get("runes", [])
    template = f"games/{game}.html" if game in GAME_MODULES else "games/generic.html"
    return _page(
        request, template, user, title=f"{_game_title(game)} rules", game={"id": game, "title": _game_title(game)},
        catalog=catalog, bot_levels=bot_levels(game), defaults=dict(getattr(rules, "default_options", {}) or {}),
        game_css=GAME_CSS.get(game, ()), deck_editor=DECK_EDITORS.get(game),
    )


def _deck_games() -> list[dict[str, Any]]:
    return [{"id": game, "game_title": _game_title(game), **spec} for game, spec in DECK_EDITORS.items()
            if game in all_games()]


@router.get("/decks", response_class=HTMLResponse)
async def decks_page(request: Request, user: OptionalUser) -> Response:
    """Your saved decks and setups, per game that has an editor."""
    if user is None:
        return _login_redirect(request)
    return _page(request, "decks.html", user, title="My setups", deck_games=_deck_games())


@router.get("/decks/{game}", response_class=HTMLResponse)
async def game_decks_page(request: Request, game: str, user: OptionalUser) -> Response:
    """List, create, rename and delete your saved decks of one game (its placement editor)."""
    if game not in DECK_EDITORS or game not in all_games():
        return _not_found(request, user, f"There is no deck editor for {game!r}.")
    if user is None:
        return _login_redirect(request)
    spec = DECK_EDITORS[game]
    return _page(request, f"decks/{game}.html", user, title=spec["title"],
                 game={"id": game, "title": _game_title(game)}, game_css=GAME_CSS.get(game, ()), spec=spec)


from app.web.scratch_wars import router as _scratch_wars_router  # noqa: E402  (its pages use _page)

router.include_router(_scratch_wars_router)
