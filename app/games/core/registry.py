"""Registry of games by id (after python-chess's ``VARIANTS`` table and OpenSpiel's
``pyspiel.load_game``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import BadOptions

_GAMES: dict[str, Any] = {}
_BOTS: dict[str, dict[str, Callable[[], Any]]] = {}


def register(rules: Any, bots: dict[str, Callable[[], Any]] | None = None) -> Any:
    """Register a :class:`~app.games.core.rules.Rules` instance under ``rules.name``.

    :param bots: bot level name -> factory, strongest last; the first is the easy level.
    :raises ValueError: the name is already taken.
    """
    if rules.name in _GAMES:
        raise ValueError(f"game {rules.name!r} registered twice")
    _GAMES[rules.name] = rules
    _BOTS[rules.name] = dict(bots or {})
    return rules


def get_rules(name: str) -> Any:
    """The rules of game ``name``.

    :raises BadOptions: unknown game id.
    """
    _load_builtin()
    try:
        return _GAMES[name]
    except KeyError:
        raise BadOptions(f"unknown game {name!r}; known: {sorted(_GAMES)}") from None


def all_games() -> dict[str, Any]:
    """Every registered game, by id."""
    _load_builtin()
    return dict(_GAMES)


def bot_levels(name: str) -> list[str]:
    """The bot levels game ``name`` offers, easiest first."""
    _load_builtin()
    return list(_BOTS.get(name, {}))


def make_bot(name: str, level: str | None = None) -> Any:
    """A new bot for game ``name`` at ``level`` (default: the strongest).

    :raises BadOptions: unknown game or level.
    """
    _load_builtin()
    bots = _BOTS.get(name) or {}
    if not bots:
        raise BadOptions(f"game {name!r} has no computer player")
    if level is None:
        level = list(bots)[-1]
    if level not in bots:
        raise BadOptions(f"unknown bot level {level!r} for {name!r}; known: {list(bots)}")
    return bots[level]()


_loaded = False


def _load_builtin() -> None:
    """Import every game package under ``app/games`` once; each registers itself on import."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib
    import pkgutil

    import app.games as games

    for info in sorted(pkgutil.iter_modules(games.__path__), key=lambda i: i.name):
        if info.ispkg and info.name != "core":
            importlib.import_module(f"app.games.{info.name}")
