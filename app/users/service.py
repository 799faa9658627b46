"""Account operations on an ``AsyncSession``: register, authenticate, API tokens.

Functions that change data commit the session they are given.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, bindparam, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.base import utcnow
from app.errors import DomainError, ErrorCode
from app.users import names, security
from app.users.models import ApiToken, User

#: ``api_tokens.last_used_at`` is rewritten at most this often per token (saves a write per request)
TOUCH_INTERVAL = timedelta(seconds=60)

BAD_CREDENTIALS = "Wrong name or password."


def _name_taken(name: str) -> DomainError:
    return DomainError(
        ErrorCode.NAME_TAKEN, "That name is taken (names are compared ignoring letter case).", params={"name": name}
    )


async def get_user(session: AsyncSession, user_id: int) -> User | None:
    """The user with ``user_id``, or None."""
    return await session.get(User, user_id)


async def get_user_by_name(session: AsyncSession, name: str) -> User | None:
    """The user called ``name`` in any letter case (after NFKC and case folding), or None."""
    key = names.name_key(name)
    return (await session.execute(select(User).where(User.name_key == key))).scalar_one_or_none()


async def register(session: AsyncSession, name: str, password: str) -> User:
    """Create an account and commit.

    :returns: the new :class:`User`.
    :raises DomainError: ``bad_name`` (:mod:`app.users.names`; ``reason`` ``lookalike`` with
        ``name``: the existing name it passes for), ``weak_password`` (:mod:`app.users.security`),
        ``name_taken`` (``params``: ``{"name"}``).
    """
    name = names.check_name(name)
    security.check_password(password, name)
    skeleton = names.skeleton(name)
    if session.get_bind().dialect.name == "postgresql":
        # one registration per look-alike class at a time, so two look-alikes cannot both pass the
        # check below (SQLite has one writer at a time already)
        await session.execute(select(func.pg_advisory_xact_lock(func.hashtext(skeleton))))
    if await get_user_by_name(session, name) is not None:
        raise _name_taken(name)
    await _refuse_lookalike(session, name, skeleton)
    user = User(
        name=name,
        name_key=names.name_key(name),
        name_skeleton=skeleton,
        password_hash=await security.ahash_password(password),
    )
    session.add(user)
    try:
        await session.commit()
    except IntegrityError:  # someone registered the same name in between
        await session.rollback()
        raise _name_taken(name) from None
    return user


async def _refuse_lookalike(session: AsyncSession, name: str, skeleton: str) -> None:
    """Refuse a name that looks like an existing one when either of the two mixes scripts
    (``Аlice`` with a Cyrillic ``А`` beside ``Alice``, or the other way round).

    :raises DomainError: ``bad_name`` with ``name``, the existing name, and ``reason``
        ``lookalike`` when the new name is the one that mixes scripts, ``lookalike_taken`` when
        only the existing one does (the player typed a plain name: the words must not blame it).
    """
    mixed = names.is_mixed_script(name)
    for other in await session.scalars(select(User.name).where(User.name_skeleton == skeleton).limit(50)):
        if mixed or names.is_mixed_script(other):
            raise DomainError(
                ErrorCode.BAD_NAME,
                f"that name looks like {other!r}, "
                + ("mixing letters of several scripts" if mixed else "which mixes letters of several scripts"),
                params={"reason": "lookalike" if mixed else "lookalike_taken", "name": other},
            )


async def authenticate(session: AsyncSession, name: str, password: str) -> User:
    """The user whose ``name`` and ``password`` these are. Upgrades the stored hash (and commits)
    when the hashing parameters have been raised since it was made.

    :raises DomainError: ``bad_credentials``, with the same message and about the same delay
        whether the name exists or not.
    """
    user = await get_user_by_name(session, name) if names.name_key(name) else None
    ok = await security.averify_password(user.password_hash if user else None, password)
    if user is None or not ok:
        raise DomainError(ErrorCode.BAD_CREDENTIALS, BAD_CREDENTIALS)
    if security.needs_rehash(user.password_hash):
        user.password_hash = await security.ahash_password(password)
        await session.commit()
    return user


async def lock_user(session: AsyncSession, user_id: int) -> None:
    """Lock the user's row until ``session`` commits or rolls back, so per-user caps (decks,
    tokens) are counted and the row added in one step nobody else can interleave with.

    PostgreSQL: ``SELECT ... FOR UPDATE`` on the ``users`` row (other writers for the same user
    wait; others do not). SQLite: a no-op ``UPDATE`` of the row, which takes the database's write
    lock (SQLite has one writer at a time and no row locks).
    """
    if session.get_bind().dialect.name == "sqlite":
        await session.execute(update(User).where(User.id == user_id).values(id=User.id))
    else:
        await session.execute(select(User.id).where(User.id == user_id).with_for_update())


async def create_token(
    session: AsyncSession, user: User, label: str = "", kind: str = "api", *, limit: int | None = None
) -> str:
    """Create a token for ``user`` (``kind``: ``api`` or ``session``) and commit.

    :param limit: the most tokens of this ``kind`` the user may have (None: no cap); counted with
        the user's row locked (:func:`lock_user`), so concurrent requests cannot pass it together.
    :returns: the token itself; only its SHA-256 digest is stored, so this is the only time it exists.
    :raises DomainError: ``too_many_tokens`` (``params``: ``{"limit"}``) when ``limit`` is reached.
    """
    if limit is not None:
        await lock_user(session, user.id)
        count = await session.scalar(
            select(func.count()).select_from(ApiToken).where(ApiToken.user_id == user.id, ApiToken.kind == kind)
        )
        if (count or 0) >= limit:
            await session.rollback()
            raise DomainError(
                ErrorCode.TOO_MANY_TOKENS,
                f"an account may have at most {limit} API tokens; revoke one first",
                params={"limit": limit},
            )
    token = security.new_token()
    session.add(ApiToken(user_id=user.id, token_hash=security.token_digest(token), label=label.strip(), kind=kind))
    await session.commit()
    return token


#: the owner of a token by its digest (built once: every request and socket asks it)
_TOKEN_OWNER = (
    select(User, ApiToken.id, ApiToken.last_used_at)
    .join(ApiToken, ApiToken.user_id == User.id)
    .where(ApiToken.token_hash == bindparam("digest"))
)


async def user_for_token(session: AsyncSession, token: str, *, touch: bool = True) -> User | None:
    """The owner of an API token, or None for an unknown or revoked token.

    With ``touch`` the token's ``last_used_at`` is updated (at most once per :data:`TOUCH_INTERVAL`)
    and the session is committed.
    """
    if not token:
        return None
    row = (await session.execute(_TOKEN_OWNER, {"digest": security.token_digest(token)})).one_or_none()
    if row is None:
        return None
    user, token_id, last_used = row
    now = utcnow()
    if touch and (last_used is None or now - last_used >= TOUCH_INTERVAL):
        await session.execute(update(ApiToken).where(ApiToken.id == token_id).values(last_used_at=now))
        await session.commit()
    return user


async def mark_bot(session: AsyncSession, user_id: int) -> User:
    """Mark account ``user_id`` as a bot account (``users.is_bot``) and commit; idempotent.

    :returns: the user, marked.
    :raises DomainError: ``unauthorized`` when the account no longer exists.
    """
    user = await session.get(User, user_id)
    if user is None:
        raise DomainError(ErrorCode.UNAUTHORIZED, "this account no longer exists")
    if not user.is_bot:
        user.is_bot = True
        await session.commit()
    return user


async def set_language(session: AsyncSession, user_id: int, language: str) -> User:
    """Store ``language`` (one of :data:`app.i18n.LOCALES`, checked by the route's schema) as the
    user's choice for the site (``users.language``) and commit.

    :returns: the user.
    :raises DomainError: ``unauthorized`` when the account no longer exists.
    """
    user = await session.get(User, user_id)
    if user is None:
        raise DomainError(ErrorCode.UNAUTHORIZED, "this account no longer exists")
    if user.language != language:
        user.language = language
        await session.commit()
    return user


async def revoke_token(session: AsyncSession, token: str) -> bool:
    """Delete an API token and commit. True if it existed."""
    stmt = delete(ApiToken).where(ApiToken.token_hash == security.token_digest(token))
    result = cast("CursorResult[Any]", await session.execute(stmt))
    await session.commit()
    return bool(result.rowcount)
