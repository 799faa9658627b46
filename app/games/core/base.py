"""Default implementations shared by the games (a mixin, not part of the contract)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from .errors import BadOptions
from .rules import CHANCE

JSON = Any


class BaseRules:
    """Defaults for :class:`~app.games.core.rules.Rules`: option checking, action visibility and a
    timeout policy that asks the game's strongest bot."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_options: ClassVar[Mapping[str, JSON]] = {}
    #: allowed values per option, where the option is an enumeration; ints/bools are type-checked.
    option_choices: ClassVar[Mapping[str, tuple[JSON, ...]]] = {}
    #: inclusive ``(low, high)`` bounds of numeric options
    option_ranges: ClassVar[Mapping[str, tuple[float, float]]] = {}
    #: option sets the conformance suite runs besides the defaults
    conformance_variants: ClassVar[tuple[Mapping[str, JSON], ...]] = ()

    def normalize_options(self, options: Mapping[str, JSON]) -> dict[str, JSON]:
        """Fill defaults and check types against them.

        :raises BadOptions: unknown key, wrong type, or a value outside ``option_choices`` or
            ``option_ranges``.
        """
        out = dict(self.default_options)
        for key, value in (options or {}).items():
            if key not in self.default_options:
                raise BadOptions(f"{self.name}: unknown option {key!r}; known: {sorted(self.default_options)}")
            default = self.default_options[key]
            if default is not None and not _same_kind(default, value):
                raise BadOptions(f"{self.name}: option {key!r} must be {type(default).__name__}, got {value!r}")
            choices = self.option_choices.get(key)
            if choices is not None and value not in choices:
                raise BadOptions(f"{self.name}: option {key!r} must be one of {list(choices)}, got {value!r}")
            bounds = self.option_ranges.get(key)
            if bounds is not None and not bounds[0] <= value <= bounds[1]:
                raise BadOptions(f"{self.name}: option {key!r} must be from {bounds[0]} to {bounds[1]}, got {value!r}")
            out[key] = value
        return out

    def check_players(self, num_players: int) -> None:
        """:raises BadOptions: ``num_players`` outside ``[min_players, max_players]``."""
        if not (self.min_players <= num_players <= self.max_players):
            raise BadOptions(
                f"{self.name} is for {self.min_players}-{self.max_players} players, not {num_players}"
            )

    def is_legal(self, state: Any, seat: int, action: Any) -> bool:
        """Membership in ``legal_actions`` (games with unlistable choices override this)."""
        return action in self.legal_actions(state, seat)  # type: ignore[attr-defined]

    def validate_deck(self, data: JSON) -> JSON:
        """Games without decks refuse every deck.

        :raises BadAction: always, here.
        """
        from .errors import BadAction

        raise BadAction(f"{self.name} has no decks")

    def action_visible_to(self, state: Any, seat: int, action: Any) -> frozenset[int] | None:
        """Chance outcomes are secret (shuffles); simultaneous choices are seen only by their seat;
        everything else is public. Games with public chance (dice) override this."""
        if seat == CHANCE:
            return frozenset()
        if len(self.to_act(state)) > 1:  # type: ignore[attr-defined]
            return frozenset({seat})
        return None

    def bot_observation(self, state: Any, seat: int) -> dict[str, JSON]:
        """``observe(state, seat)``; games with memory (revealed pieces) add it."""
        return self.observe(state, seat)  # type: ignore[attr-defined]

    def timeout_action(self, state: Any, seat: int, rng: random.Random) -> Any:
        """Ask the game's strongest bot, from ``seat``'s bot observation only."""
        from .registry import make_bot

        bot = make_bot(self.name)
        observation = self.bot_observation(state, seat)
        return bot.choose(observation, self.legal_actions(state, seat), rng)  # type: ignore[attr-defined]


def _same_kind(default: JSON, value: JSON) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int)
    if isinstance(default, float):
        return isinstance(value, int | float)
    return isinstance(value, type(default))
