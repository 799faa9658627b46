"""Import every domain's models so ``Base.metadata`` knows every table (for Alembic and tests)."""

from app.admin import models as _admin  # noqa: F401
from app.clans import ladder_models as _clan_ladder  # noqa: F401
from app.clans import models as _clans  # noqa: F401
from app.clans import wall_models as _clan_wall  # noqa: F401
from app.clans.challenges import models as _challenges  # noqa: F401
from app.db.base import Base
from app.decks import models as _decks  # noqa: F401
from app.matches import models as _matches  # noqa: F401
from app.points import models as _points  # noqa: F401
from app.ratings import models as _ratings  # noqa: F401
from app.rewards import models as _rewards  # noqa: F401
from app.tournaments import models as _tournaments  # noqa: F401
from app.users import models as _users  # noqa: F401

metadata = Base.metadata
