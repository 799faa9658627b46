"""The match service's errors, with the wire codes of DESIGN.md section 4 and their HTTP status."""

from __future__ import annotations

#: error code -> HTTP status for the JSON API
HTTP_STATUS = {
    "not_found": 404,
    "forbidden": 403,
    "unauthorized": 401,
    "bad_options": 422,
    "bad_message": 400,
    "illegal_action": 409,
    "not_your_turn": 409,
    "stale_version": 409,
    "game_over": 409,
    "not_started": 409,
    "not_waiting": 409,
    "not_finished": 409,
    "match_full": 409,
    "already_joined": 409,
    "too_many_matches": 429,
}


class MatchError(Exception):
    """A refused request. Nothing in the match changed.

    :param code: a wire code (``illegal_action``, ``stale_version``, ...).
    :param message: a sentence for people.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message

    @property
    def status(self) -> int:
        """The HTTP status for this code."""
        return HTTP_STATUS.get(self.code, 400)
