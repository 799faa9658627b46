"""The engine's error family (after python-chess's ``InvalidMoveError``/``IllegalMoveError``).

Every error is a :class:`ValueError`; the message names the input and the position. The match
service maps them to the wire codes of DESIGN.md section 4.
"""

from __future__ import annotations


class GameError(ValueError):
    """Base of every rules-engine error. ``code`` is the wire error code it maps to."""

    code = "illegal_action"


class BadAction(GameError):
    """The input is not the shape of any action of this game (unknown key, wrong type)."""

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
    """Unsupported match options or player count."""

    code = "bad_options"
