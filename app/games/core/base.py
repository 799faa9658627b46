"""Defaults for the engine contract, shared by the games (a base class, not part of the contract).

A game subclasses ``BaseRules[State, Action]``, sets its class facts (``name``, ``title``,
``min_players``, ``max_players``, ``default_options``, ``information``, ``actions``) and implements
the pure methods that are its rules (``initial_state``, ``to_act``, ``legal_actions``, ``apply``,
``sample_chance``, ``outcome``, ``observe``, ``encode_state``, ``decode_state``). Everything else
has a default here that a game overrides where its rules differ.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from .actions import Action, ActionCodec
from .errors import BadAction, BadOptions
from .rules import CHANCE, JSON, Outcome

S = TypeVar("S")
A = TypeVar("A", bound=Action)


class BaseRules(Generic[S, A]):
    """Defaults for :class:`~app.games.core.rules.Rules`: option checking, the action codec,
    action visibility, resignation and a timeout policy that asks the game's strongest bot.

    Stateless: an instance holds only what its constructor was given (card data), never a cache.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_options: ClassVar[Mapping[str, JSON]] = {}
    #: allowed values per option, where the option is an enumeration; ints/bools are type-checked.
    option_choices: ClassVar[Mapping[str, tuple[JSON, ...]]] = {}
    #: inclusive ``(low, high)`` bounds of numeric options
    option_ranges: ClassVar[Mapping[str, tuple[float, float]]] = {}
    #: JSON Schemas of options whose shape :meth:`options_schema` cannot derive from the default,
    #: ``option_choices`` and ``option_ranges`` (a list of team numbers, "unlimited" or a number)
    option_schemas: ClassVar[Mapping[str, Mapping[str, JSON]]] = {}
    #: option sets the conformance suite runs besides the defaults
    conformance_variants: ClassVar[tuple[Mapping[str, JSON], ...]] = ()
    #: ``"perfect"`` or ``"imperfect"``; imperfect games must override :meth:`secrets`
    information: ClassVar[str] = "imperfect"
    #: seconds per turn for a new match unless its creator chooses another
    default_turn_seconds: ClassVar[int] = 60
    #: the game's action classes (encode/decode dispatch on them)
    actions: ClassVar[ActionCodec[Any]]

    # ------------------------------------------------------------------ options and players

    def normalize_options(self, options: Mapping[str, JSON]) -> dict[str, JSON]:
        """Fill defaults and check types against them.

        :raises BadOptions: ``reason`` ``unknown_option`` (``option``, ``options``: the known
            ones), ``option_type`` (``option``, ``type``: its JSON Schema type), ``option_choice``
            (``option``, ``choices``) or ``option_range`` (``option``, ``low``, ``high``).
        """
        out = dict(self.default_options)
        for key, value in (options or {}).items():
            if key not in self.default_options:
                raise BadOptions(
                    f"{self.name}: unknown option {key!r}; known: {sorted(self.default_options)}",
                    reason="unknown_option",
                    params={"option": key, "options": sorted(self.default_options)},
                )
            default = self.default_options[key]
            if default is not None and not _same_kind(default, value):
                raise BadOptions(
                    f"{self.name}: option {key!r} must be {type(default).__name__}, got {value!r}",
                    reason="option_type",
                    params={"option": key, "type": _json_type(default)},
                )
            choices = self.option_choices.get(key)
            if choices is not None and value not in choices:
                raise BadOptions(
                    f"{self.name}: option {key!r} must be one of {list(choices)}, got {value!r}",
                    reason="option_choice",
                    params={"option": key, "choices": list(choices)},
                )
            bounds = self.option_ranges.get(key)
            if bounds is not None and not bounds[0] <= value <= bounds[1]:
                raise BadOptions(
                    f"{self.name}: option {key!r} must be from {bounds[0]} to {bounds[1]}, got {value!r}",
                    reason="option_range",
                    params={"option": key, "low": _number(bounds[0]), "high": _number(bounds[1])},
                )
            out[key] = value
        return out

    def options_schema(self) -> dict[str, JSON]:
        """The JSON Schema of the game's own options, as :meth:`normalize_options` checks them: an
        object of the known keys only, each typed by its default (a bool, an integer, a number, a
        string, a list), limited to ``option_choices`` and ``option_ranges``, or as
        ``option_schemas`` says. Rules that involve two options (a start score below the win
        score) are the game's own and are not stated here.

        >>> from app.games.core import get_rules
        >>> get_rules("battle_runes").options_schema()["properties"]["max_turns"]
        {'type': 'integer', 'default': 0, 'minimum': 0, 'maximum': 1000}
        """
        properties: dict[str, JSON] = {}
        for key, default in self.default_options.items():
            if key in self.option_schemas:
                properties[key] = {**self.option_schemas[key], "default": default}
                continue
            prop: dict[str, JSON] = {"type": _json_type(default), "default": default}
            if key in self.option_choices:
                prop["enum"] = list(self.option_choices[key])
            if key in self.option_ranges:
                low, high = self.option_ranges[key]
                prop["minimum"], prop["maximum"] = _number(low), _number(high)
            properties[key] = prop
        return {"type": "object", "properties": properties, "additionalProperties": False}

    def check_players(self, num_players: int) -> None:
        """:raises BadOptions: ``num_players`` outside ``[min_players, max_players]`` (``reason``
        ``player_count``; ``min``, ``max``, ``players``)."""
        if not (self.min_players <= num_players <= self.max_players):
            raise BadOptions(
                f"{self.name} is for {self.min_players}-{self.max_players} players, not {num_players}",
                reason="player_count",
                params={"min": self.min_players, "max": self.max_players, "players": num_players},
            )

    # ------------------------------------------------------------------ the rules a game writes

    def to_act(self, state: S) -> frozenset[int]:
        raise NotImplementedError

    def legal_actions(self, state: S, seat: int) -> Sequence[A]:
        raise NotImplementedError

    def observe(self, state: S, viewer: int | None) -> dict[str, JSON]:
        raise NotImplementedError

    def observe_finished(self, state: S, viewer: int | None) -> dict[str, JSON]:
        """What ``viewer`` sees once the match has ended (see :class:`~.rules.Rules`); by default
        :meth:`observe` (games with hidden pieces override it to reveal them)."""
        return self.observe(state, viewer)

    # ------------------------------------------------------------------ defaults

    def is_legal(self, state: S, seat: int, action: A) -> bool:
        """Membership in ``legal_actions`` (games with unlistable choices override this)."""
        return action in self.legal_actions(state, seat)

    def validate_deck(self, data: JSON) -> JSON:
        """Games without decks refuse every deck.

        :raises BadAction: always, here (``reason`` ``no_decks``).
        """
        raise BadAction(f"{self.name} has no decks", reason="no_decks")

    def action_visible_to(self, state: S, seat: int, action: A) -> frozenset[int] | None:
        """Chance outcomes are secret (shuffles); simultaneous choices are seen only by their seat;
        everything else is public. Games with public chance (dice) override this."""
        if seat == CHANCE:
            return frozenset()
        if len(self.to_act(state)) > 1:
            return frozenset({seat})
        return None

    def resign(self, state: S, seat: int) -> Outcome | None:
        """Two seats: the resigning seat loses, the other wins. More seats: ``None``, the game goes
        on and the computer plays the seat (games with teams or other rules override this)."""
        if self.num_players(state) == 2:
            return Outcome.resignation(seat, 2)
        return None

    def num_players(self, state: S) -> int:
        """How many seats ``state`` has (default: ``state.num_players``, else the minimum)."""
        return int(getattr(state, "num_players", self.min_players))

    def secrets(self, state: S, viewer: int | None) -> Sequence[str]:
        """No secrets: right only for games of perfect information (the conformance suite fails an
        imperfect-information game that keeps this default)."""
        return ()

    def catalog(self) -> dict[str, JSON]:
        """No card list."""
        return {}

    def bot_observation(self, state: S, seat: int) -> dict[str, JSON]:
        """``observe(state, seat)``; games with memory (revealed pieces) add it."""
        return self.observe(state, seat)

    def timeout_action(self, state: S, seat: int, rng: random.Random) -> A:
        """Ask the game's strongest bot, from ``seat``'s bot observation only."""
        from .registry import make_bot

        bot = make_bot(self.name)
        observation = self.bot_observation(state, seat)
        action: A = bot.choose(observation, self.legal_actions(state, seat), rng)
        return action

    def encode_action(self, action: A) -> JSON:
        """``{key: value}`` through the game's :attr:`actions` codec."""
        return self.actions.encode(action)

    def decode_action(self, obj: JSON) -> A:
        """Parse a wire action through the game's :attr:`actions` codec.

        :raises BadAction: not the shape of any action of this game.
        """
        action: A = self.actions.decode(obj)
        return action


def _json_type(default: JSON) -> str:
    """The JSON Schema type :func:`_same_kind` accepts for an option whose default is ``default``."""
    if isinstance(default, bool):
        return "boolean"
    if isinstance(default, int):
        return "integer"
    if isinstance(default, float):
        return "number"
    if isinstance(default, str):
        return "string"
    if isinstance(default, list):
        return "array"
    return "object"


def _number(value: float) -> int | float:
    """``value`` as an int when it is whole (JSON Schema bounds read better so)."""
    return int(value) if float(value).is_integer() else value


def _same_kind(default: JSON, value: JSON) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int)
    if isinstance(default, float):
        return isinstance(value, int | float)
    return isinstance(value, type(default))
