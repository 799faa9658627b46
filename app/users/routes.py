"""Account routes under ``/api``: register, log in and out, API tokens, the current user.

Browsers authenticate with the session cookie set by register/login; scripts and bots create a
token with ``POST /api/auth/token`` and send ``Authorization: Bearer <token>``.
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response, status
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.openapi import errors
from app.errors import DomainError, ErrorCode
from app.i18n.locales import COOKIE as LANGUAGE_COOKIE
from app.i18n.locales import COOKIE_MAX_AGE as LANGUAGE_COOKIE_MAX_AGE
from app.users import service
from app.users.deps import (
    SESSION_TOKEN,
    SESSION_UID,
    CurrentUser,
    OptionalUser,
    SessionDep,
    bearer_token,
    check_login_rate,
    check_register_rate,
    count_registration,
)
from app.users.models import User
from app.users.schemas import (
    Credentials,
    LanguageChoice,
    NewAccount,
    TokenOut,
    TokenRequest,
    UserEnvelope,
    UserOut,
)
from app.users.security import token_digest

router = APIRouter(prefix="/api", tags=["users"])


async def _log_in(request: Request, session: AsyncSession, user: User) -> None:
    """Start a browser session for ``user``: a new session token in the signed cookie. Logging
    in as somebody else first drops whatever the previous account left in the session (as
    Django does); the same account keeps it."""
    if request.session.get(SESSION_UID) != user.id:
        await _end_session(request, session)
    request.session[SESSION_TOKEN] = await service.create_token(session, user, "browser", kind="session")
    request.session[SESSION_UID] = user.id


async def _announce_revoked(request: Request, token: str) -> None:
    """Tell every server process that ``token`` has ended: the websockets opened with it close
    (:mod:`app.users.revocations`)."""
    await request.app.state.revocations.publish(token_digest(token))


async def _end_session(request: Request, session: AsyncSession) -> None:
    """Delete the cookie's session token (so the cookie is worthless even if copied), close the
    websockets opened with it, and clear the cookie."""
    token = request.session.get(SESSION_TOKEN)
    if isinstance(token, str):
        await service.revoke_token(session, token)
        await _announce_revoked(request, token)
    request.session.clear()


@router.post(
    "/auth/register",
    status_code=status.HTTP_201_CREATED,
    response_model=UserEnvelope,
    openapi_extra=errors(
        "name_taken", "bad_name", "weak_password", "rate_limited", unstated=["weak_password", "bad_name"]
    ),
)
async def register(body: NewAccount, request: Request, session: SessionDep) -> UserEnvelope:
    """Create an account and log this browser in. Returns ``{"user": {"id", "name", "is_bot"}}``.

    Errors: 422 ``bad_name``, 422 ``weak_password``, 409 ``name_taken``.
    """
    await check_register_rate(request)
    user = await service.register(session, body.name, body.password)
    await count_registration(request)
    await _log_in(request, session, user)
    return UserEnvelope(user=UserOut.model_validate(user))


@router.post("/auth/login", response_model=UserEnvelope, openapi_extra=errors("bad_credentials", "rate_limited"))
async def login(body: Credentials, request: Request, session: SessionDep) -> UserEnvelope:
    """Log in with name and password; sets the session cookie. Returns ``{"user": {"id", "name", "is_bot"}}``.

    Errors: 401 ``bad_credentials``, 429 ``rate_limited``.
    """
    await check_login_rate(request, body.name)
    user = await service.authenticate(session, body.name, body.password)
    await _log_in(request, session, user)
    return UserEnvelope(user=UserOut.model_validate(user))


@router.post("/auth/logout", status_code=status.HTTP_204_NO_CONTENT, openapi_extra=errors())
async def logout(request: Request, session: SessionDep) -> Response:
    """End the browser session: its token is deleted, so even a copy of the cookie no longer
    logs anybody in (204 whether or not anybody was logged in)."""
    await _end_session(request, session)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post(
    "/auth/token",
    status_code=status.HTTP_201_CREATED,
    response_model=TokenOut,
    openapi_extra=errors("bad_credentials", "rate_limited", "too_many_tokens"),
)
async def create_token(body: TokenRequest, request: Request, session: SessionDep) -> TokenOut:
    """Create an API token from name and password. Returns ``{"token", "token_type": "bearer"}``;
    the token is shown only this once. Send it as ``Authorization: Bearer <token>``.

    Errors: 401 ``bad_credentials``, 429 ``rate_limited``, 429 ``too_many_tokens`` (``params``:
    ``{"limit"}``, ``settings.max_tokens_per_user``).
    """
    await check_login_rate(request, body.name)
    user = await service.authenticate(session, body.name, body.password)
    limit = request.app.state.settings.max_tokens_per_user
    return TokenOut(token=await service.create_token(session, user, body.label, limit=limit))


@router.delete(
    "/auth/token",
    status_code=status.HTTP_204_NO_CONTENT,
    openapi_extra={**errors("unauthorized"), "security": [{"bearer": []}]},
)
async def revoke_token(request: Request, session: SessionDep) -> Response:
    """Revoke the bearer token this request is authenticated with; the websockets opened with it
    close, on every server process, within a second.

    Errors: 401 ``unauthorized`` without an ``Authorization: Bearer`` header or with an unknown token.
    """
    token = bearer_token(request)
    if token is None or not await service.revoke_token(session, token):
        raise DomainError(ErrorCode.UNAUTHORIZED, "Send the token to revoke as 'Authorization: Bearer <token>'.")
    await _announce_revoked(request, token)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/users/me", response_model=UserOut, openapi_extra=errors())
async def me(user: CurrentUser) -> UserOut:
    """The logged-in user: ``{"id", "name", "is_bot"}``. Errors: 401 ``unauthorized``."""
    return UserOut.model_validate(user)


@router.post("/users/me/bot", response_model=UserOut, openapi_extra=errors())
async def become_bot(user: CurrentUser, session: SessionDep) -> UserOut:
    """Mark the logged-in account as a bot account, for good (as Lichess's bot upgrade): its
    name shows "BOT" everywhere, and it meets people in rated matches only when both agree
    (docs/bots.md). Calling it again changes nothing. Returns ``{"id", "name", "is_bot": true}``."""
    return UserOut.model_validate(await service.mark_bot(session, user.id))


@router.post("/users/me/language", response_model=LanguageChoice, openapi_extra=errors())
async def choose_language(
    body: LanguageChoice, request: Request, response: Response, user: OptionalUser, session: SessionDep
) -> LanguageChoice:
    """Choose the site's language (the picker in every page's header): ``{"language": "cs"}``, one
    of ``en``, ``cs``, ``sk``, ``uk``, ``ru``, ``hu``. Stored for the logged-in user
    (``users.language``, so every browser they log in from follows it) and, for anyone, in the
    ``arena_lang`` cookie (a year), which is how a visitor's choice is kept. Returns the choice.
    Errors: 422 ``validation_error`` for another language."""
    if user is not None:
        await service.set_language(session, user.id, body.language)
    response.set_cookie(
        LANGUAGE_COOKIE,
        body.language,
        max_age=LANGUAGE_COOKIE_MAX_AGE,
        path="/",
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return LanguageChoice(language=body.language)
