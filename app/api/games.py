"""``/api/games``: the registered games, their options and computer levels."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.errors import ApiError
from app.games.core import all_games, bot_levels
from app.matches.write import SERVICE_OPTIONS

router = APIRouter(prefix="/api/games", tags=["games"])


def game_info(rules: Any, with_catalog: bool = False) -> dict[str, Any]:
    """Public facts of a game: id, title, players, default options, bot levels (easiest first)."""
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
    if with_catalog and hasattr(rules, "catalog"):
        info["catalog"] = rules.catalog()
    return info


@router.get("")
async def list_games() -> dict[str, Any]:
    """Every game this server plays."""
    return {"games": [game_info(r) for r in all_games().values()]}


@router.get("/{game}")
async def get_game(game: str) -> dict[str, Any]:
    """One game with its card catalog (for drawing cards in the browser)."""
    rules = all_games().get(game)
    if rules is None:
        raise ApiError(404, "not_found", f"no game {game!r}")
    return game_info(rules, with_catalog=True)
