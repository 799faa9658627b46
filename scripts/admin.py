"""Make a player an administrator, or stop them being one (issue 13, item 5): sets
``users.is_admin``. Administrators grant and revoke ranks, adjust points, manage the rewards
catalogue and moderate clans (docs/points.md); nobody can become one through the API.

Run from the repository root, on the database of ``DATABASE_URL`` (or ``--url``)::

    .venv/bin/python scripts/admin.py grant alice     # alice is now an administrator
    .venv/bin/python scripts/admin.py revoke alice    # alice is not any more
    .venv/bin/python scripts/admin.py list            # every administrator

Prints what it did (``alice: administrator`` / ``alice: not an administrator``, ``(unchanged)``
when it already was so); exits 1, changing nothing, for a name nobody has. The change holds from
the player's next request on (every administrator's request is checked against the database).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sqlalchemy import select, update  # noqa: E402

from app.db.session import make_engine, make_sessionmaker  # noqa: E402
from app.settings import get_settings  # noqa: E402
from app.users.models import User  # noqa: E402
from app.users.security import name_key  # noqa: E402


async def set_admin(url: str, name: str, value: bool) -> str:
    """Set ``users.is_admin`` of the player called ``name`` (any case) to ``value``.

    :returns: the line to print.
    :raises LookupError: nobody has that name.
    """
    engine = make_engine(url)
    try:
        async with make_sessionmaker(engine)() as session, session.begin():
            user = await session.scalar(select(User).where(User.name_key == name_key(name)).with_for_update())
            if user is None:
                raise LookupError(f"there is no player {name!r}")
            before = user.is_admin
            await session.execute(update(User).where(User.id == user.id).values(is_admin=value))
            shown = user.name
    finally:
        await engine.dispose()
    what = "administrator" if value else "not an administrator"
    return f"{shown}: {what}" + (" (unchanged)" if before == value else "")


async def list_admins(url: str) -> list[str]:
    """The names of every administrator, in name order."""
    engine = make_engine(url)
    try:
        async with make_sessionmaker(engine)() as session:
            return list(await session.scalars(select(User.name).where(User.is_admin).order_by(User.name_key)))
    finally:
        await engine.dispose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Grant or revoke a player's administrator right.")
    parser.add_argument("action", choices=["grant", "revoke", "list"])
    parser.add_argument("name", nargs="?", help="the player's name (grant, revoke)")
    parser.add_argument("--url", default=None, help="database URL (default: DATABASE_URL, else the settings)")
    args = parser.parse_args(argv)
    url = args.url or get_settings().database_url
    if args.action == "list":
        for name in asyncio.run(list_admins(url)):
            print(name)
        return 0
    if not args.name:
        parser.error("grant and revoke need a player's name")
    try:
        print(asyncio.run(set_admin(url, args.name, args.action == "grant")))
    except LookupError as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
