"""Settings from environment variables (pydantic-settings), after full-stack-fastapi-template's
``core/config.py``: a default ``SECRET_KEY`` is refused outside development."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, NonNegativeInt, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

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
    #: quick-chat lines one player may say (per user, across matches and processes), e.g. "4/10second"
    chat_rate_limit: str = "4/10second; 20/10minute"
    #: largest websocket frame accepted, in bytes
    ws_max_frame_bytes: int = 16_384
    #: seconds a computer seat waits before acting, so people can follow
    bot_delay_seconds: float = 0.6
    #: where computer moves are chosen: "process" (a worker pool; the default), "thread", or
    #: "inline" (on the event loop: debugging only)
    bot_pool: Literal["process", "thread", "inline"] = "process"
    #: workers in the bot pool
    bot_workers: int = Field(default=2, ge=1, le=64)
    #: the time budget a bot gets for one move, in milliseconds (bots turn it into an amount of work)
    bot_budget_ms: int = Field(default=50, ge=1, le=60_000)
    #: seconds to wait for a bot's move before giving up on it (a later sweep tries again)
    bot_timeout_seconds: float = Field(default=30.0, gt=0)
    #: modules the bot workers import at start: games or bot levels registered outside app/games
    bot_worker_imports: list[str] = []
    #: how much lower the bot worker processes' CPU priority is (0-19), so people are answered first
    bot_worker_nice: int = Field(default=10, ge=0, le=19)
    #: seconds between sweeps for overdue clocks
    clock_tick_seconds: float = 0.5
    #: a waiting match nobody joins is aborted after this many seconds
    waiting_expiry_seconds: int = 3600
    #: a running match whose every human seat has been away this long ends as abandoned
    abandon_after_seconds: int = 900
    #: waiting matches one player may have open at once
    max_open_matches: int = 5
    #: net new container objects between the garbage collector's young collections, set with a
    #: freeze of everything alive once the app has started (``app/runtime.py``: the defaults cost
    #: a loaded server a third of its CPU); 0 leaves Python's collector as it is
    gc_young_threshold: int = Field(default=10_000, ge=0)
    #: database connections each process keeps for requests, and how many more it may open at peaks
    #: (none by default: a connection opened at a peak is closed when it comes back to a full pool,
    #: and opening one costs PostgreSQL a new backend and the driver its type introspection. With
    #: 500 matches at think 0.5 s, 20 + 10 opened and closed 15 connections a second, PostgreSQL
    #: used 50 % of a core and the server served 537 actions/s at p50 194 ms; a fixed pool of 20
    #: opened none, PostgreSQL used 28 % and the server 665 actions/s at p50 107 ms. A request
    #: waits for a connection instead, up to ``db_pool_timeout_seconds``. 20 + 3 per process keeps
    #: four processes under PostgreSQL's default ``max_connections`` of 100)
    db_pool_size: int = Field(default=20, ge=1)
    db_max_overflow: int = Field(default=0, ge=0)
    #: database connections each process keeps apart for the sweeper (clocks, computer moves) and
    #: health checks, so a flood of requests never starves them
    db_background_pool_size: int = Field(default=3, ge=1)
    #: seconds a request waits for a database connection, or for its match's earlier requests,
    #: before it is refused with 503 ``busy`` (nothing changed; ``Retry-After`` says when to retry)
    db_pool_timeout_seconds: float = Field(default=5.0, gt=0)
    match_lock_wait_seconds: float = Field(default=5.0, gt=0)
    #: seconds an act may arrive after its seat's deadline (network lag) before it is refused as
    #: ``too_late`` and the timeout applies
    late_allowance_seconds: float = Field(default=2.0, ge=0)
    #: matches each process keeps decoded for snapshots (``app.matches.live``; least recently used out)
    live_matches: int = Field(default=10_000, ge=1)
    session_max_age_seconds: int = 14 * 24 * 3600
    #: mark the session cookie Secure (HTTPS only); defaults to true in production
    session_https_only: bool | None = None
    log_json: bool = False
    #: addresses or networks ("10.0.0.0/8") of the reverse proxies whose ``X-Forwarded-For`` and
    #: ``X-Forwarded-Proto`` are believed; comma-separated; empty (the default): nobody's
    trusted_proxies: Annotated[list[str], NoDecode] = []
    #: origins ("https://games.example") besides this site's own whose pages may send
    #: cookie-authenticated changes and open websockets; comma-separated
    allowed_origins: Annotated[list[str], NoDecode] = []
    #: websockets one user may have open at once (per server process)
    ws_max_sockets_per_user: int = Field(default=12, ge=1)
    #: websockets one client address may have open at once (per server process)
    ws_max_sockets_per_address: int = Field(default=48, ge=1)
    #: anonymous spectator sockets on one match (per server process)
    ws_max_anonymous_per_match: int = Field(default=100, ge=0)
    #: anonymous spectator sockets from one client address (per server process)
    ws_max_anonymous_per_address: int = Field(default=6, ge=0)
    #: websocket frames one user may send across all their sockets
    ws_user_rate_limit: str = "100/10second"
    #: websocket frames one client address may send across all its sockets
    ws_address_rate_limit: str = "200/10second"
    #: saved decks one player may have
    max_decks_per_user: int = Field(default=100, ge=0)
    #: API tokens (not browser sessions) one account may have
    max_tokens_per_user: int = Field(default=20, ge=0)
    #: players one clan may have, its leader included
    clan_max_members: int = Field(default=30, ge=2, le=500)
    #: lifetime points (``player_points.earned``) that make a player a Master, a Lord, a Leader
    #: (:class:`app.points.ranks.RankThresholds`)
    rank_master_points: int = Field(default=500, ge=1)
    rank_lord_points: int = Field(default=2000, ge=1)
    rank_leader_points: int = Field(default=5000, ge=1)
    #: clan ladder points a month's gold, silver and bronze bring their clan in the next month
    #: (``CLAN_TROPHY_BONUS='[300,200,100]'``; :mod:`app.clans.month_close`)
    clan_trophy_bonus: tuple[NonNegativeInt, NonNegativeInt, NonNegativeInt] = (300, 200, 100)
    #: player points each member of a gold, silver, bronze clan gets at the month's close
    clan_trophy_member_points: tuple[NonNegativeInt, NonNegativeInt, NonNegativeInt] = (50, 30, 20)
    #: how often the month-close job looks whether a month has ended (it also wakes at the turn)
    clan_ladder_tick_seconds: float = Field(default=60.0, gt=0)
    #: posts one player may write on clan walls
    clan_wall_rate_limit: str = "5/minute;30/day"
    #: points a player earns for a win in a rated match (``rated_win``; :mod:`app.points.consumer`)
    points_rated_win: int = Field(default=10, ge=0, le=100_000)
    #: points for a win over a Lord or a Leader (``beat_lord``), on top of the win's own points
    points_beat_lord: int = Field(default=25, ge=0, le=100_000)
    #: open (proposed or accepted) challenges two clans may have between them at once
    challenge_open_limit: int = Field(default=3, ge=1, le=100)
    #: clan ladder points a clan gets for a won challenge series (``clan_points``, ``challenge_win``)
    challenge_win_points: int = Field(default=10, ge=1)
    #: player points for each board a player of the winning clan won (``points_ledger``, ``challenge_win``)
    challenge_board_points: int = Field(default=5, ge=1)
    #: how often the challenge deadline job looks for due challenges, in seconds
    challenge_tick_seconds: float = Field(default=5.0, gt=0)

    @field_validator("trusted_proxies", "allowed_origins", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        """``"a, b"`` (as an environment variable gives it) -> ``["a", "b"]``; a list stays."""
        if isinstance(value, str):
            return [item.strip() for item in value.split(",") if item.strip()]
        return value

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
