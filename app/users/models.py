"""Account tables: ``users`` and ``api_tokens`` (DESIGN.md section 5).

Importing this module only declares tables; it has no other side effects.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String, false
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, utcnow

#: longest account name, in characters after NFKC (the rules live in :mod:`app.users.names`)
NAME_MAX = 24
#: longest name key or skeleton: case folding may lengthen a name (``ß`` folds to ``ss``), at most
#: threefold
NAME_KEY_MAX = 3 * NAME_MAX


class User(Base):
    """A player account (a person's, or a bot account: :attr:`is_bot`).

    ``name`` is kept as the player typed it, NFKC-normalised (for display); ``name_key`` is its
    case-folded form and is unique, so ``Alice`` and ``alice`` cannot both exist; ``name_skeleton``
    is its look-alike skeleton, so a name mixing scripts cannot pass for another
    (:mod:`app.users.names`). ``password_hash`` is an Argon2 hash
    (``$argon2id$...``); the password itself is never stored.
    """

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    name_key: Mapped[str] = mapped_column(String(NAME_KEY_MAX), unique=True)
    name_skeleton: Mapped[str | None] = mapped_column(String(NAME_KEY_MAX), index=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: a bot account: its owner plays it through the API with a program (docs/bots.md); shown
    #: as such wherever its name is shown, and never in a rated match with a person unless both
    #: agree. Set once by the owner (``POST /api/users/me/bot``), never unset.
    is_bot: Mapped[bool] = mapped_column(default=False, server_default=false())
    #: an administrator: may grant and revoke ranks and manage the rewards catalogue (set with
    #: ``scripts/admin.py``; never through the API)
    is_admin: Mapped[bool] = mapped_column(default=False, server_default=false())
    #: the player's rank (:class:`app.points.ranks.Rank`: ``knight`` on sign-up, then ``master``,
    #: ``lord``, ``leader``); changed only by :func:`app.points.ranks.set_rank`, which audits it
    rank: Mapped[str] = mapped_column(String(8), default="knight", server_default="knight")
    #: the language the player chose for the site (one of :data:`app.i18n.LOCALES`), or ``None``
    #: until they choose (the pages then follow the cookie or the browser); set by
    #: ``POST /api/users/me/language``
    language: Mapped[str | None] = mapped_column(String(8), default=None)

    def __repr__(self) -> str:
        return f"User(id={self.id!r}, name={self.name!r})"


class ApiToken(Base):
    """A bearer token for scripts and bots, or a browser session.

    Only the SHA-256 hex digest of the token is stored (``token_hash``); the token itself is shown
    once, when it is created. Deleting a user deletes their tokens.
    """

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(100), default="")
    #: ``api`` (a bearer token for scripts) or ``session`` (a browser login, held in the signed
    #: session cookie, deleted on log-out so a copied cookie stops working)
    kind: Mapped[str] = mapped_column(String(16), default="api", server_default="api")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[datetime | None]

    def __repr__(self) -> str:
        return f"ApiToken(id={self.id!r}, user_id={self.user_id!r}, label={self.label!r})"
