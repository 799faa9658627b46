"""Same-origin only: another site's page cannot act with a visitor's session cookie.

:class:`SameOriginMiddleware` (pure ASGI, installed by :func:`app.main.create_app`) refuses

- a state-changing HTTP request (``POST``, ``PUT``, ``PATCH``, ``DELETE``) that is not
  authenticated by an ``Authorization: Bearer`` header, and
- a websocket handshake that carries the session cookie and no bearer header,

when its ``Origin`` (or, without one, its ``Referer``) names an origin that is neither this site's
own nor one of ``settings.allowed_origins``: 403 ``forbidden`` with ``params``
``{"reason": "origin", "origin": <what was sent>}`` (a websocket gets that as its HTTP denial
response, or a close with 1008 where the server cannot send one). This site's own origin is the
one whose host (and port) is the request's ``Host`` header: browsers set both, a page cannot
forge either. A request that names no origin at all (scripts, ``curl``, the test client) is not a
cross-site request and passes; browsers name the origin on every cross-site ``POST`` and every
websocket.

It also refuses a state-changing request under ``/api/`` whose body is a form or plain text
(the content types a foreign page can send without asking first): 415 ``unsupported_media_type``
with ``params`` ``{"content_type"}``. The JSON routes take ``application/json`` or no body.

Bearer-token clients are unaffected: a foreign page cannot make a browser send a bearer header.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from app.api.errors import error_response
from app.errors import DomainError, ErrorCode

#: methods that change something
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: content types a page may send to another site without a CORS preflight; never JSON
FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data", "text/plain"})
POLICY_VIOLATION = 1008


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of ``url``, lower case; None for ``"null"`` or what is not a URL.

    >>> origin_of("https://Arena.example:8443/match/3?x=1")
    'https://arena.example:8443'
    """
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


class SameOriginMiddleware:
    """Refuse cross-site changes and websockets (see the module docstring).

    :param app: the ASGI app to protect.
    :param allowed_origins: origins (``"https://games.example"``) accepted besides the site's own.
    :param session_cookie: the session cookie's name; a websocket without it is anonymous and passes.
    :param json_prefix: paths under it are JSON routes: forms are refused there.
    """

    def __init__(
        self,
        app: ASGIApp,
        allowed_origins: Iterable[str] = (),
        *,
        session_cookie: str = "arena_session",
        json_prefix: str = "/api/",
    ) -> None:
        self.app = app
        self.allowed = {o for o in (origin_of(a) for a in allowed_origins) if o}
        self.session_cookie = session_cookie
        self.json_prefix = json_prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE_METHODS:
            headers = Headers(scope=scope)
            error = self._form_error(scope, headers) or self._origin_error(headers)
            if error is not None:
                await error_response(error)(scope, receive, send)
                return
        elif scope["type"] == "websocket":
            headers = Headers(scope=scope)
            if self.session_cookie in _cookie_names(headers):
                error = self._origin_error(headers)
                if error is not None:
                    await _deny_websocket(scope, receive, send, error)
                    return
        await self.app(scope, receive, send)

    def _form_error(self, scope: Scope, headers: Headers) -> DomainError | None:
        """``unsupported_media_type`` for a form or text body sent to a JSON route."""
        if not scope["path"].startswith(self.json_prefix):
            return None
        content_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if content_type not in FORM_TYPES:
            return None
        return DomainError(
            ErrorCode.UNSUPPORTED_MEDIA_TYPE,
            "send JSON ('Content-Type: application/json')",
            params={"content_type": content_type},
        )

    def _origin_error(self, headers: Headers) -> DomainError | None:
        """``forbidden`` (reason ``origin``) for a request without a bearer header from another site."""
        if headers.get("authorization", "").partition(" ")[0].lower() == "bearer":
            return None
        sent = headers.get("origin")
        if sent is None:
            sent = headers.get("referer")
            if sent is None:
                return None  # no browser on another site sends a change without naming itself
        origin = origin_of(sent)
        own = headers.get("host", "").lower()
        if origin is not None and (origin.partition("://")[2] == own or origin in self.allowed):
            return None
        return DomainError(
            ErrorCode.FORBIDDEN,
            "requests from another site's pages are refused",
            params={"reason": "origin", "origin": sent[:200]},
        )


def _cookie_names(headers: Headers) -> set[str]:
    """The names of the cookies a request carries."""
    names = set()
    for header in headers.getlist("cookie"):
        for part in header.split(";"):
            name = part.partition("=")[0].strip()
            if name:
                names.add(name)
    return names


async def _deny_websocket(scope: Scope, receive: Receive, send: Send, error: DomainError) -> None:
    """Refuse a websocket handshake: an HTTP 403 with the JSON error body where the server can
    send one (ASGI's websocket denial response), else a close with 1008 before accepting."""
    ws = WebSocket(scope, receive, send)
    if "websocket.http.response" in scope.get("extensions", {}):
        await ws.send_denial_response(error_response(error))
    else:
        await ws.close(POLICY_VIOLATION)
