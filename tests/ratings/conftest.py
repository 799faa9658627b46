"""Fixtures for ratings: the match service's ``env`` (SQLite and PostgreSQL) and rated matches that
end by resignation."""

from __future__ import annotations

from typing import Any

from tests.service.conftest import Env, env  # noqa: F401  (the fixture, shared)


async def finish_rated(
    e: Env, winner: int, loser: int, game: str = "battle_runes", options: dict[str, Any] | None = None, **kw: Any
) -> int:
    """A two-seat match between users ``winner`` and ``loser`` (ids) that ``loser`` resigns.

    :returns: the match id.
    """
    opts = {"rated": True, "turn_seconds": 60, **(options or {})}
    info = await e.service.create_match(winner, game, opts, **kw)
    if info["status"] == "waiting":
        await e.service.join(info["id"], loser)
    await e.service.resign(info["id"], loser)
    assert (await e.service.get_match(info["id"]))["status"] == "finished"
    return int(info["id"])
