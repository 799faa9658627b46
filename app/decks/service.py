"""Deck storage. Every deck is validated by its game's ``Rules.validate_deck`` before it is stored."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.errors import ApiError
from app.db.base import utcnow
from app.decks.models import Deck
from app.games.core import GameError, all_games


def deck_json(deck: Deck) -> dict[str, Any]:
    """The API form of a deck."""
    return {
        "id": deck.id, "game": deck.game, "name": deck.name, "data": deck.data,
        "created_at": deck.created_at.isoformat(), "updated_at": deck.updated_at.isoformat(),
    }


def validate(game: str, data: dict[str, Any]) -> dict[str, Any]:
    """The game's normal form of ``data``.

    :raises ApiError: 404 ``not_found`` for an unknown game, 422 ``bad_deck`` for a deck the
        game's rules refuse (the message says why).
    """
    rules = all_games().get(game)
    if rules is None:
        raise ApiError(404, "not_found", f"no game {game!r}")
    try:
        return rules.validate_deck(data)
    except GameError as exc:
        raise ApiError(422, "bad_deck", str(exc)) from None


async def list_decks(session: AsyncSession, user_id: int, game: str | None = None) -> list[Deck]:
    """A user's decks, by game then name."""
    stmt = select(Deck).where(Deck.user_id == user_id).order_by(Deck.game, Deck.name)
    if game:
        stmt = stmt.where(Deck.game == game)
    return list((await session.execute(stmt)).scalars())


async def get_deck(session: AsyncSession, user_id: int, deck_id: int) -> Deck:
    """One of the user's decks. :raises ApiError: 404 when missing or someone else's."""
    deck = await session.get(Deck, deck_id)
    if deck is None or deck.user_id != user_id:
        raise ApiError(404, "not_found", f"no deck {deck_id}")
    return deck


async def save(session: AsyncSession, deck: Deck) -> Deck:
    """Flush and commit. :raises ApiError: 409 ``name_taken`` for a duplicate name."""
    try:
        await session.commit()
    except IntegrityError:
        await session.rollback()
        raise ApiError(409, "name_taken", f"you already have a {deck.game} deck named {deck.name!r}") from None
    return deck


async def create_deck(session: AsyncSession, user_id: int, game: str, name: str, data: dict[str, Any]) -> Deck:
    """Validate and store a new deck."""
    deck = Deck(user_id=user_id, game=game, name=name.strip(), data=validate(game, data))
    session.add(deck)
    return await save(session, deck)


async def update_deck(
    session: AsyncSession, user_id: int, deck_id: int, name: str | None, data: dict[str, Any] | None
) -> Deck:
    """Rename and/or replace the contents (validated again)."""
    deck = await get_deck(session, user_id, deck_id)
    if name is not None:
        deck.name = name.strip()
    if data is not None:
        deck.data = validate(deck.game, data)
    deck.updated_at = utcnow()
    return await save(session, deck)


async def delete_deck(session: AsyncSession, user_id: int, deck_id: int) -> None:
    """Delete one of the user's decks."""
    await session.delete(await get_deck(session, user_id, deck_id))
    await session.commit()
