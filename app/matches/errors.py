"""The match service's error: the domain error of :mod:`app.errors` under its older name.

``MatchError(code, message, params=...)`` *is* :class:`app.errors.DomainError` (the same class, so
``except MatchError`` and ``except DomainError`` catch the same errors). The codes are listed in
:class:`app.errors.ErrorCode`; the HTTP status of each is in :mod:`app.api.errors`, the websocket
frame in :mod:`app.gateway.frames`.
"""

from __future__ import annotations

from app.errors import DomainError

#: the domain error (:class:`app.errors.DomainError`); the name stays while the service uses it
MatchError = DomainError

__all__ = ["MatchError"]
