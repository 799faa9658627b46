"""Registry of games by id (after python-chess's ``VARIANTS`` table and OpenSpiel's
``pyspiel.load_game``).

A game registers one :class:`~app.games.core.rules.Rules` object, the bots it offers, and, where
its variants play by different rules (Stratego Junior's Quest and Victory), one ``Rules`` object per
variant chosen by a match option. :func:`get_rules` with a match's options returns the rules that
match plays by.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import BadOptions
from .rules import JSON, Bot, Rules

AnyRules = Rules[Any, Any]
BotFactory = Callable[[], Bot]


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One registered game.

    :param rules: the game's rules (for variants: the default variant's).
    :param bots: bot level -> factory, easiest first.
    :param variant_option: the match option that picks a variant (``"variant"``), or ``None``.
    :param variants: option value -> that variant's rules.
    """

    rules: AnyRules
    bots: Mapping[str, BotFactory] = field(default_factory=dict)
    variant_option: str | None = None
    variants: Mapping[str, AnyRules] = field(default_factory=dict)


_GAMES: dict[str, GameEntry] = {}


def register(
    rules: AnyRules,
    bots: Mapping[str, BotFactory] | None = None,
    *,
    variant_option: str | None = None,
    variants: Mapping[str, AnyRules] | None = None,
) -> AnyRules:
    """Register a game under ``rules.name``.

    :param bots: bot level name -> factory, easiest first, strongest last.
    :param variant_option: with ``variants``, the option whose value picks the rules.
    :param variants: option value -> rules of that variant (each with ``name == rules.name``).
    :returns: ``rules``.
    :raises ValueError: the name is already taken, or a variant has another name.
    """
    if rules.name in _GAMES:
        raise ValueError(f"game {rules.name!r} registered twice")
    for variant in (variants or {}).values():
        if variant.name != rules.name:
            raise ValueError(f"variant of {rules.name!r} is named {variant.name!r}")
    _GAMES[rules.name] = GameEntry(rules, dict(bots or {}), variant_option, dict(variants or {}))
    return rules


def _entry(name: str) -> GameEntry:
    _load_builtin()
    try:
        return _GAMES[name]
    except KeyError:
        raise BadOptions(
            f"unknown game {name!r}; known: {sorted(_GAMES)}", reason="unknown_game", params={"game": name}
        ) from None


def get_rules(name: str, options: Mapping[str, JSON] | None = None) -> AnyRules:
    """The rules of game ``name``; with a match's ``options``, the rules of its variant.

    :raises BadOptions: unknown game id (``reason`` ``unknown_game``, ``game``), or an unknown
        variant (``option_choice``: ``option``, the game's variant option, and ``choices``).
    """
    entry = _entry(name)
    if options is None or entry.variant_option is None or entry.variant_option not in options:
        return entry.rules
    value = options[entry.variant_option]
    try:
        return entry.variants[value]
    except (KeyError, TypeError):
        raise BadOptions(
            f"{name}: unknown {entry.variant_option} {value!r}; known: {sorted(entry.variants)}",
            reason="option_choice",
            params={"option": entry.variant_option, "choices": sorted(entry.variants)},
        ) from None


def game_variants(name: str) -> dict[str, AnyRules]:
    """Variant value -> rules for game ``name`` (empty when it has one set of rules)."""
    return dict(_entry(name).variants)


def all_games() -> dict[str, AnyRules]:
    """Every registered game, by id (each game's default rules)."""
    _load_builtin()
    return {name: entry.rules for name, entry in _GAMES.items()}


def bot_levels(name: str) -> list[str]:
    """The bot levels game ``name`` offers, easiest first."""
    return list(_entry(name).bots)


def make_bot(name: str, level: str | None = None) -> Bot:
    """A new bot for game ``name`` at ``level`` (default: the strongest).

    :raises BadOptions: unknown game (``reason`` ``unknown_game``) or level (``computer_level``:
        ``level``, ``levels``), or a game without a computer player (``no_computer``, ``game``).
    """
    bots = _entry(name).bots
    if not bots:
        raise BadOptions(f"game {name!r} has no computer player", reason="no_computer", params={"game": name})
    if level is None:
        level = list(bots)[-1]
    if level not in bots:
        raise BadOptions(
            f"unknown bot level {level!r} for {name!r}; known: {list(bots)}",
            reason="computer_level",
            params={"level": level, "levels": list(bots)},
        )
    return bots[level]()


_loaded = False


def _load_builtin() -> None:
    """Import every game package under ``app/games`` once; each registers itself on import.

    A package that fails to import fails every later call too (never a registry silently missing
    the games after it).
    """
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib
    import pkgutil

    import app.games as games

    try:
        for info in sorted(pkgutil.iter_modules(games.__path__), key=lambda i: i.name):
            if info.ispkg and info.name != "core":
                importlib.import_module(f"app.games.{info.name}")
    except BaseException:
        _loaded = False
        raise
