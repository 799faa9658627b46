"""FastAPI dependencies: the database session and the current user.

The current user comes from an ``Authorization: Bearer <token>`` header (scripts and bots) or,
without one, from the ``uid`` in the signed session cookie (browsers). The same lookup serves
websockets through :func:`user_from_connection`.

    @router.get("/things")
    async def things(user: CurrentUser, session: SessionDep): ...
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import Depends
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection

from app.errors import DomainError, ErrorCode
from app.ratelimit import RateLimiter
from app.users import service
from app.users.models import User
from app.users.names import name_key

#: key of the user id in ``request.session``
SESSION_UID = "uid"
#: the session cookie's key for the browser session token (an ``api_tokens`` row of kind
#: ``session``); the cookie alone, without its row, logs nobody in
SESSION_TOKEN = "session_token"


async def get_session(conn: HTTPConnection) -> AsyncIterator[AsyncSession]:
    """Yield an ``AsyncSession`` from ``app.state.sessionmaker``, closed (rolled back if not
    committed) when the request ends."""
    async with conn.app.state.sessionmaker() as session:
        yield session


SessionDep = Annotated[AsyncSession, Depends(get_session)]


def bearer_token(conn: HTTPConnection) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None when there is none."""
    scheme, _, value = conn.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return value.strip() or None


def _cookie_session(conn: HTTPConnection) -> dict[str, Any] | None:
    # conn.session asserts when SessionMiddleware is missing; the scope key is the safe test
    return conn.scope.get("session")


def connection_token(conn: HTTPConnection) -> str | None:
    """The credential a request or websocket presents: its bearer token, or else the session
    token in its signed cookie; None for neither. (Whether it is valid is for
    :func:`user_from_connection` to say.)"""
    token = bearer_token(conn)
    if token is not None:
        return token
    cookie = _cookie_session(conn)
    value = cookie.get(SESSION_TOKEN) if cookie else None
    return value if isinstance(value, str) else None


async def user_from_connection(conn: HTTPConnection, session: AsyncSession) -> User | None:
    """The user behind an HTTP request or a websocket, or None for an anonymous one.

    A bearer token wins over the session cookie; an unknown or revoked token gives None (it does
    not fall back to the cookie). The cookie holds a session token whose row is deleted at
    log-out, so a copied cookie stops working then. Using a token records its ``last_used_at``,
    which commits ``session``. A cookie naming a deleted user is treated as logged out.
    """
    token = bearer_token(conn)
    if token is not None:
        return await service.user_for_token(session, token)
    cookie = _cookie_session(conn)
    token = cookie.get(SESSION_TOKEN) if cookie else None
    if not isinstance(token, str):
        return None
    user = await service.user_for_token(session, token)
    if user is None and cookie is not None:  # logged out elsewhere, or the user was deleted
        cookie.clear()
    return user


async def current_user_optional(conn: HTTPConnection) -> User | None:
    """Dependency: the current :class:`User`, or None (detached: its columns are loaded).

    Looked up in a session of its own, closed before the route runs, so a request that then
    waits (for a match, say) holds no database connection meanwhile; on PostgreSQL in autocommit
    (``app.state.lookup_sessionmaker``, :func:`app.db.session.make_lookup_sessionmaker`).
    """
    async with conn.app.state.lookup_sessionmaker() as session:
        return await user_from_connection(conn, session)


OptionalUser = Annotated[User | None, Depends(current_user_optional)]


async def current_user(user: OptionalUser) -> User:
    """Dependency: the current :class:`User`.

    :raises DomainError: ``unauthorized`` when nobody is logged in.
    """
    if user is None:
        raise DomainError(ErrorCode.UNAUTHORIZED, "Log in first (session cookie or 'Authorization: Bearer <token>').")
    return user


CurrentUser = Annotated[User, Depends(current_user)]


# --- login rate limit ----------------------------------------------------------------------------


def _app_limiter(app, name: str) -> RateLimiter:  # type: ignore[no-untyped-def]
    """The app's limiter ``name`` (rate from ``settings.<name>_rate_limit``), made on first use."""
    attr = f"{name}_limiter"
    limiter = getattr(app.state, attr, None)
    if limiter is None:
        settings = app.state.settings
        limiter = RateLimiter.from_settings(settings, getattr(settings, f"{name}_rate_limit"), namespace=name)
        setattr(app.state, attr, limiter)
    return limiter


def login_limiter(app) -> RateLimiter:  # type: ignore[no-untyped-def]
    """The app's limiter for password attempts (``settings.login_rate_limit``)."""
    return _app_limiter(app, "login")


async def check_register_rate(conn: HTTPConnection) -> None:
    """Refuse a sign-up when the client address has made ``settings.register_rate_limit``
    accounts already: accounts cost an Argon2 hash and a row, so a script may not create them in
    bulk. Only accounts made count (:func:`count_registration`): a refused try (a name taken, a
    weak password) is refused before any hash, and a person correcting a typo is not locked out.

    :raises DomainError: ``rate_limited`` with ``params`` ``{"retry_after": seconds}``.
    """
    limiter = _app_limiter(conn.app, "register")
    key = f"addr:{client_address(conn)}"
    if not await limiter.atest(key):
        wait = await limiter.aretry_after(key)
        raise DomainError(
            ErrorCode.RATE_LIMITED, f"Too many sign-ups; try again in {wait} seconds.", params={"retry_after": wait}
        )


async def count_registration(conn: HTTPConnection) -> None:
    """Count one account made from the client address (see :func:`check_register_rate`). Two
    sign-ups checked at once may both pass: the limit can be passed by the requests in flight."""
    await _app_limiter(conn.app, "register").ahit(f"addr:{client_address(conn)}")


def client_address(conn: HTTPConnection) -> str:
    """The client's address: the direct peer's, or the one ``X-Forwarded-For`` names when the
    peer is one of ``settings.trusted_proxies`` (uvicorn's ``ProxyHeadersMiddleware``, installed
    by :func:`app.main.create_app`, rewrites it before any route runs); ``"unknown"`` without one."""
    return conn.client.host if conn.client else "unknown"


async def check_login_rate(conn: HTTPConnection, name: str) -> None:
    """Count one password attempt for the client address and for the account name.

    :raises DomainError: ``rate_limited`` with ``params`` ``{"retry_after": seconds}`` (sent
        with a ``Retry-After`` header) when either has used up ``settings.login_rate_limit``; the
        refused attempt is not counted.
    """
    limiter = login_limiter(conn.app)
    keys = [f"addr:{client_address(conn)}", f"name:{name_key(name)}"]
    for key in keys:
        if not await limiter.ahit(key):
            wait = await limiter.aretry_after(key)
            raise DomainError(
                ErrorCode.RATE_LIMITED,
                f"Too many login attempts; try again in {wait} seconds.",
                params={"retry_after": wait},
            )


async def require_admin(user: CurrentUser) -> User:
    """Dependency: the current :class:`User`, who must be an administrator (``users.is_admin``,
    set by ``scripts/admin.py``).

    :raises DomainError: ``unauthorized`` when nobody is logged in; ``forbidden`` (``reason``
        ``not_admin``) for anyone else.
    """
    if not user.is_admin:
        raise DomainError(ErrorCode.FORBIDDEN, "only an administrator may do this", params={"reason": "not_admin"})
    return user


AdminUser = Annotated[User, Depends(require_admin)]
