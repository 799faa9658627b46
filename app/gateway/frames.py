"""Server → client frames of ``/ws/matches/{id}`` (DESIGN.md section 4), typed, with their builders.

The client frames are parsed in :mod:`app.gateway.messages`; every frame the gateway sends is
built here and encoded by :func:`encode`:

============  =====================================================================================
``snapshot``  :class:`SnapshotFrame`, made by :meth:`app.matches.service.MatchService.snapshot` for
              one viewer; after that viewer's ``act`` it also carries the ``ack``
``error``     :class:`ErrorFrame` ``{"type": "error", "code", "message", "params", "ack"}``: a refused
              frame; nothing in the match changed and the connection stays open
``pong``      :class:`PongFrame` ``{"type": "pong"}``: the answer to ``ping``
``rematch``   :class:`RematchFrame`: the finished match's rematch offer (after ``hello`` and on
              every change), to a socket whose ``hello`` asked for ``"notices": ["rematch"]``
``spectators`` :class:`SpectatorsFrame` ``{"type": "spectators", "match_id", "count"}``: how many
              spectator sockets watch the match, in every process (after ``hello`` and on every
              change), to a socket whose ``hello`` asked for ``"notices": ["spectators"]``
``presence``  :class:`PresenceFrame` ``{"type": "presence", "match_id", "connected": [seats]}``: the
              seats whose player has a connection open now (any process), after ``hello`` and
              whenever that changes, to a socket whose ``hello`` asked for ``"notices": ["presence"]``
``chat``      :class:`ChatFrame` ``{"type": "chat", "match_id", "lines": [{"id", "seat", "phrase",
              "at"}]}``: quick-chat lines, oldest first (the recent ones after ``hello``, then
              each as it is said, to the sender too; a refused ``chat`` gets an ``error`` with
              its ``ack``), to a socket whose ``hello`` asked for ``"notices": ["chat"]``
============  =====================================================================================

Clients must ignore frame types they do not know: frames are added, never changed.

An error frame's ``code`` is one of :class:`app.errors.ErrorCode`; the client renders the words
from ``code`` and ``params`` (``message`` is English, for developers).
"""

# no ``from __future__ import annotations``: the TypedDicts' ``NotRequired`` must be seen at run
# time, so ``SnapshotFrame.__optional_keys__`` is right (Python 3.11)
import json
from collections.abc import Iterable, Mapping
from typing import Any, Final, Literal, NotRequired, TypedDict, cast

from app.errors import DomainError, ErrorCode


class ClockInfo(TypedDict):
    """A snapshot's ``clock``: which ``clock`` (``turn`` or ``bank``), ``turn_seconds`` of a
    per-turn match (0: untimed), ``remaining_ms`` left per seat that has a deadline (keys are seat
    numbers as strings), the seats that are ``away``; a time bank's ``bank_seconds``,
    ``increment_seconds`` and every person's seat's ``bank_ms`` (:func:`app.matches.views.clock_info`)."""

    clock: str
    turn_seconds: int
    remaining_ms: dict[str, int]
    away: list[int]
    bank_seconds: NotRequired[int]
    increment_seconds: NotRequired[int]
    bank_ms: NotRequired[dict[str, int]]


class SnapshotFrame(TypedDict):
    """``snapshot``: the match as one viewer may see it (``seat`` null for a spectator).

    ``view`` is the game's ``observe`` for the viewer (null before the match starts); ``to_act``
    the seats that must act, ``chosen`` those of them that chose a hidden move already; ``legal``
    this viewer's legal actions (full objects, to send back in ``act``); ``events`` the inputs
    after the ``since`` asked for, as this viewer may see them; ``result`` once over (with the
    ``seed``); ``seats`` as in the match info.
    """

    type: Literal["snapshot"]
    match_id: int
    game: str
    version: int
    seat: int | None
    status: str
    view: dict[str, Any] | None
    to_act: list[int]
    chosen: list[int]
    legal: list[Any]
    clock: ClockInfo
    events: list[dict[str, Any]]
    result: dict[str, Any] | None
    seed_hash: str
    seats: list[dict[str, Any]]
    seed: NotRequired[str]
    ack: NotRequired[str]


class ErrorFrame(TypedDict):
    """``error``: ``code`` (:class:`app.errors.ErrorCode`), ``message`` (English), ``params`` (the
    values the words need), ``ack`` (the refused frame's, or null)."""

    type: Literal["error"]
    code: str
    message: str
    params: dict[str, Any]
    ack: str | None


class PongFrame(TypedDict):
    """``pong``: the answer to ``ping``."""

    type: Literal["pong"]


class RematchFrame(TypedDict):
    """``rematch``: the rematch state of a finished match in seats (:func:`app.matches.rematch.offer_view`):
    ``status`` ``none``, ``open``, ``accepted`` (``rematch_id``: the new match) or ``declined``."""

    type: Literal["rematch"]
    match_id: int
    status: str
    offered_by: int | None
    agreed: list[int]
    waiting_for: list[int]
    declined_by: int | None
    rated: bool
    rematch_id: int | None


class SpectatorsFrame(TypedDict):
    """``spectators``: ``count`` spectator sockets watch match ``match_id`` now (every process:
    :mod:`app.matches.table_roster`)."""

    type: Literal["spectators"]
    match_id: int
    count: int


class PresenceFrame(TypedDict):
    """``presence``: the seats of match ``match_id`` whose player has a connection open now, on
    any server process (:mod:`app.matches.table_roster`). A page shows a person's seat as ``away``
    when the snapshot's ``clock.away`` lists it (the computer plays for it), else ``connected``
    when ``connected`` lists it, else ``gone``; a computer seat has no presence."""

    type: Literal["presence"]
    match_id: int
    connected: list[int]


class ChatFrame(TypedDict):
    """``chat``: quick-chat ``lines`` of match ``match_id``, oldest first, each ``{"id", "seat",
    "phrase", "at"}`` (``phrase`` a code of :data:`app.matches.chat.PHRASES`; the page has the
    words). A line may come twice (after a reconnect): clients keep one per ``id``."""

    type: Literal["chat"]
    match_id: int
    lines: list[dict[str, Any]]


ServerFrame = SnapshotFrame | ErrorFrame | PongFrame | RematchFrame | SpectatorsFrame | PresenceFrame | ChatFrame

#: domain code -> the code a websocket client gets instead; on the socket, acting without the
#: right seat is "not your turn" (a ``forbidden`` that says why, in ``params.reason``, keeps its
#: code: e.g. a spectator's chat, ``players_only``)
WIRE_CODES: Final[Mapping[ErrorCode, ErrorCode]] = {ErrorCode.FORBIDDEN: ErrorCode.NOT_YOUR_TURN}


def error_frame(error: DomainError, ack: str | None = None) -> ErrorFrame:
    """The ``error`` frame for ``error``, answering the client frame whose ``ack`` was ``ack``.

    >>> error_frame(DomainError("stale_version", "at 12", params={"version": 12}), "a1")["params"]
    {'version': 12}
    """
    code = error.code if "reason" in error.params else WIRE_CODES.get(error.code, error.code)
    return {"type": "error", "code": code.value, "message": error.message, "params": dict(error.params), "ack": ack}


def snapshot_frame(snapshot: Mapping[str, Any], ack: str | None = None) -> SnapshotFrame:
    """The ``snapshot`` frame: a copy of ``snapshot`` (from ``MatchService.snapshot``) with
    ``ack`` added when it answers an ``act``.

    :raises ValueError: ``snapshot`` is not a snapshot (its ``type`` is not ``"snapshot"``).
    """
    if snapshot.get("type") != "snapshot":
        raise ValueError(f"not a snapshot: type {snapshot.get('type')!r}")
    frame = cast(SnapshotFrame, dict(snapshot))
    if ack is not None:
        frame["ack"] = ack
    return frame


def snapshot_text(text: str, ack: str | None = None) -> str:
    """The encoded ``snapshot`` frame ``text`` (from ``MatchService.snapshot_text``, shared by
    every connection that gets it) with ``ack`` added as its last key when it answers an ``act``:
    the frame :func:`snapshot_frame` would make, encoded, without decoding ``text`` again.

    :raises ValueError: ``text`` is not an encoded snapshot object.
    """
    if not (text.startswith('{"type":"snapshot"') and text.endswith("}")):
        raise ValueError("not an encoded snapshot")
    if ack is None:
        return text
    return f"{text[:-1]},{_ACK_KEY}{json.dumps(ack)}}}"


_ACK_KEY = '"ack":'


def pong_frame() -> PongFrame:
    """The ``pong`` frame."""
    return {"type": "pong"}


def rematch_frame(view: Mapping[str, Any]) -> RematchFrame:
    """The ``rematch`` frame of an offer's state (:func:`app.matches.rematch.offer_view`)."""
    return cast(RematchFrame, {"type": "rematch", **view})


def spectators_frame(match_id: int, count: int) -> SpectatorsFrame:
    """The ``spectators`` frame."""
    return {"type": "spectators", "match_id": match_id, "count": count}


def presence_frame(match_id: int, connected: Iterable[int]) -> PresenceFrame:
    """The ``presence`` frame: the seats of ``match_id`` with a connection open (sorted).

    >>> presence_frame(7, {1, 0})
    {'type': 'presence', 'match_id': 7, 'connected': [0, 1]}
    """
    return {"type": "presence", "match_id": match_id, "connected": sorted(connected)}


def chat_frame(match_id: int, lines: list[dict[str, Any]]) -> ChatFrame:
    """The ``chat`` frame carrying ``lines`` (from :mod:`app.matches.chat`), oldest first."""
    return {"type": "chat", "match_id": match_id, "lines": lines}


def encode(frame: ServerFrame) -> str:
    """The frame as compact JSON text, as it goes on the wire."""
    return json.dumps(frame, separators=(",", ":"))
