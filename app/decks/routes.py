"""``/api/decks``: your saved setups and loadouts (thin; see :mod:`app.decks.service`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request, Response

from app.api.openapi import errors
from app.decks import service
from app.decks.schemas import DeckIn, DeckUpdate
from app.matches.schemas import MAX_INT, GameQuery
from app.users.deps import CurrentUser, SessionDep

router = APIRouter(prefix="/api/decks", tags=["decks"])
DeckId = Annotated[int, Path(ge=1, le=MAX_INT)]


@router.get("", openapi_extra=errors())
async def list_decks(session: SessionDep, user: CurrentUser, game: GameQuery = None) -> dict[str, Any]:
    """Your decks, optionally of one game."""
    return {"decks": [service.deck_json(d) for d in await service.list_decks(session, user.id, game)]}


@router.post(
    "",
    status_code=201,
    openapi_extra=errors("not_found", "bad_deck", "name_taken", "too_many_decks", unstated=["bad_deck"]),
)
async def create_deck(body: DeckIn, request: Request, session: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """Save a deck; the game's rules check it (422 ``bad_deck`` with ``params.reason``); 429
    ``too_many_decks`` past ``settings.max_decks_per_user``."""
    limit = request.app.state.settings.max_decks_per_user
    return service.deck_json(await service.create_deck(session, user.id, body.game, body.name, body.data, limit=limit))


@router.get("/{deck_id}", openapi_extra=errors("not_found"))
async def get_deck(deck_id: DeckId, session: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """One of your decks."""
    return service.deck_json(await service.get_deck(session, user.id, deck_id))


@router.put("/{deck_id}", openapi_extra=errors("not_found", "bad_deck", "name_taken", unstated=["bad_deck"]))
async def update_deck(deck_id: DeckId, body: DeckUpdate, session: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """Rename a deck or replace its contents."""
    return service.deck_json(await service.update_deck(session, user.id, deck_id, body.name, body.data))


@router.delete("/{deck_id}", status_code=204, openapi_extra=errors("not_found"))
async def delete_deck(deck_id: DeckId, session: SessionDep, user: CurrentUser) -> Response:
    """Delete one of your decks."""
    await service.delete_deck(session, user.id, deck_id)
    return Response(status_code=204)
