"""JSON errors: every failure under ``/api`` is ``{"error": {"code", "message"}}`` with the right
status code (DESIGN.md section 4)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.matches.errors import MatchError


class ApiError(Exception):
    """An error with a stable ``code`` for clients.

    :param status: HTTP status code.
    :param code: snake_case error code, e.g. ``"name_taken"``.
    :param message: a sentence for people.
    """

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """The JSON body of an error."""
    return {"error": {"code": code, "message": message, **extra}}


_STATUS_CODES = {
    400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
    405: "method_not_allowed", 409: "conflict", 429: "rate_limited",
}


def install_error_handlers(app: FastAPI) -> None:
    """Render :class:`ApiError`, HTTP errors and validation errors as JSON error bodies."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        headers = {"Retry-After": str(exc.extra["retry_after"])} if "retry_after" in exc.extra else None
        return JSONResponse(error_body(exc.code, exc.message, **exc.extra), exc.status, headers=headers)

    @app.exception_handler(MatchError)
    async def _match_error(request: Request, exc: MatchError) -> JSONResponse:
        return JSONResponse(error_body(exc.code, exc.message), exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _STATUS_CODES.get(exc.status_code, "error")
        return JSONResponse(error_body(code, str(exc.detail)), exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        from app.logging import get_logger

        get_logger(__name__).error("unhandled error", path=request.url.path, exc_info=exc)
        return JSONResponse(error_body("internal_error", "something went wrong on the server"), 500)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        details = [
            {"loc": [str(p) for p in e.get("loc", ())], "msg": e.get("msg", "")} for e in exc.errors()
        ]
        first = details[0] if details else {"loc": [], "msg": "invalid request"}
        message = f"{'.'.join(first['loc'][1:]) or 'body'}: {first['msg']}"
        return JSONResponse(error_body("validation_error", message, details=details), 422)
