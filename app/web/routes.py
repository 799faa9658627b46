"""Server-rendered pages (Jinja2). Thin: the pages call the JSON API and the websocket from the
browser; the match page loads the shared client (``static/js/match_client.js``) and the game's
ES module. Every game-specific part (module, stylesheets, rules template, deck editor, extra
pages, lobby options, labels) is declared in ``app/web/games/<game>.py``; this module is generic
over them, and a game without such a module gets the generic pages.

=============================  ===========================================================
``/``                          what the site is, the games, links
``/signup``, ``/login``        forms that call ``/api/auth/register|login`` (``?next=`` kept)
``/lobby``                     matches being played ("Live now", to watch), open matches; logged
                               in: your matches and "create a match"; a visitor: a sign-up prompt
``/matches/{id}``              the match page (players and spectators)
``/matches/{id}/replay``       steps through a match (a running one as the viewer saw it; says so for an aborted one)
``/games/{game}``              a game's rules summary and card catalog
``/decks``                     your saved setups, per game with an editor (login needed)
``/decks/{game}``              that game's deck editor (``GameWeb.deck_editor``)
``/ladders``, ``/ladders/{p}``  the rating pools, a pool's ladder (:mod:`app.web.ratings`)
``/users/{name}``              a player's profile (:mod:`app.web.ratings`)
``/clans``, ``/clans/{tag}``    the clans, a clan's page (:mod:`app.web.clans`)
``/tournaments``               the tournaments (:mod:`app.web.tournaments`)
``/tournaments/{id}``          a tournament: pairings, match links, standings
``/rewards``                   the rewards catalogue: buy, show, manage (:mod:`app.web.rewards`)
=============================  ===========================================================
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.api.games import game_info
from app.errors import DomainError, ErrorCode
from app.games.core import all_games, bot_levels
from app.i18n.jinja import ENGLISH, N_, Language
from app.matches.schemas import MatchId
from app.matches.time_control import DEFAULT_BANK_SECONDS, DEFAULT_INCREMENT_SECONDS
from app.users.deps import OptionalUser
from app.web.challenges import router as challenge_pages
from app.web.clan_ladder import router as clan_ladder_pages
from app.web.clans import router as clan_pages
from app.web.games import declared_parts, game_data, game_title, translated_options, web_parts
from app.web.pages import login_redirect, not_found, render_page, request_language
from app.web.ratings import router as ratings_pages
from app.web.rewards import router as reward_pages
from app.web.tournaments import router as tournament_pages

router = APIRouter(include_in_schema=False)

#: turn times the lobby offers, in seconds (0 = untimed, only against a person)
TURN_CHOICES = (30, 60, 120, 0)
#: a time bank's base and increment (seconds) the lobby offers (app/matches/time_control.py)
BANK_CHOICES = (10, 30, 60, 180, 300, 600, 900, 1800, 3600, 86400, 3 * 86400)
INCREMENT_CHOICES = (0, 1, 2, 3, 5, 10, 15, 30, 60, 3600)


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


def _games(language: Language = ENGLISH) -> list[dict[str, Any]]:
    """The games for the home page and the lobby: ``/api/games``'s facts (players, default
    ``options``, bot levels) and the web parts the pages use (summary, links, the options the
    lobby offers and how a listed match shows them, in ``language``, each with its declared order)."""
    out = []
    for rules in all_games().values():
        web = web_parts(rules.name)
        out.append(
            {
                **game_info(rules),
                "default_turn_seconds": getattr(rules, "default_turn_seconds", 60),
                "summary": web.summary,
                "links": [asdict(link) for link in web.links],
                **translated_options(web, language.gettext),
                # the declared orders (the page's JSON has its keys sorted)
                "lobby_option_order": list(web.lobby_options),
                "option_tag_order": list(web.option_tags),
                "team_mode_order": list(web.team_modes),
            }
        )
    return out


@router.get("/", response_class=HTMLResponse)
async def home(request: Request, user: OptionalUser) -> HTMLResponse:
    return render_page(
        request, "home.html", user, title="Tabletop Arena", games=_games(request_language(request, user))
    )


@router.get("/signup", response_class=HTMLResponse)
async def signup(request: Request, user: OptionalUser, next: str | None = None) -> HTMLResponse:
    return render_page(request, "auth.html", user, title="Sign up", mode="signup", next=safe_next(next))


@router.get("/login", response_class=HTMLResponse)
async def login(request: Request, user: OptionalUser, next: str | None = None) -> HTMLResponse:
    return render_page(request, "auth.html", user, title="Log in", mode="login", next=safe_next(next))


@router.get("/lobby", response_class=HTMLResponse)
async def lobby(request: Request, user: OptionalUser) -> Response:
    """The lobby; read only for a visitor (the lists, a sign-up prompt instead of create and join)."""
    return render_page(
        request,
        "lobby.html",
        user,
        title=N_("Lobby"),
        games=_games(request_language(request, user)),
        turn_choices=TURN_CHOICES,
        bank_choices=BANK_CHOICES,
        increment_choices=INCREMENT_CHOICES,
        default_bank=DEFAULT_BANK_SECONDS,
        default_increment=DEFAULT_INCREMENT_SECONDS,
    )


async def _match_info(request: Request, match_id: int) -> dict[str, Any] | None:
    """The public match info (``MatchService.get_match``), or ``None`` when there is no such match.

    :raises DomainError: any other refusal of the service.
    """
    try:
        info: dict[str, Any] = await request.app.state.matches.get_match(match_id)
    except DomainError as exc:
        if exc.code == ErrorCode.NOT_FOUND:
            return None
        raise
    return info


def _page_game_data(game: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """:func:`game_data` of a registered game; only the id and title of one no longer registered."""
    if game not in all_games():
        return {"id": game, "title": game, "catalog": {}, "labels": {}}
    return game_data(game, options)


async def _match_view_page(request: Request, match_id: int, user: Any, template: str, title: str) -> HTMLResponse:
    """A page about one match (live or replay) that loads the game's ES module and embeds
    ``game-data`` (catalog, geometry, labels of the match's variant); ``title`` is a msgid with
    ``%(game)s`` and ``%(id)s``."""
    info = await _match_info(request, match_id)
    if info is None:
        return not_found(request, user, N_("There is no match %(id)s."), id=match_id)
    game = info["game"]
    web = web_parts(game)
    settings = getattr(request.app.state, "settings", None)
    return render_page(
        request,
        template,
        user,
        title=request_language(request, user).gettext(title) % {"game": game_title(game), "id": match_id},
        match=info,
        game_title=game_title(game),
        module=web.module,
        game_css=web.css,
        expiry_seconds=getattr(settings, "waiting_expiry_seconds", None),
        game_data=_page_game_data(game, info.get("options")),
    )


@router.get("/matches/{match_id}", response_class=HTMLResponse)
async def match_page(request: Request, match_id: MatchId, user: OptionalUser) -> HTMLResponse:
    """The live match page (players and spectators)."""
    return await _match_view_page(request, match_id, user, "match.html", N_("%(game)s · match %(id)s"))


@router.get("/matches/{match_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, match_id: MatchId, user: OptionalUser) -> HTMLResponse:
    """Step through a match (``#step=N`` in the address): a finished one with everything revealed,
    a running one as the viewer's seat saw it (static/js/replay.js, ``MatchReads.replay``)."""
    return await _match_view_page(request, match_id, user, "replay.html", N_("Replay · match %(id)s"))


@router.get("/games", response_class=HTMLResponse)
async def games_page(request: Request, user: OptionalUser) -> HTMLResponse:
    """Every installed game, with a link to its rules and to the lobby (the header's "Rules")."""
    return render_page(request, "games.html", user, title=N_("Games"), games=_games(request_language(request, user)))


@router.get("/games/{game}", response_class=HTMLResponse)
async def game_page(request: Request, game: str, user: OptionalUser) -> HTMLResponse:
    """A game's rules page: its own template, or the generic one."""
    rules = all_games().get(game)
    if rules is None:
        return not_found(request, user, N_("There is no game “%(game)s”."), game=game[:40])
    web = web_parts(game)
    context: dict[str, Any] = {"catalog": rules.catalog() if callable(getattr(rules, "catalog", None)) else {}}
    if web.rules_context is not None:
        context.update(web.rules_context(rules))
    return render_page(
        request,
        web.rules_template,
        user,
        title=request_language(request, user).gettext(N_("%(game)s rules")) % {"game": game_title(game)},
        game={"id": game, "title": game_title(game)},
        bot_levels=bot_levels(game),
        defaults=dict(getattr(rules, "default_options", {}) or {}),
        game_css=web.css,
        deck_editor=web.deck_editor,
        game_data=game_data(game),
        **context,
    )


#: the link to a deck editor by what one deck is called there (``DeckEditor.item``)
DECK_LINKS = {"setup": N_("Your setups"), "loadout": N_("Your loadouts")}


def _deck_games() -> list[dict[str, Any]]:
    """The registered games with a deck editor: ``{"id", "game_title", "title", "item", "link"}``
    (``link``: the msgid of the link's text)."""
    registered = all_games()
    return [
        {
            "id": game,
            "game_title": game_title(game),
            "title": web.deck_editor.title,
            "item": web.deck_editor.item,
            "link": DECK_LINKS.get(web.deck_editor.item, web.deck_editor.title),
        }
        for game, web in declared_parts().items()
        if web.deck_editor is not None and game in registered
    ]


@router.get("/decks", response_class=HTMLResponse)
async def decks_page(request: Request, user: OptionalUser) -> Response:
    """Your saved decks and setups, per game that has an editor."""
    if user is None:
        return login_redirect(request)
    return render_page(request, "decks.html", user, title=N_("My setups"), deck_games=_deck_games())


@router.get("/decks/{game}", response_class=HTMLResponse)
async def game_decks_page(request: Request, game: str, user: OptionalUser) -> Response:
    """List, create, rename and delete your saved decks of one game (its editor)."""
    editor = web_parts(game).deck_editor
    if editor is None or game not in all_games():
        return not_found(request, user, N_("There is no deck editor for “%(game)s”."), game=game[:40])
    if user is None:
        return login_redirect(request)
    return render_page(
        request,
        editor.template,
        user,
        title=editor.title,
        game={"id": game, "title": game_title(game)},
        game_css=web_parts(game).css,
        spec={"title": editor.title, "item": editor.item},
        game_data=game_data(game),
    )


@router.get("/favicon.ico")
async def favicon() -> RedirectResponse:
    """Browsers ask for ``/favicon.ico`` whatever the page's ``<link rel="icon">`` says: the
    site's icon is ``/static/favicon.svg``."""
    return RedirectResponse("/static/favicon.svg", status_code=301)


router.include_router(ratings_pages)
router.include_router(clan_ladder_pages)  # before /clans/{tag}: /clans/ladder
router.include_router(clan_pages)
router.include_router(tournament_pages)
router.include_router(reward_pages)
router.include_router(challenge_pages)

for _web in declared_parts().values():
    if _web.router is not None:
        router.include_router(_web.router)
