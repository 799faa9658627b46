"""``/api/games``: the registered games, their options and computer levels."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.openapi import errors
from app.errors import DomainError, ErrorCode
from app.games.core import all_games, bot_levels
from app.matches.write import SERVICE_OPTIONS

router = APIRouter(prefix="/api/games", tags=["games"])


def game_info(rules: Any, with_catalog: bool = False) -> dict[str, Any]:
    """Public facts of a game: ``{"id", "title", "min_players", "max_players", "options" (the
    defaults, service options included), "bot_levels" (easiest first)}``; ``with_catalog`` adds
    ``"catalog"`` (``Rules.catalog()``) and, for a game on a board, ``"geometry"``
    (``Rules.geometry()``: rows, columns, ...), so pages draw from the server's data."""
    info = {
        "id": rules.name,
        "title": rules.title,
        "min_players": rules.min_players,
        "max_players": rules.max_players,
        "options": {
            **dict(rules.default_options),
            **SERVICE_OPTIONS,
            "turn_seconds": getattr(rules, "default_turn_seconds", SERVICE_OPTIONS["turn_seconds"]),
        },
        "bot_levels": bot_levels(rules.name),
    }
    if with_catalog:
        if callable(getattr(rules, "catalog", None)):
            info["catalog"] = rules.catalog()
        if callable(getattr(rules, "geometry", None)):
            info["geometry"] = rules.geometry()
    return info


@router.get("", openapi_extra=errors(database=False))
async def list_games() -> dict[str, Any]:
    """Every game this server plays."""
    return {"games": [game_info(r) for r in all_games().values()]}


@router.get("/{game}", openapi_extra=errors("not_found", database=False))
async def get_game(game: str) -> dict[str, Any]:
    """One game with its catalog (and board geometry), for drawing it in the browser.

    :raises DomainError: ``not_found`` (``params.game``) for an unknown game (HTTP 404).
    """
    rules = all_games().get(game)
    if rules is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"no game {game!r}", params={"game": game})
    return game_info(rules, with_catalog=True)
