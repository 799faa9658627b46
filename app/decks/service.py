"""Deck storage. Every deck is validated by its game's ``Rules.validate_deck`` before it is stored.

Deck names are stored NFKC-normalised and trimmed (:func:`app.users.names.clean_name`) and are
unique per user and game ignoring letter case (``decks.name_key``): ``Anvil`` and ``anvil`` are one
name. Unlike account and clan names, a deck name that looks like another by mixing scripts is not
refused: a player's decks are seen by nobody else, so a look-alike cannot pass for anyone's deck but
their own.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.base import utcnow
from app.decks.models import DECK_NAME_MAX, Deck
from app.errors import DomainError, ErrorCode
from app.games.core import GameError, all_games
from app.users.names import clean_name, name_key
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
        rules refuse: ``params`` ``{"game", "reason", ...}`` with the rules' reason and values
        (:data:`app.errors.ErrorCode.BAD_DECK` lists them; the message says it in English).
    """
    rules = all_games().get(game)
    if rules is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"no game {game!r}", params={"game": game})
    try:
        normal: dict[str, Any] = rules.validate_deck(data)
    except GameError as exc:
        raise DomainError(ErrorCode.BAD_DECK, str(exc), params={"game": game, **exc.wire_params()}) from None
    return normal


def _clean(name: str) -> str:
    """The deck name as stored (:func:`app.users.names.clean_name`).

    :raises DomainError: ``validation_error`` (``field`` ``name``) when NFKC makes it longer than
        :data:`DECK_NAME_MAX` (one character such as ``ﷺ`` becomes several).
    """
    name = clean_name(name)
    if not name or len(name) > DECK_NAME_MAX:
        raise DomainError(
            ErrorCode.VALIDATION_ERROR,
            f"name: 1 to {DECK_NAME_MAX} characters",
            params={"field": "name", "errors": []},
        )
    return name


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

    :raises DomainError: ``name_taken`` (``params``: ``{"game", "name"}``) for a name the user has
        for another deck of the game, in any letter case.
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
        ``too_many_decks`` (``params``: ``{"limit"}``), ``validation_error`` (see :func:`_clean`).
    """
    normal = validate(game, data)
    name = _clean(name)
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
    deck = Deck(user_id=user_id, game=game, name=name, name_key=name_key(name), data=normal)
    session.add(deck)
    return await save(session, deck)


async def update_deck(
    session: AsyncSession, user_id: int, deck_id: int, name: str | None, data: dict[str, Any] | None
) -> Deck:
    """Rename and/or replace the contents (validated again).

    :raises DomainError: ``not_found``, ``bad_deck``, ``name_taken``, ``validation_error``.
    """
    deck = await get_deck(session, user_id, deck_id)
    if name is not None:
        deck.name = _clean(name)
        deck.name_key = name_key(deck.name)
    if data is not None:
        deck.data = validate(deck.game, data)
    deck.updated_at = utcnow()
    return await save(session, deck)


async def delete_deck(session: AsyncSession, user_id: int, deck_id: int) -> None:
    """Delete one of the user's decks. :raises DomainError: ``not_found``."""
    await session.delete(await get_deck(session, user_id, deck_id))
    await session.commit()
