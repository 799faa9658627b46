"""The one error vocabulary: :class:`DomainError` and the list of every wire code, :class:`ErrorCode`.

Services (matches, users, decks, ...) raise :class:`DomainError`; the edges turn it into what their
clients read, each in one place: :mod:`app.api.errors` maps a code to an HTTP status and the body
``{"error": {"code", "message", "params"}}``, :mod:`app.gateway.frames` maps it to the websocket
frame ``{"type": "error", "code", "message", "params", "ack"}``.

A client reads ``code`` (stable snake_case) and ``params`` (the values the words need, e.g.
``{"limit": 5}``) and renders the words itself, in its own language; ``message`` is an English
sentence for developers and logs. The rules engines' errors (:mod:`app.games.core.errors`) carry
codes from this same list and reach clients through the service as a :class:`DomainError` with
the same code.

Nothing here knows about HTTP or websockets.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, TypeAlias

#: a JSON-safe value: what ``params`` may hold
JsonValue: TypeAlias = str | int | float | bool | list[Any] | dict[str, Any] | None


class ErrorCode(StrEnum):
    """Every error code a client can receive, over HTTP or the websocket.

    Members compare equal to their strings (``ErrorCode.NOT_FOUND == "not_found"``). The comment
    above each member says when it is used and which ``params`` it usually carries.
    """

    # --- requests and frames ---------------------------------------------------------------------
    #: a websocket frame or an action that is not the shape of any message (``reason``, ``field``);
    #: a quick-chat phrase that does not exist (``reason``: ``unknown_phrase``, ``phrases``)
    BAD_MESSAGE = "bad_message"
    #: an HTTP body, path or query that fails its schema (``field``, ``errors``)
    VALIDATION_ERROR = "validation_error"
    #: an HTTP request the framework refused before any route ran
    BAD_REQUEST = "bad_request"
    #: an HTTP method the path does not serve
    METHOD_NOT_ALLOWED = "method_not_allowed"
    #: an HTTP conflict the framework raised; also a clan change that clashes with the clan's state
    #: (``reason``: ``already_in_clan``, ``clan_full`` with ``limit``, ``already_invited``,
    #: ``already_requested``, ``leader_must_hand_over``, ... as :mod:`app.clans.service` lists them);
    #: a rematch answer that clashes with the offer (``reason``: ``own_offer``, ``rematch_started``)
    CONFLICT = "conflict"
    #: any other HTTP failure raised by the framework (``status``)
    ERROR = "error"
    #: too many requests or frames in a while (``retry_after``: whole seconds)
    RATE_LIMITED = "rate_limited"
    #: the server could not take the request in time (the match is busy with other requests, or
    #: every database connection is in use); nothing changed: try again (``retry_after``: seconds)
    BUSY = "busy"
    #: a bug or an outage on the server; the message says nothing more
    INTERNAL_ERROR = "internal_error"
    #: a change sent as a form (or text) to a JSON route (``content_type``): send ``application/json``
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    #: a websocket refused because too many are open (``limit``; ``per``: ``user``, ``address`` or
    #: ``match`` for anonymous spectators of one match, ``anonymous_address`` for those of one address)
    TOO_MANY_CONNECTIONS = "too_many_connections"

    # --- who may do what ---------------------------------------------------------------------------
    #: nobody is logged in, or this viewer may not watch
    UNAUTHORIZED = "unauthorized"
    #: logged in, but not allowed (not your match, no seat in it); also a cookie-authenticated change
    #: or websocket from another site's page (``reason``: ``origin``); a clan change by a player
    #: whose role does not allow it (``reason``: ``not_member``, ``not_officer``, ``not_leader``,
    #: ``not_invited``, ``rank``); a rematch offer or answer by someone who did not play the match
    #: (``reason``: ``not_player``); a spectator's quick chat (``reason``: ``players_only``)
    FORBIDDEN = "forbidden"
    #: no such match, game, deck, clan or page (``match_id``, ``game``, ``deck_id``, ``tag``); no
    #: open rematch offer to answer (``reason``: ``rematch_offer``)
    NOT_FOUND = "not_found"

    # --- accounts ------------------------------------------------------------------------------------
    #: the name is taken, compared ignoring letter case; also a second deck of the same name (``name``),
    #: a clan's name or tag (``field``: ``name`` or ``tag``, with the value; a clan name mixing scripts
    #: that looks like another clan's also gives ``lookalike``, that clan's name)
    NAME_TAKEN = "name_taken"
    #: a new account name breaks a rule (``reason``: ``length``, ``characters`` or ``reserved``, a
    #: name kept for the site such as "Computer"; ``min``, ``max``),
    #: or looks like an existing one (``name``) when one of the two mixes scripts (``reason``:
    #: ``lookalike``, the new one mixes them; ``lookalike_taken``, only the existing one does)
    BAD_NAME = "bad_name"
    #: a new password breaks a rule (``reason``: ``too_short``, ``too_long``, ``repeated``, ``same_as_name``)
    WEAK_PASSWORD = "weak_password"
    #: wrong name or password (the same whether the name exists or not)
    BAD_CREDENTIALS = "bad_credentials"

    # --- decks ---------------------------------------------------------------------------------------
    #: the game's rules refuse a saved deck (``game``; ``reason``: ``no_decks``, the game has none;
    #: ``shape``, not the game's deck object; Stratego Junior's setup: ``towers`` with ``towers``
    #: and ``castles``, ``rows`` with ``rows`` and ``columns``, ``unknown_castle`` with ``castle``,
    #: ``formation`` with ``castles``; Scratch Wars' loadout: ``unknown_hero`` with ``hero``,
    #: ``weapon_count`` with ``min``, ``max``, ``count``, ``unknown_weapon`` with ``weapons``,
    #: ``weapon_twice`` with ``names``)
    BAD_DECK = "bad_deck"
    #: the player already has the most saved decks allowed (``limit``)
    TOO_MANY_DECKS = "too_many_decks"
    #: the account already has the most API tokens allowed (``limit``): revoke one first
    TOO_MANY_TOKENS = "too_many_tokens"

    # --- matches -------------------------------------------------------------------------------------
    #: unsupported game, options (the clock's included: ``turn_seconds``, ``clock``, ``bank_seconds``,
    #: ``increment_seconds``), player count or computer seats (``reason``: ``unknown_game`` with
    #: ``game``, ``player_count`` with ``min``, ``max``, ``players``, ``unknown_option`` with
    #: ``option``, ``options``, ``option_type`` with ``option``, ``type``, ``option_choice`` with
    #: ``option``, ``choices``, ``option_range`` with ``option``, ``low``, ``high``; the clock's
    #: ``needs_turn_clock`` with ``option``, ``needs_bank_clock`` with ``options``,
    #: ``computer_untimed``; the seats' ``computer_seat`` with ``seat``, ``no_computer`` with
    #: ``game``, ``computer_level`` with ``level``, ``levels``, ``all_computer``, ``seat_taken``
    #: with ``seat``; the games' ``start_score`` with ``start_score``, ``win_score``,
    #: ``team_number`` with ``low``, ``high``, ``team_seats`` with ``seats`` (or ``max``) and
    #: ``count``, ``one_team``, ``packs`` with ``packs``, ``players``, ``center_treasure`` with
    #: ``low``, ``high``, ``too_few_cards`` with ``players``; tournaments' ``format_game`` with
    #: ``format``, ``game``, ``starts_at``, and theirs and challenges' ``untimed``)
    BAD_OPTIONS = "bad_options"
    #: the player already has the most waiting matches allowed (``limit``)
    TOO_MANY_MATCHES = "too_many_matches"
    #: joining a match that no longer waits for players
    NOT_WAITING = "not_waiting"
    #: joining a match with no free seat
    MATCH_FULL = "match_full"
    #: joining a match one already holds a seat in
    ALREADY_JOINED = "already_joined"
    #: joining a rated match that would seat a bot account against a person without the joiner's
    #: agreement: join again with ``{"accept_rated": true}`` (docs/bots.md)
    RATED_NEEDS_CONSENT = "rated_needs_consent"
    #: acting in a match that waits for players
    NOT_STARTED = "not_started"
    #: offering a rematch before the end (``reason``: ``rematch``); once also asking for the replay
    #: of a match that is not over (no longer raised for that: a running match's replay shows it as
    #: its viewer saw it live)
    NOT_FINISHED = "not_finished"
    #: an action sent with a version that is no longer current (``version``: the current one)
    STALE_VERSION = "stale_version"
    #: a well-formed action the rules do not allow now
    ILLEGAL_ACTION = "illegal_action"
    #: acting for a seat that is not to act (or has chosen already), or as a spectator
    NOT_YOUR_TURN = "not_your_turn"
    #: acting in a match that is over
    GAME_OVER = "game_over"
    #: an act that arrived after its seat's deadline (and the allowance for network lag): the
    #: timeout applies instead (``params``: ``late_ms``, how late it was, in milliseconds)
    TOO_LATE = "too_late"


class DomainError(Exception):
    """A refused request: nothing changed. The one error services raise.

    :param code: one of :class:`ErrorCode` (a member or its string).
    :param message: an English sentence for developers and logs; clients render their own words
        from ``code`` and ``params``.
    :param params: JSON-safe values the words need, e.g. ``{"limit": 5}`` (keys are strings).
    :raises ValueError: ``code`` is not in :class:`ErrorCode`.
    :raises TypeError: ``params`` holds something JSON cannot carry.

    >>> e = DomainError("stale_version", "the match is at version 12", params={"version": 12})
    >>> e.code, e.params
    (<ErrorCode.STALE_VERSION: 'stale_version'>, {'version': 12})
    >>> e.to_dict()
    {'code': 'stale_version', 'message': 'the match is at version 12', 'params': {'version': 12}}
    """

    def __init__(self, code: str, message: str, *, params: Mapping[str, JsonValue] | None = None) -> None:
        try:
            self.code = ErrorCode(code)
        except ValueError:
            raise ValueError(f"unknown error code {code!r}; add it to app.errors.ErrorCode") from None
        self.message = message
        self.params: dict[str, JsonValue] = dict(params or {})
        _check_json_safe(self.params, "params")
        super().__init__(message)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code.value!r}, {self.message!r}, params={self.params!r})"

    def to_dict(self) -> dict[str, Any]:
        """``{"code", "message", "params"}``, JSON-safe: the part every edge sends."""
        return {"code": self.code.value, "message": self.message, "params": dict(self.params)}

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by attributes (subclasses too), so the error crosses a process pool intact."""
        return _restore, (type(self), dict(self.__dict__))


def _restore(cls: type[DomainError], attributes: dict[str, Any]) -> DomainError:
    """The unpickled error: ``cls`` with ``attributes``, its constructor not called."""
    error = cls.__new__(cls)
    Exception.__init__(error, attributes["message"])
    error.__dict__.update(attributes)
    return error


def _check_json_safe(value: object, where: str) -> None:
    """:raises TypeError: ``value`` is not made of JSON's types (``where`` names it in the message)."""
    if value is None or isinstance(value, str | int | float | bool):
        return
    if isinstance(value, list | tuple):
        for i, item in enumerate(value):
            _check_json_safe(item, f"{where}[{i}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"{where} has a key {key!r} that is not a string")
            _check_json_safe(item, f"{where}.{key}")
        return
    raise TypeError(f"{where} is a {type(value).__name__}, which JSON cannot carry")


def busy(message: str, retry_after: int = 1) -> DomainError:
    """The ``busy`` error (HTTP 503 with ``Retry-After``): the request could not be served in time
    and changed nothing.

    :param retry_after: whole seconds the client should wait before trying again.
    """
    return DomainError(ErrorCode.BUSY, message, params={"retry_after": retry_after})
