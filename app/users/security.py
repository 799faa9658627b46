"""Password rules, Argon2 password hashing and API token digests (the name rules are :mod:`app.users.names`).

Hashing is deliberately slow and memory-hungry (Argon2id, argon2-cffi's RFC 9106 defaults), so the
async helpers run it on a small dedicated thread pool: the event loop never blocks on it and at most
:data:`HASH_WORKERS` hashes run at once, whatever the number of concurrent logins.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import threading
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from app.errors import DomainError, ErrorCode
from app.users.names import name_key

PASSWORD_MIN = 8
#: longest password accepted (longer ones are refused by the request schemas before hashing)
PASSWORD_MAX = 256
#: hashes computed at the same time, at most
HASH_WORKERS = 4

#: a password that is one character repeated (:func:`check_password`), as a regular expression
REPEATED_PASSWORD = r"^([\s\S])\1*$"

hasher = PasswordHasher()
T = TypeVar("T")


# --- passwords -------------------------------------------------------------------------


def normalize_password(password: str) -> str:
    """NFKC-normalise a password, so the same characters typed on different devices match."""
    return unicodedata.normalize("NFKC", password)


def check_password(password: str, name: str) -> None:
    """Validate a new password for the account ``name``.

    Rules: :data:`PASSWORD_MIN` to :data:`PASSWORD_MAX` characters and not one character
    repeated, both counted as typed (code points, before normalisation: the same rule as the
    OpenAPI schema's ``minLength``/``maxLength`` and ``not`` ``pattern``), and not the name (in
    any letter case, after NFKC normalisation, the one rule the schema cannot state).

    :raises DomainError: ``weak_password`` with ``params`` ``{"reason"}``: ``too_short`` (with
        ``min``), ``too_long`` (with ``max``), ``repeated`` or ``same_as_name``.
    """
    if len(password) < PASSWORD_MIN:
        raise _weak(f"Passwords need at least {PASSWORD_MIN} characters.", "too_short", min=PASSWORD_MIN)
    if len(password) > PASSWORD_MAX:
        raise _weak(f"Passwords can have at most {PASSWORD_MAX} characters.", "too_long", max=PASSWORD_MAX)
    if len(set(password)) == 1:
        raise _weak("A password cannot be one character repeated.", "repeated")
    if name_key(normalize_password(password)) == name_key(name):
        raise _weak("A password cannot be the same as the name.", "same_as_name")


def _weak(message: str, reason: str, **limits: int) -> DomainError:
    return DomainError(ErrorCode.WEAK_PASSWORD, message, params={"reason": reason, **limits})


# --- hashing -------------------------------------------------------------------------------------


def hash_password(password: str) -> str:
    """The Argon2id hash of ``password`` (a ``$argon2id$...`` string). Slow: see :func:`ahash_password`."""
    return hasher.hash(normalize_password(password))


def verify_password(password_hash: str, password: str) -> bool:
    """True when ``password`` matches ``password_hash``; False for a wrong password or a bad hash."""
    try:
        return hasher.verify(password_hash, normalize_password(password))
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    """True when the hash was made with weaker parameters than the current ones."""
    try:
        return hasher.check_needs_rehash(password_hash)
    except InvalidHashError:
        return True


@lru_cache(maxsize=1)
def _dummy_hash() -> str:
    return hasher.hash(secrets.token_urlsafe(16))


def burn_verify(password: str) -> None:
    """Spend the time of one verification on an unknown name, so a failed login takes as long
    whether or not the name exists."""
    verify_password(_dummy_hash(), password)


_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _executor() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        with _pool_lock:
            if _pool is None:
                _pool = ThreadPoolExecutor(max_workers=HASH_WORKERS, thread_name_prefix="argon2")
    return _pool


async def _offload(fn: Callable[..., T], *args: object) -> T:
    """``fn(*args)`` on the hashing pool, awaited."""
    return await asyncio.get_running_loop().run_in_executor(_executor(), fn, *args)


async def ahash_password(password: str) -> str:
    """:func:`hash_password` off the event loop."""
    return await _offload(hash_password, password)


async def averify_password(password_hash: str | None, password: str) -> bool:
    """:func:`verify_password` off the event loop; ``password_hash=None`` (no such user) burns
    the same time and returns False."""
    if password_hash is None:
        await _offload(burn_verify, password)
        return False
    return await _offload(verify_password, password_hash, password)


# --- API tokens ----------------------------------------------------------------------------------


def new_token() -> str:
    """A fresh random API token (43 URL-safe characters, 256 bits)."""
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    """The SHA-256 hex digest under which a token is stored and looked up."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
