"""Name and password rules, Argon2 password hashing and API token digests.

Hashing is deliberately slow and memory-hungry (Argon2id, argon2-cffi's RFC 9106 defaults), so the
async helpers run it on a small dedicated thread pool: the event loop never blocks on it and at most
:data:`HASH_WORKERS` hashes run at once, whatever the number of concurrent logins.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
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
from app.users.models import NAME_MAX

NAME_MIN = 3
PASSWORD_MIN = 8
#: longest password accepted (longer ones are refused by the request schemas before hashing)
PASSWORD_MAX = 256
#: hashes computed at the same time, at most
HASH_WORKERS = 4

_NAME_RE = re.compile(r"[A-Za-z0-9_-]+", re.ASCII)
#: the characters of a name (:func:`check_name`), as a regular-expression class
NAME_CHARS = "[A-Za-z0-9_-]"
#: a password that is one character repeated (:func:`check_password`), as a regular expression
REPEATED_PASSWORD = r"^([\s\S])\1*$"
NAME_RULES = f"Names are {NAME_MIN}-{NAME_MAX} characters long and use only letters (A-Z, a-z), digits, '_' and '-'."

hasher = PasswordHasher()
T = TypeVar("T")


# --- names and passwords -------------------------------------------------------------------------


def clean_name(name: str) -> str:
    """The name as it will be stored: surrounding whitespace removed, otherwise as typed."""
    return name.strip()


def name_key(name: str) -> str:
    """The case-insensitive key of a name (``"Alice"`` and ``" alice "`` share ``"alice"``)."""
    return clean_name(name).lower()


def check_name(name: str) -> str:
    """Validate a new account name and return it cleaned (see :func:`clean_name`).

    :raises DomainError: ``bad_name`` with ``params`` ``{"reason": "length" | "characters", "min",
        "max"}`` (and ``"length"`` for a name of the wrong length).
    """
    name = clean_name(name)
    limits = {"min": NAME_MIN, "max": NAME_MAX}
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise DomainError(
            ErrorCode.BAD_NAME,
            f"That name has {len(name)} characters. {NAME_RULES}",
            params={"reason": "length", "length": len(name), **limits},
        )
    if not _NAME_RE.fullmatch(name):
        raise DomainError(
            ErrorCode.BAD_NAME,
            f"That name contains characters that are not allowed. {NAME_RULES}",
            params={"reason": "characters", **limits},
        )
    return name


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
    if normalize_password(password).strip().lower() == name_key(name):
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
