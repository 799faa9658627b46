"""Parsing of client frames into typed messages (DESIGN.md section 4). Never decides a rule.

Client → server frames (JSON text, at most ``ws_max_frame_bytes``):

========  ==========================================================================
``hello``  ``{"type": "hello", "since": <int ≥ 0>, "notices": [...], "chat_since": <int ≥ 0>}``:
           the last version the client has; ``notices`` (optional, none by default) the extra
           frames it wants, any of :data:`NOTICES` (:mod:`app.gateway.frames`): ``"rematch"``
           (the offer once the match is over), ``"spectators"`` (the count), ``"presence"`` (the
           connected seats), ``"chat"`` (the quick chat, starting with the lines after
           ``chat_since``: the last line id the client has; 0: the recent ones). The match page
           asks for all four; a bot need ask for none
``act``    ``{"type": "act", "action": <object from legal>, "version": <int>, "ack": <str>}``
``back``   ``{"type": "back"}``: "I'm back", take the seat back from the computer
``resign`` ``{"type": "resign"}``: give up the match
``chat``   ``{"type": "chat", "phrase": <code>, "ack": <str>}``: say one of the preset phrases
           (:data:`app.matches.chat.PHRASES`); players only
``ping``   ``{"type": "ping"}``: answered with ``{"type": "pong"}``
========  ==========================================================================

Anything else is refused with a ``bad_message`` error frame (:mod:`app.gateway.frames`); the
connection stays open.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, TypeGuard

from app.errors import DomainError, ErrorCode, JsonValue

MAX_ACK_LENGTH = 64
#: longest phrase code a ``chat`` frame may carry (which codes exist is the chat's to say)
MAX_PHRASE_LENGTH = 32
MAX_INT = 2**31 - 1  #: versions are 32-bit database integers


class BadFrame(DomainError):
    """A frame that is not one of the messages above: the domain error ``bad_message``.

    :param message: English, for developers.
    :param ack: the frame's ``ack`` when it could be read, so the error frame answers it.
    :param reason: what is wrong, as a code: ``binary``, ``too_large``, ``not_json``,
        ``too_deep``, ``not_object``, ``bad_field``, ``missing_field``, ``unknown_type``.
    :param params: more values for the words (``field``, ``limit``), added to ``params``.
    """

    def __init__(self, message: str, ack: str | None = None, *, reason: str, **params: JsonValue) -> None:
        super().__init__(ErrorCode.BAD_MESSAGE, message, params={"reason": reason, **params})
        self.ack = ack


#: the extra frames a ``hello`` may ask for in ``notices``
NOTICES = frozenset({"rematch", "spectators", "presence", "chat"})


@dataclass(frozen=True, slots=True)
class Hello:
    """``hello``: send me a snapshot with the events after ``since``, and from now on the extra
    frames named in ``notices`` (a subset of :data:`NOTICES`; with ``chat``, first the chat lines
    after ``chat_since``)."""

    since: int
    notices: frozenset[str] = frozenset()
    chat_since: int = 0


@dataclass(frozen=True, slots=True)
class Act:
    """``act``: apply ``action`` (JSON as listed in ``legal``) seen at ``version``."""

    action: Any
    version: int
    ack: str | None


@dataclass(frozen=True, slots=True)
class Back:
    """``back``: the player is back; the computer stops playing the seat."""


@dataclass(frozen=True, slots=True)
class Resign:
    """``resign``: the seat gives up."""


@dataclass(frozen=True, slots=True)
class Chat:
    """``chat``: say the preset phrase ``phrase`` (a code) at the table."""

    phrase: str
    ack: str | None


@dataclass(frozen=True, slots=True)
class Ping:
    """``ping``: keep-alive."""


Message = Hello | Act | Back | Resign | Chat | Ping


def parse_frame(text: str | None, max_bytes: int) -> Message:
    """Parse one text frame.

    :param text: the frame (``None`` for a binary frame).
    :param max_bytes: the largest frame accepted, in UTF-8 bytes.
    :raises BadFrame: (``bad_message``) binary, oversized, not JSON, not an object, unknown
        ``type``, bad fields; ``params.reason`` says which.
    """
    if text is None:
        raise BadFrame("binary frames are not accepted; send JSON text", reason="binary")
    if len(text.encode()) > max_bytes:
        raise BadFrame(f"frame larger than {max_bytes} bytes", reason="too_large", limit=max_bytes)
    try:
        obj = json.loads(text)
    except ValueError:
        raise BadFrame("frame is not JSON", reason="not_json") from None
    except RecursionError:
        raise BadFrame("frame is nested too deeply", reason="too_deep") from None
    if not isinstance(obj, dict):
        raise BadFrame("frame must be a JSON object", reason="not_object")
    ack = obj.get("ack")
    if ack is not None and (not isinstance(ack, str) or len(ack) > MAX_ACK_LENGTH):
        raise BadFrame(
            f"ack must be a string of at most {MAX_ACK_LENGTH} characters",
            reason="bad_field",
            field="ack",
            limit=MAX_ACK_LENGTH,
        )
    kind = obj.get("type")
    if kind == "hello":
        since = obj.get("since", 0)
        if not _is_int(since) or not 0 <= since <= MAX_INT:
            raise BadFrame("hello.since must be a whole number ≥ 0", ack, reason="bad_field", field="since")
        notices = obj.get("notices", [])
        if (
            not isinstance(notices, list)
            or len(notices) > len(NOTICES)
            or not all(isinstance(n, str) and n in NOTICES for n in notices)
        ):
            raise BadFrame(
                f"hello.notices must be a list of {sorted(NOTICES)}", ack, reason="bad_field", field="notices"
            )
        chat_since = obj.get("chat_since", 0)
        if not _is_int(chat_since) or not 0 <= chat_since <= 2**63 - 1:
            raise BadFrame("hello.chat_since must be a whole number ≥ 0", ack, reason="bad_field", field="chat_since")
        return Hello(since, frozenset(notices), chat_since)
    if kind == "act":
        if "action" not in obj:
            raise BadFrame("act needs an action", ack, reason="missing_field", field="action")
        version = obj.get("version")
        if not _is_int(version) or not 0 <= version <= MAX_INT:
            raise BadFrame("act.version must be a whole number ≥ 0", ack, reason="bad_field", field="version")
        return Act(obj["action"], version, ack)
    if kind == "back":
        return Back()
    if kind == "resign":
        return Resign()
    if kind == "chat":
        phrase = obj.get("phrase")
        if not isinstance(phrase, str) or not 0 < len(phrase) <= MAX_PHRASE_LENGTH:
            raise BadFrame(
                f"chat.phrase must be a phrase code of at most {MAX_PHRASE_LENGTH} characters",
                ack,
                reason="bad_field",
                field="phrase",
                limit=MAX_PHRASE_LENGTH,
            )
        return Chat(phrase, ack)
    if kind == "ping":
        return Ping()
    raise BadFrame(f"unknown message type {kind!r}", ack, reason="unknown_type")


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
