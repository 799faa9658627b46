"""The engine contract every game implements (DESIGN.md section 2).

A game is a stateless :class:`Rules` object whose methods are pure functions of an immutable state.
The match service, the bots, the replay viewer and the conformance suite are written once against
this contract, in the spirit of OpenSpiel's ``pyspiel.Game`` and python-chess's ``Board``:

* whose turn it is comes from one function, :meth:`Rules.to_act`, which answers "over" (empty set),
  "chance" (``{CHANCE}``), one seat, or several seats choosing simultaneously;
* chance (shuffles, dice, wheel spins) is an explicit pseudo-seat whose outcome the *driver* draws
  with an injected ``random.Random`` and logs like any other action, so a replay needs no RNG;
* hidden information leaves the engine only through :meth:`Rules.observe` and through events whose
  ``visible_to`` names the viewer;
* the end of a game is a value, :class:`Outcome`.

Nothing under ``app/games`` imports FastAPI, SQLAlchemy, asyncio, ``time`` or the global ``random``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

#: The pseudo-seat of chance. ``to_act(state) == {CHANCE}`` means the driver must draw an outcome
#: with :meth:`Rules.sample_chance` and apply it as ``{CHANCE: outcome}``.
CHANCE: int = -1

S = TypeVar("S")
A = TypeVar("A")

JSON = Any  # a value made of dict/list/str/int/float/bool/None only


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened while applying actions, for logs, animations and replays.

    :param kind: a short snake_case name owned by the game, e.g. ``"turn_resolved"``.
    :param data: JSON-safe payload shown to the seats in ``visible_to``.
    :param visible_to: seats allowed to see ``data``; ``None`` means everyone, spectators included.
    :param public: what everybody else sees instead (``None``: only ``kind``). Must itself carry no
        hidden information.
    """

    kind: str
    data: Mapping[str, JSON] = field(default_factory=dict)
    visible_to: frozenset[int] | None = None
    public: Mapping[str, JSON] | None = None

    def view(self, viewer: int | None, *, reveal_all: bool = False) -> dict[str, JSON]:
        """The event as ``viewer`` (a seat, or ``None`` for a spectator) may see it.

        :param reveal_all: show everything (used once a match is over, for the replay).
        :returns: ``{"kind": ..., **data}`` or the public form with ``"redacted": True``.
        """
        if reveal_all or self.visible_to is None or (viewer is not None and viewer in self.visible_to):
            return {"kind": self.kind, **self.data}
        return {"kind": self.kind, **(self.public or {}), "redacted": True}

    def to_json(self) -> dict[str, JSON]:
        """Full serialisation for storage (never sent to a client as is)."""
        return {
            "kind": self.kind,
            "data": dict(self.data),
            "visible_to": None if self.visible_to is None else sorted(self.visible_to),
            "public": None if self.public is None else dict(self.public),
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, JSON]) -> Event:
        """Inverse of :meth:`to_json`."""
        vis = obj.get("visible_to")
        return cls(
            kind=obj["kind"],
            data=obj.get("data") or {},
            visible_to=None if vis is None else frozenset(vis),
            public=obj.get("public"),
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game.

    :param results: per seat, ``"win"``, ``"loss"`` or ``"draw"``. Games where several seats can
        win together (Battle Runes: both reach 50) simply list ``"win"`` twice.
    :param scores: per seat, the game's final score (points, lives, treasure...).
    :param reason: a short snake_case termination, e.g. ``"score_50"``, ``"flag_captured"``,
        ``"resigned"``, ``"turn_cap"``.
    :param ranks: per seat, 1 = best; equal ranks for ties. Defaults from ``results``.
    :param teams: per seat, its team (seats of one team share it; numbered from 0). Defaults to
        one team per seat (free-for-all). Seats of one team have one result and one rank.
    :param resigned: seats that resigned before the end (their result is a loss).
    """

    results: tuple[str, ...]
    scores: tuple[float, ...] = ()
    reason: str = ""
    ranks: tuple[int, ...] = ()
    teams: tuple[int, ...] = ()
    resigned: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        for r in self.results:
            if r not in ("win", "loss", "draw"):
                raise ValueError(f"unknown result {r!r}")
        if not self.ranks:
            order = {"win": 1, "draw": 2, "loss": 3}
            distinct = sorted({order[r] for r in self.results})
            object.__setattr__(self, "ranks", tuple(distinct.index(order[r]) + 1 for r in self.results))
        if not self.teams:
            object.__setattr__(self, "teams", tuple(range(len(self.results))))
        if len(self.ranks) != len(self.results) or len(self.teams) != len(self.results):
            raise ValueError("results, ranks and teams need one entry per seat")

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats whose result is ``"win"``."""
        return tuple(i for i, r in enumerate(self.results) if r == "win")

    def to_json(self) -> dict[str, JSON]:
        """JSON form stored with the match and sent to clients: ``{"results", "scores", "reason",
        "ranks"}``, plus ``"teams"`` when some seats share a team and ``"resigned"`` when a seat
        resigned (left out otherwise, so outcomes stored before teams existed keep their form;
        :meth:`from_json` fills the defaults)."""
        out: dict[str, JSON] = {
            "results": list(self.results),
            "scores": list(self.scores),
            "reason": self.reason,
            "ranks": list(self.ranks),
        }
        if self.teams != tuple(range(len(self.results))):
            out["teams"] = list(self.teams)
        if self.resigned:
            out["resigned"] = sorted(self.resigned)
        return out

    @classmethod
    def from_json(cls, obj: Mapping[str, JSON]) -> Outcome:
        """Inverse of :meth:`to_json`."""
        return cls(
            results=tuple(obj["results"]),
            scores=tuple(obj.get("scores", ())),
            reason=obj.get("reason", ""),
            ranks=tuple(obj.get("ranks", ())),
            teams=tuple(obj.get("teams", ())),
            resigned=frozenset(obj.get("resigned", ())),
        )

    @classmethod
    def resignation(cls, seat: int, num_players: int, teams: tuple[int, ...] = ()) -> Outcome:
        """The end when ``seat`` resigns and its resignation ends the game: its team loses, every
        other seat wins (reason ``"resigned"``).

        :param teams: per seat, its team (default: one per seat).
        """
        teams = teams or tuple(range(num_players))
        loser = teams[seat]
        return cls(
            results=tuple("loss" if teams[s] == loser else "win" for s in range(num_players)),
            reason="resigned",
            teams=teams,
            resigned=frozenset({seat}),
        )


class Rules(Protocol, Generic[S, A]):
    """A game's rules. Stateless: every method is a pure function of its arguments.

    States and actions are immutable values of the game's own types (frozen dataclasses, tuples).
    A seat is an ``int`` in ``range(num_players)``; :data:`CHANCE` is the chance pseudo-seat.
    """

    name: ClassVar[str]  #: registry id, e.g. ``"battle_runes"``
    title: ClassVar[str]  #: human name, e.g. ``"Battle Runes"``
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: match options the game accepts, with defaults; validated by :meth:`normalize_options`.
    default_options: ClassVar[Mapping[str, JSON]]
    #: other option sets (variants, levels) the shared conformance suite also runs
    conformance_variants: ClassVar[tuple[Mapping[str, JSON], ...]]
    #: ``"perfect"`` (every seat sees the whole state) or ``"imperfect"`` (hidden cards, pieces,
    #: choices: :meth:`secrets` must then name them, and the conformance suite checks it does)
    information: ClassVar[str]
    #: the turn time a new match gets unless its creator chooses another, in seconds
    default_turn_seconds: ClassVar[int]

    def normalize_options(self, options: Mapping[str, JSON]) -> dict[str, JSON]:
        """Check match options and fill defaults.

        :raises BadOptions: an unknown key or a value out of range.
        """
        ...

    def initial_state(self, num_players: int, options: Mapping[str, JSON]) -> S:
        """The state before the first action (often a chance node: shuffle, setup).

        :raises BadOptions: unsupported player count or options, with its ``reason`` and
            ``params`` (:class:`~.errors.BadOptions` lists them).
        """
        ...

    def to_act(self, state: S) -> frozenset[int]:
        """Who acts next: ``frozenset()`` when over, ``{CHANCE}``, one seat, or several seats that
        choose simultaneously (their actions are applied together)."""
        ...

    def legal_actions(self, state: S, seat: int) -> Sequence[A]:
        """Every legal action for ``seat`` now; never empty for a seat in ``to_act(state)``.
        Empty for a seat that need not act."""
        ...

    def is_legal(self, state: S, seat: int, action: A) -> bool:
        """Whether ``seat`` may play ``action`` now. Default: ``action in legal_actions(...)``.

        A game whose choices are too many to list (a whole hidden setup, a loadout) lists a few
        representative ones in ``legal_actions`` (enough for bots and random playouts) and accepts
        any valid one here; the driver checks with this method, never with ``legal_actions``.
        """
        ...

    def validate_deck(self, data: JSON) -> JSON:
        """Check a saved deck of this game (a setup, a loadout) and return its normal form.

        :raises BadAction: the deck breaks the game's rules: the message says which, ``reason``
            and ``params`` say it as a code (:class:`~.errors.BadAction` lists them).
        """
        ...

    def sample_chance(self, state: S, rng: random.Random) -> A:
        """Draw the chance outcome at a chance node with ``rng`` (the only randomness in a game).

        :raises IllegalAction: ``state`` is not a chance node.
        """
        ...

    def apply(self, state: S, actions: Mapping[int, A]) -> tuple[S, Sequence[Event]]:
        """Apply the actions of every seat in ``to_act(state)`` (exactly those seats).

        :returns: the new state and the events it produced, in order.
        :raises IllegalAction: a seat that may not act, a missing seat, or an action not legal.
        """
        ...

    def outcome(self, state: S) -> Outcome | None:
        """The result when the game is over, else ``None``."""
        ...

    def observe(self, state: S, viewer: int | None) -> dict[str, JSON]:
        """What ``viewer`` (a seat, or ``None`` for a spectator) may see: JSON-safe, no hidden
        information of any other seat."""
        ...

    def observe_finished(self, state: S, viewer: int | None) -> dict[str, JSON]:
        """What ``viewer`` sees of ``state`` once the match has ended by any ending (a result,
        resignation, timeout, abandonment), when everything may be revealed: the live page of a
        finished match and every step of its replay. ``state`` need not be a final state (a
        resignation ends the match where it stands)."""
        ...

    def bot_observation(self, state: S, seat: int) -> dict[str, JSON]:
        """What a computer player for ``seat`` sees: ``observe(state, seat)`` plus anything that
        seat has legitimately seen before and a person could remember (revealed pieces, flips),
        even where the match's options keep it off the screen. Never another seat's secret."""
        ...

    def action_visible_to(self, state: S, seat: int, action: A) -> frozenset[int] | None:
        """Who may see ``action`` itself in the log before the game ends (``None``: everyone).

        Typically ``{seat}`` for a simultaneous hidden choice or a secret setup, ``frozenset()``
        for a shuffle, ``None`` for an open move or a die roll. Events carry their own visibility.
        """
        ...

    def timeout_action(self, state: S, seat: int, rng: random.Random) -> A:
        """The action the computer plays for ``seat`` whose clock ran out; decided from that
        seat's observation only."""
        ...

    def resign(self, state: S, seat: int) -> Outcome | None:
        """What happens when ``seat`` resigns now: the :class:`Outcome` that ends the game, or
        ``None`` when the game goes on without that player (the computer then plays the seat to
        the end, and the player's result is what the seat finally gets).

        A two-player game ends (:meth:`Outcome.resignation`); a game of more seats usually goes on.
        """
        ...

    def secrets(self, state: S, viewer: int | None) -> Sequence[str]:
        """The hidden-information declaration: JSON fragments of ``state`` that must never appear
        in ``viewer``'s serialised observation (deck orders, other seats' hands, unrevealed
        pieces). Empty for a game of perfect information."""
        ...

    def catalog(self) -> dict[str, JSON]:
        """The game's card, rune or piece list for the rules pages and the browser (JSON-safe);
        ``{}`` when the game has none."""
        ...

    def encode_action(self, action: A) -> JSON:
        """Action to JSON (the objects listed in a snapshot's ``legal``)."""
        ...

    def decode_action(self, obj: JSON) -> A:
        """JSON to action.

        :raises BadAction: malformed input (not the shape of any action of this game).
        """
        ...

    def encode_state(self, state: S) -> JSON:
        """State to JSON (stored as the match snapshot; holds hidden information)."""
        ...

    def decode_state(self, obj: JSON) -> S:
        """Inverse of :meth:`encode_state`."""
        ...


class Bot(Protocol):
    """A computer player. It sees only its seat's observation (never the full state).

    ``choose`` receives what :meth:`Rules.bot_observation` gives that seat, the seat's legal
    actions (game values, as :meth:`Rules.legal_actions` returns them), and an injected ``rng``.
    It returns one element of ``legal``, or, where a game accepts choices it cannot list (a whole
    hidden setup), any action :meth:`Rules.is_legal` accepts. ``budget_ms`` is a soft time budget.
    """

    name: ClassVar[str]

    def choose(
        self, observation: Mapping[str, JSON], legal: Sequence[Any], rng: random.Random, budget_ms: int = 50
    ) -> Any: ...
