"""What a match looks like from outside: public match info and per-viewer event views.

The only place that decides which part of a stored event a viewer may see (after boardgame.io's
``filter-player-view``): an input's action is shown to the seats in its ``visible_to`` (everyone
when null), engine events to the seats in their own ``visible_to``; a viewer who may not see an
event still learns its version and kind (as Lichess does). Once the match is over, all is revealed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from app.games.core import Event
from app.matches.models import ACTIVE, FINISHED, Match, MatchEvent, MatchResult
from app.matches.time_control import TimeControl

if TYPE_CHECKING:
    from app.matches.store import MatchRecord


def seat_of(m: Match | MatchRecord, user_id: int | None) -> int | None:
    """The seat ``user_id`` holds in ``m``, or ``None``."""
    if user_id is None:
        return None
    for s in m.seats:
        if s.user_id == user_id:
            return s.seat
    return None


def clock_info(m: Match | MatchRecord, now: datetime) -> dict[str, Any]:
    """The match's clocks, computed on the server so a client's own clock never matters:
    ``{"clock": "turn" | "bank", "turn_seconds", "remaining_ms": {seat: ms}, "away": [seats]}``,
    and for a time bank ``"bank_seconds"``, ``"increment_seconds"`` and ``"bank_ms": {seat: ms}``.

    ``remaining_ms``: milliseconds left for every person's seat that has a deadline (not computer
    seats, not resigned ones); under a time bank that is the running bank. ``bank_ms``: every
    person's seat's bank (the running one, or the one it stopped at); keys are seat numbers as
    strings."""
    return clock_of(m.status, m.options, m.seats, now)


def clock_of(status: str, options: Mapping[str, Any], seats: Iterable[Any], now: datetime) -> dict[str, Any]:
    """:func:`clock_info` from a match's ``status``, ``options`` and seats (``match_seats`` rows
    or :class:`~app.matches.live.SeatInfo`: ``seat``, ``deadline_at``, ``bot_level``,
    ``resigned``, ``away``, ``bank_ms``)."""
    tc = TimeControl.of(options)
    remaining = {}
    banks = {}
    away = []
    for s in seats:
        person = status == ACTIVE and not s.bot_level and not s.resigned
        if person and s.deadline_at is not None:
            remaining[str(s.seat)] = tc.running_left(s.deadline_at, now)
        if person and tc.is_bank:
            running = s.deadline_at is not None and not s.away
            banks[str(s.seat)] = tc.running_left(s.deadline_at, now) if running else tc.bank_of(s.bank_ms)
        if s.away:
            away.append(s.seat)
    info: dict[str, Any] = {
        "clock": tc.clock,
        "turn_seconds": options.get("turn_seconds", 0),
        "remaining_ms": remaining,
        "away": away,
    }
    if tc.is_bank:
        info.update(bank_seconds=tc.bank_seconds, increment_seconds=tc.increment_seconds, bank_ms=banks)
    return info


def seats_info(
    seats: Iterable[Any],
    name_of: Callable[[Any], str | None],
    is_bot_of: Callable[[Any], bool],
    rank_of: Callable[[Any], str | None],
) -> list[dict[str, Any]]:
    """The public ``seats`` list of a match: ``[{"seat", "user": {"id", "name", "is_bot", "rank"} |
    null, "bot", "away", "resigned", "result"}]`` from ``match_seats`` rows or
    :class:`~app.matches.live.SeatInfo` (``name_of(seat)``: the holder's name; ``is_bot_of(seat)``:
    whether the holder is a bot account; ``rank_of(seat)``: their rank, ``users.rank``, shown beside
    the name). ``bot`` is the level of a computer seat; ``is_bot`` marks a person's program playing
    through the API."""
    return [
        {
            "seat": s.seat,
            "user": (
                {"id": s.user_id, "name": name_of(s), "is_bot": is_bot_of(s), "rank": rank_of(s)}
                if s.user_id is not None
                else None
            ),
            "bot": s.bot_level,
            "away": s.away,
            "resigned": s.resigned,
            "result": s.result,
        }
        for s in seats
    ]


def match_info(m: Match | MatchRecord, now: datetime) -> dict[str, Any]:
    """Public info of a match: no state, no pending choice; the seed only once it is over.

    :returns: ``{"id", "game", "status", "origin", "origin_ref", "options" (with ``rated``),
        "num_players", "created_by", "version", "seed_hash", "created_at", "started_at",
        "finished_at", "result", "seats": [{"seat", "user", "bot", "away", "resigned", "result"}],
        "clock", "seed"?}``.
    """
    info: dict[str, Any] = {
        "id": m.id,
        "game": m.game,
        "status": m.status,
        "origin": m.origin,
        "origin_ref": m.origin_ref,
        "options": {"rated": False, **m.options},
        "num_players": m.num_players,
        "created_by": m.created_by,
        "version": m.version,
        "seed_hash": m.seed_hash,
        "created_at": m.created_at.isoformat(),
        "started_at": m.started_at.isoformat() if m.started_at else None,
        "finished_at": m.finished_at.isoformat() if m.finished_at else None,
        "result": m.result,
        "seats": seats_info(m.seats, _user_name, _user_is_bot, _user_rank),
        "clock": clock_info(m, now),
    }
    if m.status == FINISHED:
        info["seed"] = m.seed
    return info


#: the options of a match's clock, public wherever the match is listed
CLOCK_OPTIONS = ("clock", "turn_seconds", "bank_seconds", "increment_seconds")


def live_info(m: Match) -> dict[str, Any]:
    """A running match as the "Live now" list shows it: ``{"id", "game", "origin", "num_players",
    "started_at", "turn_seconds", "options", "seats": [{"seat", "user": {"id", "name", "is_bot",
    "rank"} | null, "bot"}]}``; ``options`` holds only the clock (``clock``, ``turn_seconds``,
    ``bank_seconds``, ``increment_seconds``: what the list shows). Nothing else: no other option,
    no state, no seed."""
    return {
        "id": m.id,
        "game": m.game,
        "origin": m.origin,
        "num_players": m.num_players,
        "started_at": m.started_at.isoformat() if m.started_at else None,
        "turn_seconds": m.options.get("turn_seconds", 0),
        "options": {k: m.options[k] for k in CLOCK_OPTIONS if k in m.options},
        "seats": [
            {"seat": s["seat"], "user": s["user"], "bot": s["bot"]}
            for s in seats_info(m.seats, _user_name, _user_is_bot, _user_rank)
        ],
    }


def _user_name(s: Any) -> str | None:
    return s.user.name if s.user is not None else None


def _user_is_bot(s: Any) -> bool:
    return bool(s.user.is_bot) if s.user is not None else False


def _user_rank(s: Any) -> str | None:
    return s.user.rank if s.user is not None else None


def result_view(r: MatchResult) -> dict[str, Any]:
    """One ``match_results`` row as JSON: ``{"seat", "user_id", "team", "rank", "result",
    "reason", "score", "computer_finished"}``."""
    return {
        "seat": r.seat,
        "user_id": r.user_id,
        "team": r.team,
        "rank": r.rank,
        "result": r.result,
        "reason": r.reason,
        "score": r.score,
        "computer_finished": r.computer_finished,
    }


def event_views(rows: Iterable[MatchEvent], viewer: int | None, reveal_all: bool) -> list[dict[str, Any]]:
    """Each stored input as ``viewer`` may see it:
    ``{"version", "kind", "seat", "action" (or null when hidden), "hidden": bool, "events": [...],
    "at"}`` plus ``seed_hash`` / ``result`` / ``seed`` on start and end rows."""
    out = []
    for row in rows:
        p = row.payload
        vis = p.get("visible_to")
        can_see = reveal_all or vis is None or (viewer is not None and viewer in vis)
        view: dict[str, Any] = {
            "version": row.version,
            "kind": row.kind,
            "seat": row.seat,
            "action": p.get("action") if can_see else None,
            "hidden": not can_see,
            "events": [Event.from_json(e).view(viewer, reveal_all=reveal_all) for e in p.get("events", ())],
            "at": row.created_at.isoformat(),
        }
        for key in ("seed_hash", "result", "seed"):
            if key in p:
                view[key] = p[key]
        out.append(view)
    return out
