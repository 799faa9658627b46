"""Server → client frames of ``/ws/matches/{id}`` (DESIGN.md section 4), typed, with their builders.

The client frames are parsed in :mod:`app.gateway.messages`; every frame the gateway sends is
built here and encoded by :func:`encode`:

============  =====================================================================================
``snapshot``  :class:`SnapshotFrame`, made by :meth:`app.matches.service.MatchService.snapshot` for
              one viewer; after that viewer's ``act`` it also carries the ``ack``
``error``     :class:`ErrorFrame` ``{"type": "error", "code", "message", "params", "ack"}``: a refused
              frame; nothing in the match changed and the connection stays open
``pong``      :class:`PongFrame` ``{"type": "pong"}``: the answer to ``ping``
============  =====================================================================================

An error frame's ``code`` is one of :class:`app.errors.ErrorCode`; the client renders the words
from ``code`` and ``params`` (``message`` is English, for developers).
"""

# no ``from __future__ import annotations``: the TypedDicts' ``NotRequired`` must be seen at run
# time, so ``SnapshotFrame.__optional_keys__`` is right (Python 3.11)
import json
from collections.abc import Mapping
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


ServerFrame = SnapshotFrame | ErrorFrame | PongFrame

#: domain code -> the code a websocket client gets instead; on the socket, acting without the
#: right seat is "not your turn"
WIRE_CODES: Final[Mapping[ErrorCode, ErrorCode]] = {ErrorCode.FORBIDDEN: ErrorCode.NOT_YOUR_TURN}


def error_frame(error: DomainError, ack: str | None = None) -> ErrorFrame:
    """The ``error`` frame for ``error``, answering the client frame whose ``ack`` was ``ack``.

    >>> error_frame(DomainError("stale_version", "at 12", params={"version": 12}), "a1")["params"]
    {'version': 12}
    """
    code = WIRE_CODES.get(error.code, error.code)
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


def encode(frame: ServerFrame) -> str:
    """The frame as compact JSON text, as it goes on the wire."""
    return json.dumps(frame, separators=(",", ":"))
