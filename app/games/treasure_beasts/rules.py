"""The Treasure Beasts rules facade: :class:`TreasureBeasts`, the engine contract of DESIGN.md
section 2 over the concept modules (``draft``, ``turns``, ``play``, ``attacks``, ``abilities``,
``zones``, ``properties``, ``observe``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from ..core.actions import ActionCodec
from ..core.base import BaseRules
from ..core.errors import BadOptions, GameOver, IllegalAction, NotYourTurn
from ..core.rules import CHANCE, Event, Outcome
from . import attacks, play
from .actions import (
    CODEC,
    Activate,
    AltUse,
    Attach,
    Deploy,
    Discard,
    Join,
    Lose,
    Move,
    Pass,
    Pick,
    Reattach,
    Shuffle,
    Steal,
    Strike,
    Take,
    Target,
    TBAction,
)
from .data import GROUPS, PROPERTIES, TRIGGERS, ZONES, CardBook, catalog_entries, load_card_set
from .draft import deal, legal_picks, picks
from .legality import is_legal
from .observe import observe, observe_finished, secrets
from .properties import derive
from .state import (
    ATTACK,
    DEAL,
    DISCARD,
    DRAFT,
    LOSSES,
    MAIN,
    RESHUFFLE,
    UNLIMITED,
    Config,
    Player,
    State,
    decode_state,
    encode_state,
)
from .turns import PACK_SIZE, START_TREASURE, discard_down, reshuffled, settle

JSON = Any
Handler = Callable[[CardBook, State, Any, list[Event]], State]

#: the packaged card set, validated on import
BOOK: CardBook = load_card_set()

_HANDLERS: dict[type[TBAction], Handler] = {
    Deploy: play.deploy,
    Attach: play.attach,
    AltUse: play.alt_use,
    Move: play.move,
    Reattach: play.reattach,
    Take: play.take,
    Steal: play.steal,
    Activate: play.activate,
    Pass: play.pass_turn,
    Target: attacks.declare,
    Join: attacks.join,
    Strike: attacks.strike,
    Lose: attacks.lose,
    Discard: lambda book, state, action, events: discard_down(state, action.card, events),
}


#: actions whose legality check needs the creatures' current values (computed once per apply)
_NEEDS_STATS: frozenset[type[TBAction]] = frozenset({Attach, Reattach, Take, Steal, Target, Join})


class TreasureBeasts(BaseRules[State, TBAction]):
    """Treasure Beasts (``rules/treasure_beasts.md``): 2-6 seats, a simultaneous draft, then turns
    of two action points over three zones, until a seat holds 12 treasures or only one is left.

    :param book: the card set (default: the packaged one); tests pass small synthetic sets.
    """

    name: ClassVar[str] = "treasure_beasts"
    title: ClassVar[str] = "Treasure Beasts"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    information: ClassVar[str] = "imperfect"
    default_turn_seconds: ClassVar[int] = 90
    default_options: ClassVar[Mapping[str, JSON]] = {
        "center_treasure": "unlimited",
        "turn_ends_at_zero_ap": True,
        "creature_actions": "per_kind",
        "threat_scope": "owner",
        "max_rounds": 40,
    }
    option_choices: ClassVar[Mapping[str, tuple[JSON, ...]]] = {
        "creature_actions": ("per_kind", "one_total"),
        "threat_scope": ("owner", "global"),
    }
    option_ranges: ClassVar[Mapping[str, tuple[float, float]]] = {"max_rounds": (0, 1000)}
    #: ``center_treasure``: ``"unlimited"`` or a number of treasures from 0 to 1000 (AMBIGUITY 3)
    option_schemas: ClassVar[Mapping[str, Mapping[str, JSON]]] = {
        "center_treasure": {"anyOf": [{"const": "unlimited"}, {"type": "integer", "minimum": 0, "maximum": 1000}]},
    }
    #: every non-default switch at once, with a short turn cap (the finite pool and global Threat
    #: can stall random play; the cap's end is exercised too)
    conformance_variants: ClassVar[tuple[Mapping[str, JSON], ...]] = (
        {
            "center_treasure": 30,
            "turn_ends_at_zero_ap": False,
            "creature_actions": "one_total",
            "threat_scope": "global",
            "max_rounds": 12,
        },
    )
    actions: ClassVar[ActionCodec[Any]] = CODEC

    def __init__(self, book: CardBook | None = None) -> None:
        self.book = book or BOOK

    # ------------------------------------------------------------------ setup

    def normalize_options(self, options: Mapping[str, JSON]) -> dict[str, JSON]:
        """Fill defaults and check the options; ``center_treasure`` is ``"unlimited"`` or an int
        from 0 to 1000 (AMBIGUITY 3).

        :raises BadOptions: unknown key, wrong type or value out of range (as
            :meth:`~app.games.core.base.BaseRules.normalize_options`; ``center_treasure``: ``reason``
            ``center_treasure``, ``low``, ``high``).
        """
        rest = dict(options or {})
        pool = rest.pop("center_treasure", "unlimited")
        out = super().normalize_options(rest)
        if pool != "unlimited" and (isinstance(pool, bool) or not isinstance(pool, int) or not 0 <= pool <= 1000):
            raise BadOptions(
                f"{self.name}: center_treasure must be 'unlimited' or 0..1000, got {pool!r}",
                reason="center_treasure",
                params={"low": 0, "high": 1000},
            )
        out["center_treasure"] = pool
        return out

    def initial_state(self, num_players: int, options: Mapping[str, JSON]) -> State:
        """The chance node of the opening shuffle (section 3).

        :raises BadOptions: a player count outside 2-6, bad options, or a card set too small to
            deal six cards to every seat (``reason`` ``too_few_cards``: ``players``).
        """
        self.check_players(num_players)
        o = self.normalize_options(options)
        if len(self.book.deck) < PACK_SIZE * num_players:
            raise BadOptions(
                f"{self.name}: a deck of {len(self.book.deck)} cannot deal to {num_players} players",
                reason="too_few_cards",
                params={"players": num_players},
            )
        pool = o["center_treasure"]
        config = Config(
            center_treasure=UNLIMITED if pool == "unlimited" else int(pool),
            turn_ends_at_zero_ap=bool(o["turn_ends_at_zero_ap"]),
            one_total=o["creature_actions"] == "one_total",
            threat_global=o["threat_scope"] == "global",
            max_rounds=int(o["max_rounds"]),
        )
        players = tuple(Player(START_TREASURE) for _ in range(num_players))
        return State(config, num_players, DEAL, players, center=config.center_treasure)

    # ------------------------------------------------------------------ whose turn, what is legal

    def to_act(self, state: State) -> frozenset[int]:
        """``{CHANCE}`` for shuffles, every seat during the draft, the defender while it picks
        losses, else the active seat; empty once over."""
        phase = state.phase
        if phase in (MAIN, ATTACK, DISCARD):
            return frozenset({state.active})
        if phase == DRAFT:
            return frozenset(range(state.num_players))
        if phase in (DEAL, RESHUFFLE):
            return frozenset({CHANCE})
        if phase == LOSSES:
            return frozenset({attacks.defender(state)})
        return frozenset()

    def legal_actions(self, state: State, seat: int) -> Sequence[TBAction]:
        """``seat``'s legal actions now (empty when it need not act)."""
        if seat == CHANCE or seat not in self.to_act(state):
            return []
        phase = state.phase
        if phase == MAIN:
            return play.legal_main(self.book, state)
        if phase == ATTACK:
            return attacks.legal_attack(self.book, state)
        if phase == LOSSES:
            return [Lose(u) for u in attacks.loss_choices(state)]
        if phase == DISCARD:
            hand = state.players[seat].hand
            return [Discard(c) for c in sorted(set(hand), key=self.book.order.__getitem__)]
        return legal_picks(self.book, state, seat)

    def is_legal(self, state: State, seat: int, action: TBAction) -> bool:
        """Whether ``seat`` may play ``action`` now, checked directly (module :mod:`.legality`);
        agrees with membership in :meth:`legal_actions`."""
        if seat == CHANCE or seat not in self.to_act(state) or not isinstance(action, TBAction):
            return False
        return is_legal(self.book, state, seat, action)

    def sample_chance(self, state: State, rng: random.Random) -> Shuffle:
        """The opening shuffle of the whole deck, or a reshuffle of the discard.

        :raises IllegalAction: not a chance node.
        """
        if state.phase == DEAL:
            cards = list(self.book.deck)
        elif state.phase == RESHUFFLE:
            cards = list(state.discard)
        else:
            raise IllegalAction(f"{self.name}: no chance node in phase {state.phase!r}")
        rng.shuffle(cards)
        return Shuffle(tuple(cards))

    # ------------------------------------------------------------------ apply

    def apply(self, state: State, actions: Mapping[int, TBAction]) -> tuple[State, list[Event]]:
        """Apply the actions of exactly the seats in ``to_act``, then settle (victory, reshuffle,
        end of turn at 0 AP).

        :raises GameOver: the game has ended.
        :raises NotYourTurn: the seats are not exactly those to act.
        :raises IllegalAction: an action not legal now (or a chance outcome that is not a
            permutation of the cards to shuffle).
        """
        if state.outcome is not None:
            raise GameOver(f"{self.name}: the game is over")
        to_act = self.to_act(state)
        if set(actions) != to_act:
            raise NotYourTurn(f"{self.name}: to act are {sorted(to_act)}, got {sorted(actions)}")
        events: list[Event] = []
        if CHANCE in to_act:
            order = actions[CHANCE]
            expected = self.book.deck if state.phase == DEAL else state.discard
            if not isinstance(order, Shuffle) or sorted(order.order) != sorted(expected):
                raise IllegalAction(f"{self.name}: {order!r} does not shuffle the {len(expected)} cards")
            if state.phase == DEAL:
                state = deal(self.book, state, order.order, events)
            else:
                state = reshuffled(state, order.order, events)
        elif state.phase == DRAFT:
            for seat, action in actions.items():
                if not isinstance(action, Pick) or action.card not in state.players[seat].pack:
                    raise IllegalAction(f"{self.name}: seat {seat} cannot pick {action!r}")
            state = picks(self.book, state, actions, events)  # type: ignore[arg-type]
        else:
            ((seat, action),) = actions.items()
            kind = type(action)
            stats = derive(self.book, state) if kind in _NEEDS_STATS else None
            if (
                seat not in to_act
                or not isinstance(action, TBAction)
                or not is_legal(self.book, state, seat, action, stats)
            ):
                raise IllegalAction(f"{self.name}: {self.encode_action(action)!r} is not legal for seat {seat}")
            if isinstance(action, Take):
                state = play.take(self.book, state, action, events, stats)
            elif isinstance(action, Steal):
                state = play.steal(self.book, state, action, events, stats)
            else:
                state = _HANDLERS[kind](self.book, state, action, events)
        return settle(state, events), events

    # ------------------------------------------------------------------ results and views

    def outcome(self, state: State) -> Outcome | None:
        """The result once over (reasons ``treasure``, ``last_standing``, ``turn_cap``)."""
        return state.outcome

    def observe(self, state: State, viewer: int | None) -> dict[str, JSON]:
        """What ``viewer`` may see (module :mod:`.observe`)."""
        return observe(self.book, state, viewer, sorted(self.to_act(state)))

    def observe_finished(self, state: State, viewer: int | None) -> dict[str, JSON]:
        """:meth:`observe` with every hand, pack and the deck order shown: the match has ended
        (module :mod:`.observe`, :func:`~.observe.observe_finished`)."""
        return observe_finished(self.book, state, viewer, sorted(self.to_act(state)))

    def secrets(self, state: State, viewer: int | None) -> list[str]:
        """Other seats' hands and packs, and the deck order (AMBIGUITY 21)."""
        return secrets(state, viewer)

    def catalog(self) -> dict[str, JSON]:
        """``{"cards": [card JSON], "groups", "properties", "triggers", "zones"}`` for pages."""
        return {
            "cards": catalog_entries(self.book),
            "groups": list(GROUPS),
            "properties": list(PROPERTIES),
            "triggers": list(TRIGGERS),
            "zones": list(ZONES),
        }

    def encode_state(self, state: State) -> JSON:
        """The whole state as JSON (storage only: it holds the hidden cards)."""
        return encode_state(state)

    def decode_state(self, obj: JSON) -> State:
        """Inverse of :meth:`encode_state`."""
        return decode_state(obj)
