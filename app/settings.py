"""Settings from environment variables (pydantic-settings), after full-stack-fastapi-template's
``core/config.py``: a default ``SECRET_KEY`` is refused outside development."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent
DEV_SECRET = "dev-insecure-change-me"


class Settings(BaseSettings):
    """Every knob of the server. Read from the environment (and ``.env`` if present).

    ``DATABASE_URL``: SQLAlchemy async URL; SQLite file under ``var/`` by default, PostgreSQL as
    ``postgresql+asyncpg://user@host/db``. ``REDIS_URL``: optional; when set, match updates are
    published over Redis so several server processes can serve one match.
    """

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    env: Literal["development", "test", "production"] = "development"
    database_url: str = f"sqlite+aiosqlite:///{ROOT / 'var' / 'arena.db'}"
    redis_url: str | None = None
    secret_key: str = DEV_SECRET
    #: login attempts allowed per client address and per account name, e.g. "10/minute"
    login_rate_limit: str = "10/minute"
    #: sign-ups allowed per client address
    register_rate_limit: str = "20/hour"
    #: websocket frames a connection may send, e.g. "30/10second"
    ws_rate_limit: str = "40/10second"
    #: largest websocket frame accepted, in bytes
    ws_max_frame_bytes: int = 16_384
    #: seconds a computer seat waits before acting, so people can follow
    bot_delay_seconds: float = 0.6
    #: seconds between sweeps for overdue clocks
    clock_tick_seconds: float = 0.5
    #: a waiting match nobody joins is aborted after this many seconds
    waiting_expiry_seconds: int = 3600
    #: a running match whose every human seat has been away this long ends as abandoned
    abandon_after_seconds: int = 900
    #: waiting matches one player may have open at once
    max_open_matches: int = 5
    session_max_age_seconds: int = 14 * 24 * 3600
    #: mark the session cookie Secure (HTTPS only); defaults to true in production
    session_https_only: bool | None = None
    log_json: bool = False

    @model_validator(mode="after")
    def _refuse_default_secret(self) -> Settings:
        if self.env != "development" and self.env != "test" and self.secret_key == DEV_SECRET:
            raise ValueError("SECRET_KEY must be set outside development (ENV=production)")
        if self.env == "production" and len(self.secret_key) < 32:
            raise ValueError("SECRET_KEY must be at least 32 characters in production")
        return self

    @property
    def cookie_https_only(self) -> bool:
        """Whether the session cookie is Secure: ``SESSION_HTTPS_ONLY``, else production only."""
        return self.env == "production" if self.session_https_only is None else self.session_https_only

    @property
    def is_sqlite(self) -> bool:
        """True for the embedded SQLite default."""
        return self.database_url.startswith("sqlite")


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings (cached; tests build their own :class:`Settings`)."""
    return Settings()
