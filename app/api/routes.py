"""Every ``/api`` router in one place (OpenAPI at ``/docs``, schema at ``/api/openapi.json``)."""

from fastapi import APIRouter

from app.admin.routes import router as admin_router
from app.api.clan_ladder import router as clan_ladder_router
from app.api.games import router as games_router
from app.clans.challenges.routes import clan_router as challenges_clan_router
from app.clans.challenges.routes import router as challenges_router
from app.clans.routes import outside_router as clans_outside_router
from app.clans.routes import router as clans_router
from app.decks.routes import router as decks_router
from app.gateway.sse import router as stream_router
from app.matches.routes import router as matches_router
from app.points.routes import router as points_router
from app.ratings.routes import router as ratings_router
from app.rewards.routes import outside_router as rewards_outside_router
from app.rewards.routes import router as rewards_router
from app.tournaments.routes import router as tournaments_router
from app.users.routes import router as users_router

router = APIRouter()
# routes are matched in order, one by one: the match routes, which a match's players call, first
router.include_router(matches_router)
router.include_router(users_router)
router.include_router(games_router)
router.include_router(decks_router)
router.include_router(ratings_router)
router.include_router(stream_router)
router.include_router(clans_router)
router.include_router(clans_outside_router)
router.include_router(clan_ladder_router)
router.include_router(tournaments_router)
router.include_router(points_router)
router.include_router(rewards_router)
router.include_router(rewards_outside_router)
router.include_router(admin_router)
router.include_router(challenges_clan_router)
router.include_router(challenges_router)
