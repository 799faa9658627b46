"""The engine's error family (after python-chess's ``InvalidMoveError``/``IllegalMoveError``).

Every error is a :class:`ValueError`; the message names the input and the position. The match
service maps them to the wire codes of DESIGN.md section 4. An error a player can make while
choosing options or saving a deck also says why as a code (``reason``) with the values the words
need (``params``), so a page can word it in its own language (:data:`app.errors.ErrorCode`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class GameError(ValueError):
    """Base of every rules-engine error. ``code`` is the wire error code it maps to.

    :param message: an English sentence naming the input and the position (developers, logs).
    :param reason: a stable snake_case code saying why, for the client's words (e.g.
        ``"unknown_hero"``); ``None`` when the code alone says it.
    :param params: JSON-safe values the words need (e.g. ``{"hero": "ZZZ"}``).

    >>> e = BadOptions("x: option 'win_score' must be from 1 to 10", reason="option_range",
    ...                params={"option": "win_score", "low": 1, "high": 10})
    >>> e.wire_params()
    {'reason': 'option_range', 'option': 'win_score', 'low': 1, 'high': 10}
    """

    code = "illegal_action"

    def __init__(self, message: str, *, reason: str | None = None, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.params: dict[str, Any] = dict(params or {})

    def wire_params(self) -> dict[str, Any]:
        """``{"reason", **params}`` for the wire's ``params`` (only ``params`` without a reason)."""
        return {"reason": self.reason, **self.params} if self.reason else dict(self.params)


class BadAction(GameError):
    """The input is not the shape of any action of this game (unknown key, wrong type); also a
    saved deck the rules refuse (``Rules.validate_deck``), whose ``reason`` the deck service passes
    on (``bad_deck``, :data:`app.errors.ErrorCode.BAD_DECK`): ``no_decks``, ``shape``, Stratego
    Junior's ``towers``, ``rows``, ``unknown_castle``, ``formation``, Scratch Wars'
    ``unknown_hero``, ``weapon_count``, ``unknown_weapon``, ``weapon_twice``."""

    code = "bad_message"


class IllegalAction(GameError):
    """A well-formed action that the rules do not allow in this state."""

    code = "illegal_action"


class NotYourTurn(IllegalAction):
    """The seat is not in ``to_act`` (or has already chosen this turn)."""

    code = "not_your_turn"


class GameOver(IllegalAction):
    """The game has ended; no action applies."""

    code = "game_over"


class BadOptions(GameError):
    """Unsupported match options or player count. ``reason``, as the match service passes it on
    (``bad_options``, :data:`app.errors.ErrorCode.BAD_OPTIONS`): ``unknown_game``, ``no_computer``,
    ``computer_level``, ``player_count``, ``unknown_option``, ``option_type``, ``option_choice``,
    ``option_range``, and the games' own (``start_score``, ``team_number``, ``team_seats``,
    ``one_team``, ``packs``, ``center_treasure``, ``too_few_cards``)."""

    code = "bad_options"
