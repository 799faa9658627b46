"""The rewards page (issue 13, item 7: the rewards part), server-rendered from
:func:`app.rewards.service.catalogue` (the same data as ``GET /api/rewards``); its buttons and the
administrators' form call ``/api/rewards`` from ``static/js/rewards.js`` and show refusals in the
words of ``static/js/messages.js``.

=============================  ===========================================================
``/rewards``                   the catalogue by kind with costs; your balance; buy and show
                               buttons; for administrators every reward (on sale or not),
                               a cost and on/off-sale control each, and the form to add one
=============================  ===========================================================

Reward names come from their codes (``templates/_reward.html``).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.i18n.jinja import N_
from app.rewards.models import RewardKind
from app.rewards.service import catalogue
from app.users.deps import OptionalUser, SessionDep
from app.web.pages import render_page

router = APIRouter(include_in_schema=False)


@router.get("/rewards", response_class=HTMLResponse)
async def rewards_page(request: Request, session: SessionDep, user: OptionalUser) -> HTMLResponse:
    """The rewards catalogue (visitors see it too, with a link to log in)."""
    admin = bool(user and user.is_admin)
    data = await catalogue(session, user.id if user else None, everything=admin)
    return render_page(
        request, "rewards.html", user, title=N_("Rewards"), shop=data, kinds=[k.value for k in RewardKind], admin=admin
    )
