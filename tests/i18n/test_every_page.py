"""Issue 15's "a test walks every page in every language": every page the site serves (each GET
route answering HTML, and the 404 page) is walked in every language by one of the page walks of
this folder (``test_no_english*.py``), each of which lists the pages it walks in ``ROUTES`` (route
paths as the app declares them; a page per game is listed per game). A new page fails here until
a walk covers it."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator

from fastapi.responses import HTMLResponse
from fastapi.routing import APIRoute

import tests.i18n
from app.games.core import all_games
from app.main import create_app
from app.web.games import declared_parts

#: pages that are not the players' site: the API's reference for developers (Swagger UI, English
#: like the API it documents)
NOT_PLAYERS_PAGES = {"/docs", "/docs/oauth2-redirect"}
#: the page every unknown address answers with (templates/not_found.html)
NOT_FOUND = "404"


def _routes(routes) -> Iterator[APIRoute]:
    for r in routes:
        if type(r).__name__ == "_IncludedRouter":  # FastAPI keeps included routers as they are
            yield from _routes(r.original_router.routes)
        elif isinstance(r, APIRoute):
            yield r


def html_pages() -> set[str]:
    """Every page of the site: the route paths answering HTML to a GET, a page per game spelled
    per game, and the 404 page."""
    app = create_app()
    games = sorted(all_games())
    editors = sorted(g for g, web in declared_parts().items() if web.deck_editor is not None and g in games)
    pages = {NOT_FOUND}
    for route in _routes(app.routes):
        if "GET" not in route.methods or route.path in NOT_PLAYERS_PAGES:
            continue
        if route.response_class is not HTMLResponse:
            continue
        if route.path == "/games/{game}":
            pages.update(f"/games/{g}" for g in games)
        elif route.path == "/decks/{game}":
            pages.update(f"/decks/{g}" for g in editors)
        else:
            pages.add(route.path)
    return pages


def walked_pages() -> dict[str, str]:
    """The pages the walks of this folder cover, each with the module that walks it."""
    walked: dict[str, str] = {}
    for info in pkgutil.iter_modules(tests.i18n.__path__):
        if not re.fullmatch(r"test_no_english\w*", info.name):
            continue
        module = importlib.import_module(f"tests.i18n.{info.name}")
        for path in getattr(module, "ROUTES", ()):
            walked[path] = info.name
    return walked


def test_every_page_is_walked_in_every_language():
    missing = sorted(html_pages() - set(walked_pages()))
    assert not missing, f"pages no walk of tests/i18n covers: {missing}"


def test_the_walks_list_only_pages_that_exist():
    """A walk's ROUTES names real pages, so the check above cannot be met by a typo."""
    unknown = {path: module for path, module in walked_pages().items() if path not in html_pages()}
    assert not unknown, unknown


def test_the_page_list_knows_the_site():
    pages = html_pages()
    assert {"/", "/lobby", "/games/battle_runes", "/games/treasure_beasts", "/clans/{tag}", NOT_FOUND} <= pages
    assert "/decks/scratch_wars" in pages and "/api/matches" not in pages
