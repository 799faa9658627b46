"""JSON errors of the HTTP edge: every failure under ``/api`` is
``{"error": {"code", "message", "params"}}`` with the status :data:`HTTP_STATUS` gives its code.

The one code -> HTTP status map lives here, and the exception handlers that render
:class:`app.errors.DomainError`, the framework's HTTP errors, request validation errors and
unexpected exceptions in that shape. ``code`` is one of :class:`app.errors.ErrorCode`; ``params``
holds the values a page needs to render the words itself (``message`` is English for developers).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import TimeoutError as SQLAlchemyTimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.errors import DomainError, ErrorCode, JsonValue, busy
from app.logging import get_logger

log = get_logger(__name__)

#: error code -> HTTP status, for every code of :class:`app.errors.ErrorCode`
HTTP_STATUS: Final[Mapping[ErrorCode, int]] = {
    ErrorCode.BAD_MESSAGE: 400,
    ErrorCode.VALIDATION_ERROR: 422,
    ErrorCode.BAD_REQUEST: 400,
    ErrorCode.METHOD_NOT_ALLOWED: 405,
    ErrorCode.CONFLICT: 409,
    ErrorCode.ERROR: 400,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.BUSY: 503,
    ErrorCode.INTERNAL_ERROR: 500,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE: 415,
    ErrorCode.TOO_MANY_CONNECTIONS: 429,
    ErrorCode.UNAUTHORIZED: 401,
    ErrorCode.FORBIDDEN: 403,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.NAME_TAKEN: 409,
    ErrorCode.BAD_NAME: 422,
    ErrorCode.WEAK_PASSWORD: 422,
    ErrorCode.BAD_CREDENTIALS: 401,
    ErrorCode.BAD_DECK: 422,
    ErrorCode.TOO_MANY_DECKS: 429,
    ErrorCode.TOO_MANY_TOKENS: 429,
    ErrorCode.BAD_OPTIONS: 422,
    ErrorCode.TOO_MANY_MATCHES: 429,
    ErrorCode.NOT_WAITING: 409,
    ErrorCode.MATCH_FULL: 409,
    ErrorCode.ALREADY_JOINED: 409,
    ErrorCode.RATED_NEEDS_CONSENT: 409,
    ErrorCode.NOT_STARTED: 409,
    ErrorCode.NOT_FINISHED: 409,
    ErrorCode.STALE_VERSION: 409,
    ErrorCode.ILLEGAL_ACTION: 409,
    ErrorCode.NOT_YOUR_TURN: 409,
    ErrorCode.GAME_OVER: 409,
    ErrorCode.TOO_LATE: 409,
}

#: HTTP status of an error the framework raised (unknown path, wrong method, ...) -> error code;
#: any other status gets ``error`` with ``params.status``
_FRAMEWORK_CODES: Final[Mapping[int, ErrorCode]] = {
    400: ErrorCode.BAD_REQUEST,
    401: ErrorCode.UNAUTHORIZED,
    403: ErrorCode.FORBIDDEN,
    404: ErrorCode.NOT_FOUND,
    405: ErrorCode.METHOD_NOT_ALLOWED,
    409: ErrorCode.CONFLICT,
    429: ErrorCode.RATE_LIMITED,
}


def http_status(code: str) -> int:
    """The HTTP status of error ``code`` (e.g. ``"stale_version"`` -> 409).

    :raises ValueError: ``code`` is not in :class:`app.errors.ErrorCode`.
    """
    return HTTP_STATUS[ErrorCode(code)]


def error_body(error: DomainError) -> dict[str, Any]:
    """``{"error": {"code", "message", "params"}}``: the JSON body of an error response."""
    return {"error": error.to_dict()}


def error_response(error: DomainError, headers: Mapping[str, str] | None = None) -> JSONResponse:
    """The response for ``error``: its body and status; ``rate_limited`` and ``busy`` with
    ``params.retry_after`` (seconds) also get a ``Retry-After`` header."""
    all_headers = dict(headers or {})
    retry_after = error.params.get("retry_after")
    if error.code in (ErrorCode.RATE_LIMITED, ErrorCode.BUSY) and retry_after is not None:
        all_headers["Retry-After"] = str(retry_after)
    return JSONResponse(error_body(error), HTTP_STATUS[error.code], headers=all_headers or None)


def validation_error(errors: Sequence[Any]) -> DomainError:
    """The ``validation_error`` for pydantic/FastAPI ``errors`` (``RequestValidationError.errors()``).

    :returns: a :class:`DomainError` whose ``params`` are ``{"field", "errors": [{"field", "loc",
        "type", "ctx", "message"}]}``: ``field`` is the dotted path inside the body, path or query
        (``"name"``, ``"options.turn_seconds"``), ``type`` pydantic's error code
        (``"missing"``, ``"string_too_long"``), ``ctx`` its values (``{"max_length": 60}``).
    """
    details: list[dict[str, JsonValue]] = []
    for e in errors:
        loc = [p if isinstance(p, int) else str(p) for p in e.get("loc", ())]
        ctx = {
            str(k): v if isinstance(v, str | int | float | bool) or v is None else str(v)
            for k, v in (e.get("ctx") or {}).items()
        }
        details.append(
            {
                "field": ".".join(str(p) for p in loc[1:]),
                "loc": list(loc),
                "type": str(e.get("type", "")),
                "ctx": ctx,
                "message": str(e.get("msg", "")),
            }
        )
    first = details[0] if details else {"field": "", "message": "invalid request"}
    message = f"{first['field'] or 'body'}: {first['message']}"
    return DomainError(ErrorCode.VALIDATION_ERROR, message, params={"field": first["field"], "errors": details})


#: addresses that are never a page a person reads: the API, sockets, files, the API's reference
_NOT_PAGES = ("/api/", "/ws/", "/static/", "/docs", "/healthz")


def _wants_page(request: Request) -> bool:
    """Whether ``request`` is a browser asking for a page (a GET or HEAD for HTML outside the API):
    an unknown address then gets the site's 404 page in the reader's language, not a JSON body."""
    return (
        request.method in ("GET", "HEAD")
        and not request.url.path.startswith(_NOT_PAGES)
        and "text/html" in request.headers.get("accept", "")
    )


async def _page_not_found(request: Request) -> Response:
    from app.i18n.jinja import N_
    from app.users.deps import current_user_optional
    from app.web.pages import not_found

    return not_found(request, await current_user_optional(request), N_("There is no such page."))


def install_error_handlers(app: FastAPI) -> None:
    """Render :class:`DomainError`, HTTP errors, validation errors and unexpected exceptions
    (500 ``internal_error``, logged, no detail sent) as JSON error bodies; a browser asking for a
    page that does not exist (an unknown address, ``/matches/abc``) gets the 404 page instead. A method the path does
    not serve gets 405 ``method_not_allowed`` with an ``Allow`` header naming every method the
    path serves; ``OPTIONS`` gets that header with 204."""

    @app.exception_handler(DomainError)
    async def _domain_error(request: Request, exc: DomainError) -> JSONResponse:
        return error_response(exc)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        headers = dict(exc.headers or {})
        if exc.status_code == 405:  # every method of the path, not only the first route's
            from app.api.openapi import allowed_methods

            allow = ", ".join(allowed_methods(request.app, request.url.path))
            headers["Allow"] = allow
            if request.method == "OPTIONS":  # RFC 9110 section 9.3.7: which methods, no body
                return Response(status_code=204, headers={"Allow": allow})
        if exc.status_code == 404 and _wants_page(request):
            return await _page_not_found(request)
        code = _FRAMEWORK_CODES.get(exc.status_code, ErrorCode.ERROR)
        params: dict[str, JsonValue] = {"status": exc.status_code} if code == ErrorCode.ERROR else {}
        body = error_body(DomainError(code, str(exc.detail), params=params))
        return JSONResponse(body, exc.status_code, headers=headers or None)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> Response:
        if _wants_page(request):  # /matches/abc: no such page
            return await _page_not_found(request)
        return error_response(validation_error(exc.errors()))

    @app.exception_handler(SQLAlchemyTimeoutError)
    async def _pool_exhausted(request: Request, exc: SQLAlchemyTimeoutError) -> JSONResponse:
        return error_response(busy("every database connection is in use"))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.error("unhandled error", path=request.url.path, exc_info=exc)
        return error_response(DomainError(ErrorCode.INTERNAL_ERROR, "something went wrong on the server"))
