"""The application factory: wires settings, database, event hub, match service, routes and pages.

``create_app(settings)`` builds a fresh app (tests build one per case); ``app`` is the module-level
instance uvicorn serves (``uvicorn app.main:app``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.middleware.sessions import SessionMiddleware
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app.api.errors import install_error_handlers
from app.api.origin import SameOriginMiddleware
from app.db.session import make_engine, make_lookup_sessionmaker, make_sessionmaker
from app.logging import configure_logging
from app.matches.clock import Clock
from app.runtime import tune_gc, watch_loop
from app.settings import ROOT, Settings, get_settings

#: where the API docs page's Swagger UI files are served (from the fastapi-offline package)
DOCS_ASSETS = "/docs/assets"


def create_app(settings: Settings | None = None, *, clock: Clock | None = None, start_workers: bool = True) -> FastAPI:
    """Build the ASGI app.

    :param settings: defaults to the environment's settings.
    :param clock: the match service's time source (``app.matches.clock.Clock``); tests pass a fake.
    :param start_workers: run the background clock sweeper and bot runner (off in some unit tests).
    """
    settings = settings or get_settings()
    configure_logging(json=settings.log_json)
    pools = {"pool_size": settings.db_pool_size, "max_overflow": settings.db_max_overflow}
    engine = make_engine(settings.database_url, **pools, pool_timeout=settings.db_pool_timeout_seconds)
    sessionmaker = make_sessionmaker(engine)
    lookups = make_lookup_sessionmaker(engine)  # the user behind a request or socket
    # the sweeper's and the health check's own connections (settings.db_background_pool_size)
    background_engine = make_engine(
        settings.database_url, pool_size=settings.db_background_pool_size, max_overflow=0, pool_timeout=30
    )
    background = make_sessionmaker(background_engine)

    from app.clans import month_close
    from app.clans.challenges.jobs import start as start_challenges
    from app.gateway.budget import SocketBudget
    from app.matches.chat import TableChat
    from app.matches.clock import SystemClock
    from app.matches.hub import make_hub
    from app.matches.rematch import Rematches
    from app.matches.service import MatchService
    from app.matches.table_roster import TableRoster
    from app.points.consumer import start as start_points
    from app.ratelimit import RateLimiter
    from app.ratings.apply import start as start_ratings
    from app.tournaments.runner import TournamentRunner
    from app.tournaments.service import TournamentService
    from app.users.revocations import make_revocations

    hub = make_hub(settings.redis_url)
    service = MatchService(sessionmaker, hub, settings=settings, clock=clock or SystemClock(), background=background)
    revocations = make_revocations(settings.redis_url)
    # what happens at a match's table travels between processes as the hub's table notices:
    # who is there (connected seats, spectators), quick chat (issue 16), rematch offers
    roster = TableRoster(hub)
    rematches = Rematches(service)
    chat_limiter = RateLimiter.from_settings(settings, settings.chat_rate_limit, namespace="chat")
    chat = TableChat(sessionmaker, hub, service, chat_limiter, service.clock)
    tournament_runner = TournamentRunner(background, service)
    tournaments = TournamentService(sessionmaker, service, service.clock, tournament_runner.wake)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        await revocations.start()
        await roster.start()
        ratings_task = month_close_task = tournaments_task = points_task = None
        challenge_tasks: list[asyncio.Task[None]] = []
        if start_workers:
            await service.start_workers()
            # ratings consume the finished matches' results (app/ratings/apply.py), on the
            # background pool, woken by the "match finished" notice
            ratings_task = start_ratings(background, hub)
            # the clan ladders' month close (app/clans/month_close.py), on the service's clock
            month_close_task = month_close.start(background, settings, service.clock)
            # tournaments: results onto boards, then the due steps (app/tournaments/runner.py)
            tournaments_task = asyncio.create_task(tournament_runner.run_forever(hub))
            # player points for rated wins and wins over a Lord (app/points/consumer.py), the same way
            points_task = start_points(background, hub, settings)
            # clan challenges: boards decided by their matches, and the deadline job
            # (app/clans/challenges/results.py, deadlines.py)
            challenge_tasks = start_challenges(background, hub, service, settings)
        tune_gc(settings.gc_young_threshold)
        loop_watch = asyncio.create_task(watch_loop())  # logs the event loop's stalls (app/runtime.py)
        try:
            yield
        finally:
            loop_watch.cancel()
            await asyncio.gather(loop_watch, return_exceptions=True)
            await month_close.stop(month_close_task)
            for task in (ratings_task, points_task, tournaments_task, *challenge_tasks):
                if task is not None:
                    task.cancel()
                    await asyncio.gather(task, return_exceptions=True)
            await service.stop_workers()
            await roster.stop()
            await revocations.stop()
            await hub.stop()
            await engine.dispose()
            await background_engine.dispose()

    # the API docs page at /docs draws with Swagger UI served by this server, not a CDN, so it
    # works offline: fastapi-offline ships Swagger UI's files and serves them under DOCS_ASSETS
    app = FastAPIOffline(
        title="Tabletop Arena",
        description="The public API of Tabletop Arena: accounts and tokens, games, matches (and their "
        'HTTP twin of the websocket `act`), decks. Errors are `{"error": {"code", "message", '
        '"params"}}`; clients read `code` and `params`. Bots: see docs/bots.md.',
        version="0.1.0",
        lifespan=lifespan,
        docs_url="/docs",
        redoc_url=None,
        static_url=DOCS_ASSETS,
        openapi_url="/api/openapi.json",
    )
    app.state.settings = settings
    app.state.engine = engine
    app.state.sessionmaker = sessionmaker
    app.state.lookup_sessionmaker = lookups
    app.state.hub = hub
    app.state.matches = service
    app.state.revocations = revocations
    app.state.roster = roster
    app.state.rematches = rematches
    app.state.chat = chat
    app.state.tournaments = tournaments
    app.state.ws_budget = SocketBudget.from_settings(settings)

    app.add_middleware(
        SessionMiddleware,
        secret_key=settings.secret_key,
        session_cookie="arena_session",
        max_age=settings.session_max_age_seconds,
        same_site="lax",
        https_only=settings.cookie_https_only,
    )
    # cookie-authenticated changes and websockets only from this site's pages (app/api/origin.py)
    app.add_middleware(SameOriginMiddleware, allowed_origins=settings.allowed_origins, session_cookie="arena_session")
    if settings.trusted_proxies:  # the client address from X-Forwarded-For, only from these peers
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.trusted_proxies)
    install_error_handlers(app)

    from app.api.routes import router as api_router
    from app.gateway.ws import router as ws_router
    from app.web.routes import router as web_router

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        """Liveness and database check for load balancers and docker-compose."""
        from sqlalchemy import text

        async with background() as session:
            await session.execute(text("SELECT 1"))
        return {"status": "ok"}

    # routes are matched in order, one by one (81 under /api): the match socket, opened twice per
    # match, first (under load, trying every /api route first cost 1-2 % of the event loop)
    app.include_router(ws_router)
    app.include_router(api_router)
    app.include_router(web_router)
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    from app.api.openapi import install_openapi

    install_openapi(app)  # every status and error body per operation, game enums (app/api/openapi.py)
    return app


app: FastAPI  # the served app, built on first access (``uvicorn app.main:app``) by __getattr__


def __getattr__(name: str) -> FastAPI:  # lazily build the served app, so importing this module is cheap
    if name == "app":
        global app
        app = create_app()
        return app
    raise AttributeError(name)
