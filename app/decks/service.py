"""Deck storage. Every deck is validated by its game's ``Rules.validate_deck`` before it is stored."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.base import utcnow
from app.decks.models import Deck
from app.errors import DomainError, ErrorCode
from app.games.core import GameError, all_games
from app.users.service import lock_user


def deck_json(deck: Deck) -> dict[str, Any]:
    """The API form of a deck."""
    return {
        "id": deck.id,
        "game": deck.game,
        "name": deck.name,
        "data": deck.data,
        "created_at": deck.created_at.isoformat(),
        "updated_at": deck.updated_at.isoformat(),
    }


def validate(game: str, data: dict[str, Any]) -> dict[str, Any]:
    """The game's normal form of ``data``.

    :raises DomainError: ``not_found`` for an unknown game, ``bad_deck`` for a deck the game's
        rules refuse (the message says why); ``params``: ``{"game"}``.
    """
    rules = all_games().get(game)
    if rules is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"no game {game!r}", params={"game": game})
    try:
        normal: dict[str, Any] = rules.validate_deck(data)
    except GameError as exc:
        raise DomainError(ErrorCode.BAD_DECK, str(exc), params={"game": game}) from None
    return normal


async def list_decks(session: AsyncSession, user_id: int, game: str | None = None) -> list[Deck]:
    """A user's decks, by game then name."""
    stmt = select(Deck).where(Deck.user_id == user_id).order_by(Deck.game, Deck.name)
    if game:
        stmt = stmt.where(Deck.game == game)
    return list((await session.execute(stmt)).scalars())


async def get_deck(session: AsyncSession, user_id: int, deck_id: int) -> Deck:
    """One of the user's decks.

    :raises DomainError: ``not_found`` (``params``: ``{"deck_id"}``) when missing or someone else's.
    """
    deck = await session.get(Deck, deck_id)
    if deck is None or deck.user_id != user_id:
        raise DomainError(ErrorCode.NOT_FOUND, f"no deck {deck_id}", params={"deck_id": deck_id})
    return deck


async def save(session: AsyncSession, deck: Deck) -> Deck:
    """Flush and commit.

    :raises DomainError: ``name_taken`` (``params``: ``{"game", "name"}``) for a duplicate name.
    """
    game, name = deck.game, deck.name  # read before the rollback expires them
    try:
        await session.commit()
    except IntegrityError:
        await session.rollback()
        raise DomainError(
            ErrorCode.NAME_TAKEN, f"you already have a {game} deck named {name!r}", params={"game": game, "name": name}
        ) from None
    return deck


async def create_deck(
    session: AsyncSession, user_id: int, game: str, name: str, data: dict[str, Any], *, limit: int | None = None
) -> Deck:
    """Validate and store a new deck.

    :param limit: the most decks the user may have, of all games (None: no cap); counted with the
        user's row locked (:func:`app.users.service.lock_user`), in the transaction that adds the
        deck, so concurrent requests cannot pass it together.
    :raises DomainError: ``not_found``, ``bad_deck`` (see :func:`validate`), ``name_taken``,
        ``too_many_decks`` (``params``: ``{"limit"}``).
    """
    normal = validate(game, data)
    if limit is not None:
        await lock_user(session, user_id)
        count = await session.scalar(select(func.count()).select_from(Deck).where(Deck.user_id == user_id))
        if (count or 0) >= limit:
            await session.rollback()
            raise DomainError(
                ErrorCode.TOO_MANY_DECKS,
                f"you may keep at most {limit} decks; delete one first",
                params={"limit": limit},
            )
    deck = Deck(user_id=user_id, game=game, name=name.strip(), data=normal)
    session.add(deck)
    return await save(session, deck)


async def update_deck(
    session: AsyncSession, user_id: int, deck_id: int, name: str | None, data: dict[str, Any] | None
) -> Deck:
    """Rename and/or replace the contents (validated again).

    :raises DomainError: ``not_found``, ``bad_deck``, ``name_taken``.
    """
    deck = await get_deck(session, user_id, deck_id)
    if name is not None:
        deck.name = name.strip()
    if data is not None:
        deck.data = validate(deck.game, data)
    deck.updated_at = utcnow()
    return await save(session, deck)


async def delete_deck(session: AsyncSession, user_id: int, deck_id: int) -> None:
    """Delete one of the user's decks. :raises DomainError: ``not_found``."""
    await session.delete(await get_deck(session, user_id, deck_id))
    await session.commit()
