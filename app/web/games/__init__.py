"""Per-game web parts: what each game's pages load and show, declared in one place per game.

A game with pages of its own has a module ``app/web/games/<game>.py`` that defines ``WEB``, a
:class:`GameWeb`: its ES module for the match and replay pages, its stylesheets, its rules page
template, its deck editor, its extra pages (a card gallery), its home-page summary, the options
the lobby offers, and how the labels of its pieces or cards are derived from its catalog. The
modules are found the way the engines are (every module of this package is imported once);
:func:`web_parts` gives the declared parts of a game, or the generic ones (the generic ES module
and rules page) for a game that has none, so a newly registered engine gets pages at once.

:func:`game_data` is the JSON the pages embed (``<script id="game-data">``): the catalog, the
board geometry and the labels come from the server, never from a copy in JavaScript.

Modules here may import ``app.games``, ``app.web.pages`` and this package, never ``app.web.routes``
(which imports them).
"""

from __future__ import annotations

import contextlib
import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter

from app.games.core import BadOptions, all_games, get_rules

GENERIC_MODULE = "/static/js/games/generic.js"
GENERIC_RULES = "games/generic.html"

#: catalog (as ``Rules.catalog()`` gives it) -> item id -> short label
LabelsFn = Callable[[Mapping[str, Any]], Mapping[str, str]]
#: the game's default rules -> extra context of its rules page
RulesContextFn = Callable[[Any], Mapping[str, Any]]


@dataclass(frozen=True, slots=True)
class Link:
    """A link a game adds to its home-page card: ``text``, ``href``, HTML ``id`` (may be empty)."""

    text: str
    href: str
    id: str = ""


@dataclass(frozen=True, slots=True)
class DeckEditor:
    """A game's saved-deck editor at ``/decks/<game>``.

    :param title: the page's title (``"Stratego Junior setups"``).
    :param item: what one deck is called there (``"setup"``, ``"loadout"``).
    :param template: the page's Jinja2 template (it loads the editor's script).
    """

    title: str
    item: str
    template: str


@dataclass(frozen=True, slots=True)
class GameWeb:
    """The web parts of one game. Every field but ``game`` has a generic default.

    :param game: the game id (``Rules.name``).
    :param module: URL of the ES module drawing a snapshot (match and replay pages).
    :param css: URLs of extra stylesheets of the game's pages.
    :param rules_template: the template of ``/games/<game>``.
    :param deck_editor: the ``/decks/<game>`` editor, or ``None``.
    :param router: extra pages of the game (e.g. a card gallery), or ``None``.
    :param links: extra links on the game's home-page card (gallery, decks).
    :param summary: one paragraph for the home page ("" for none).
    :param lobby_options: game option key -> how the lobby's form offers it:
        ``{"label", "type": "number" | "select" | "checkbox", "min"?, "choices"?: [[value, text]],
        "show_if"?: {other key: value}}``; only options the game has are shown.
    :param option_tags: game option key -> how a match list shows its value (when it differs
        from the default, or always with ``"always": true``), in this order: a template
        ``"first to {value}"``, or ``{"values": {str(value): text}, "else"?: template, "always"?:
        bool}`` (``str(value)`` of a boolean is ``"true"``/``"false"``).
    :param team_modes: the team layouts the lobby offers for the game's ``teams`` option (one
        team number per seat), besides free-for-all (the option's default): mode id ->
        ``{"label": "2 vs 2", "teams": [0, 1, 0, 1]}``; a mode is offered when its ``teams`` has one
        entry per seat of the match being created.
    :param labels: derives the short label of each catalog item (piece names, rune faces).
    :param rules_context: extra context of the rules page, from the game's rules.
    """

    game: str
    module: str = GENERIC_MODULE
    css: tuple[str, ...] = ()
    rules_template: str = GENERIC_RULES
    deck_editor: DeckEditor | None = None
    router: APIRouter | None = None
    links: tuple[Link, ...] = ()
    summary: str = ""
    lobby_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    option_tags: Mapping[str, str | Mapping[str, Any]] = field(default_factory=dict)
    team_modes: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    labels: LabelsFn | None = None
    rules_context: RulesContextFn | None = None


_PARTS: dict[str, GameWeb] = {}
_loaded = False


def _load() -> None:
    """Import every module of this package once and collect its ``WEB``.

    :raises ValueError: two modules declare the same game, or a module's ``WEB`` is no GameWeb.
    """
    global _loaded
    if _loaded:
        return
    found: dict[str, GameWeb] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        web = getattr(module, "WEB", None)
        if not isinstance(web, GameWeb):
            raise ValueError(f"{module.__name__} must define WEB = GameWeb(...)")
        if web.game in found:
            raise ValueError(f"web parts of {web.game!r} declared twice")
        found[web.game] = web
    _PARTS.update(found)
    _loaded = True


def declared_parts() -> dict[str, GameWeb]:
    """The games that declare web parts, by id (whether or not their engine is registered)."""
    _load()
    return dict(_PARTS)


def web_parts(game: str) -> GameWeb:
    """The web parts of ``game``: its declared ones, or the generic ones (never raises)."""
    _load()
    return _PARTS.get(game) or GameWeb(game)


def game_title(game: str) -> str:
    """The game's display title (``Rules.title``), or its id for an unknown game."""
    rules = all_games().get(game)
    return getattr(rules, "title", game) if rules is not None else game


def game_data(game: str, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What a game's pages need from the server, as JSON.

    ``{"id", "title", "catalog": {...}, "geometry": {...} (games with a board), "labels": {item
    id: short label}}``. With a match's ``options``, the rules of its variant give them.

    :raises KeyError: ``game`` is not registered.
    """
    rules = all_games()[game]
    if options:
        with contextlib.suppress(BadOptions):  # an unknown variant: the default rules
            rules = get_rules(game, options)
    catalog = rules.catalog() if callable(getattr(rules, "catalog", None)) else {}
    data: dict[str, Any] = {"id": game, "title": getattr(rules, "title", game), "catalog": catalog}
    geometry = getattr(rules, "geometry", None)
    if callable(geometry):
        data["geometry"] = geometry()
    labels = web_parts(game).labels
    data["labels"] = dict(labels(catalog)) if labels is not None else {}
    return data


def _tag_text(spec: Any, gettext: Callable[[str], str]) -> Any:
    """An ``option_tags`` entry with its texts (marked ``N_()``) in the language of ``gettext``;
    ``{value}`` stays for the page to fill."""
    if isinstance(spec, str):
        return gettext(spec)
    out = dict(spec)
    if "values" in spec:
        out["values"] = {k: gettext(v) for k, v in spec["values"].items()}
    if "else" in spec:
        out["else"] = gettext(spec["else"])
    return out


def translated_options(web: GameWeb, gettext: Callable[[str], str]) -> dict[str, Any]:
    """The lobby's view of ``web``'s options in the language of ``gettext`` (issue 15): the labels
    and choice texts of ``lobby_options``, the texts of ``option_tags`` (``{value}`` kept: the page
    fills it), the labels of ``team_modes``. The texts are English msgids marked ``N_()`` where
    they are declared; the keys and values stay codes."""
    lobby = {}
    for key, spec in web.lobby_options.items():
        entry = dict(spec)
        entry["label"] = gettext(spec["label"])
        if "choices" in spec:
            entry["choices"] = [[value, gettext(text)] for value, text in spec["choices"]]
        lobby[key] = entry
    return {
        "lobby_options": lobby,
        "option_tags": {k: _tag_text(v, gettext) for k, v in web.option_tags.items()},
        "team_modes": {k: {"label": gettext(v["label"]), "teams": list(v["teams"])} for k, v in web.team_modes.items()},
    }


def option_text(game: str, key: str, value: Any, gettext: Callable[[str], str] = str) -> str:
    """How a match list shows the game's option ``key`` = ``value`` (``option_tags``), in the
    language of ``gettext`` (as static/js/lobby.js's ``optionText``)."""
    spec = web_parts(game).option_tags.get(key)
    shown = str(value).lower() if isinstance(value, bool) else str(value)
    if isinstance(spec, str):
        return gettext(spec).replace("{value}", shown)
    if isinstance(spec, Mapping):
        values = spec.get("values", {})
        if shown in values:
            return gettext(values[shown])
        if spec.get("else"):
            return gettext(spec["else"]).replace("{value}", shown)
    return f"{key.replace('_', ' ')}: {shown}"
