"""The active seat's main phase: the hand actions that cost action points (deploy, attach,
alternative use; section 5) and the free creature activity (move, re-attach, take treasure,
theft, activated abilities; sections 6-8, 10), with their legal lists.

Decisions: taking treasure or stealing for 0 is not offered (a creature of strength 0 with Carrying
Capacity, an empty finite pool); an activated ability is offered even when it would find no target
(paying its cost is the player's call). The extra treasure of an alternative use goes to the
central pool.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.errors import IllegalAction
from ..core.rules import Event
from ..core.state import evolve
from .abilities import gain_from_center, pay_to_center, resolve, transfer
from .actions import Activate, AltUse, Attach, Deploy, Move, Pass, Reattach, Steal, Take, TBAction
from .attacks import legal_targets
from .data import CENTER, START, ZONE_INDEX, ZONES, CardBook, Stats
from .properties import center_open, derive, guard_map, may_act, treasury_open
from .state import ACTIVATED, NO_HOST, TAKE, THEFT, Creature, State, opponents, with_creature, with_player
from .turns import end_turn
from .zones import Trigger, attach_hosts, enter, place


def take_amount(state: State, stats: Stats) -> int:
    """Treasure one take or theft brings: 1, or the current strength with Carrying Capacity
    (Pacifists always, AMBIGUITY 13), plus any take bonus (section 10)."""
    base = stats.strength if "carrying_capacity" in stats.props else 1
    return base + stats.take_bonus


def may_take(
    state: State, stats: Mapping[int, Stats], c: Creature, guards: Mapping[int, frozenset[int]] | None = None
) -> bool:
    """Section 6.3/8: ready, in Center, not attached, not Aggressive, not taken yet this turn, the
    centre open (global Threat) and something to take."""
    if c.host != NO_HOST or c.zone != CENTER or not may_act(state, c, TAKE):
        return False
    s = stats[c.uid]
    if "aggressiveness" in s.props or not center_open(state, stats, c.owner, guards):
        return False
    return take_amount(state, s) > 0 and state.center != 0


def theft_victims(
    state: State, stats: Mapping[int, Stats], c: Creature, guards: Mapping[int, frozenset[int]] | None = None
) -> list[int]:
    """Seats creature ``c`` may steal from (section 10 Theft, AMBIGUITY 8): it has Theft, is ready, in
    Center, not attached or Aggressive, has not stolen this turn; victims hold treasure and are not
    protected by Threat."""
    if c.host != NO_HOST or c.zone != CENTER or not may_act(state, c, THEFT):
        return []
    s = stats[c.uid]
    if "theft" not in s.props or "aggressiveness" in s.props or take_amount(state, s) <= 0:
        return []
    return [
        v
        for v in opponents(state, c.owner)
        if state.players[v].treasury > 0 and treasury_open(state, stats, c.owner, v, guards)
    ]


def legal_main(book: CardBook, state: State) -> list[TBAction]:
    """Every legal action of the active seat in the main phase: free creature activity, attack
    targets, hand actions while AP last, and :class:`Pass`."""
    seat = state.active
    stats = derive(book, state)
    guards = guard_map(state, stats)
    activated = book.activated
    out: list[TBAction] = []
    for c in state.creatures:
        if c.owner != seat:
            continue
        attached = c.host != NO_HOST
        if c.ready and not attached and c.zone == CENTER:  # what may_take and theft_victims need first
            if may_take(state, stats, c, guards):
                out.append(Take(c.uid))
            if "theft" in stats[c.uid].props:
                out.extend([Steal(c.uid, v) for v in theft_victims(state, stats, c, guards)])
        if c.ready and c.card in activated and may_act(state, c, ACTIVATED):
            out.append(Activate(c.uid))
        if not c.fresh:
            if not attached:
                if c.moves < stats[c.uid].moves:
                    out.extend([Move(c.uid, z) for z in (c.zone - 1, c.zone + 1) if START <= z <= CENTER])
            elif not c.reattached:
                hosts = attach_hosts(book, state, stats, seat, c.card, stats[c.uid].props, c.uid, guards)
                out.extend([Reattach(c.uid, h) for h in hosts if h != c.host])
    out.extend(legal_targets(state, stats, guards))
    player = state.players[seat]
    if state.ap >= 1:
        cards = book.cards
        for card in sorted(set(player.hand), key=book.order.__getitem__):
            data = cards[card]
            out.append(Deploy(card))
            if data.attach_option is not None:
                props = frozenset(data.properties)
                out.extend(
                    [Attach(card, h) for h in attach_hosts(book, state, stats, seat, card, props, guards=guards)]
                )
            alt = data.alternative_use
            if alt is not None and state.ap >= 1 + alt.extra_cost.ap and player.treasury >= alt.extra_cost.treasure:
                out.append(AltUse(card))
    out.append(Pass())
    return out


def _from_hand(state: State, seat: int, card: str, ap: int) -> State:
    hand = list(state.players[seat].hand)
    hand.remove(card)
    return evolve(with_player(state, seat, hand=tuple(hand)), ap=state.ap - ap)


def deploy(book: CardBook, state: State, action: Deploy, events: list[Event]) -> State:
    """Section 5.1: 1 AP; the creature enters its start zone, fresh; on-enter abilities resolve."""
    seat = state.active
    state = _from_hand(state, seat, action.card, 1)
    zone = ZONE_INDEX[book.cards[action.card].start_position]
    state, queue = enter(book, state, seat, action.card, zone, NO_HOST, "deployed", events)
    return resolve(book, state, queue, events)


def attach(book: CardBook, state: State, action: Attach, events: list[Event]) -> State:
    """Section 5.2: 1 AP; the creature enters attached to the host, in the host's zone."""
    seat = state.active
    host = state.creature(action.host)
    if host is None:
        raise IllegalAction(f"no creature {action.host} on the field")
    state = _from_hand(state, seat, action.card, 1)
    state, queue = enter(book, state, seat, action.card, host.zone, host.uid, "attached", events)
    return resolve(book, state, queue, events)


def alt_use(book: CardBook, state: State, action: AltUse, events: list[Event]) -> State:
    """Section 5.3: 1 AP plus the printed extra cost; the card goes to the discard and its text
    resolves (no on-enter or on-leave)."""
    seat = state.active
    alt = book.cards[action.card].alternative_use
    if alt is None:
        raise IllegalAction(f"{action.card} has no alternative use")
    state = _from_hand(state, seat, action.card, 1 + alt.extra_cost.ap)
    state = pay_to_center(state, seat, alt.extra_cost.treasure, events, "alternative_use")
    state = evolve(state, discard=(*state.discard, action.card))
    events.append(Event("alternative_use", {"seat": seat, "card": action.card}))
    return resolve(book, state, [Trigger(seat, 0, action.card, "alternative_use", alt.effects)], events)


def move(book: CardBook, state: State, action: Move, events: list[Event]) -> State:
    """Section 6.1: one zone, free; attached creatures come along."""
    c = _own(state, action.creature)
    state = with_creature(state, c.uid, moves=c.moves + 1)
    events.append(Event("moved", {"uid": c.uid, "from": ZONES[c.zone], "to": ZONES[action.zone]}))
    return place(state, c.uid, action.zone)


def reattach(book: CardBook, state: State, action: Reattach, events: list[Event]) -> State:
    """Section 6.2: once per turn, free, to another legal host."""
    c = _own(state, action.creature)
    host = state.creature(action.host)
    if host is None:
        raise IllegalAction(f"no creature {action.host} on the field")
    events.append(Event("reattached", {"uid": c.uid, "from": c.host, "to": host.uid}))
    return with_creature(state, c.uid, host=host.uid, zone=host.zone, reattached=True)


def take(
    book: CardBook, state: State, action: Take, events: list[Event], stats: Mapping[int, Stats] | None = None
) -> State:
    """Section 6.3/10: take treasure from the central pool; does not tire.

    :param stats: :func:`~.properties.derive` of ``state``, when the caller has it already.
    """
    c = _own(state, action.creature)
    amount = take_amount(state, (derive(book, state) if stats is None else stats)[c.uid])
    state = with_creature(state, c.uid, used=c.used | TAKE)
    return gain_from_center(state, c.owner, amount, events, "take")


def steal(
    book: CardBook, state: State, action: Steal, events: list[Event], stats: Mapping[int, Stats] | None = None
) -> State:
    """Section 10 Theft: from one opponent, 1 or the strength with Carrying Capacity; tires.

    :param stats: :func:`~.properties.derive` of ``state``, when the caller has it already.
    """
    c = _own(state, action.creature)
    amount = take_amount(state, (derive(book, state) if stats is None else stats)[c.uid])
    state = with_creature(state, c.uid, used=c.used | THEFT, ready=False)
    return transfer(state, c.owner, action.victim, amount, events, "theft")


def activate(book: CardBook, state: State, action: Activate, events: list[Event]) -> State:
    """Section 11.1 activated: tiring this creature is the cost; no AP."""
    c = _own(state, action.creature)
    state = with_creature(state, c.uid, used=c.used | ACTIVATED, ready=False)
    ability = book.cards[c.card].abilities("activated")[0]
    return resolve(book, state, [Trigger(c.owner, c.uid, c.card, "activated", ability.effects)], events)


def pass_turn(book: CardBook, state: State, action: Pass, events: list[Event]) -> State:
    """Section 4.3: the turn ends now (AP are lost)."""
    return end_turn(evolve(state, ap=0), events)


def _own(state: State, uid: int) -> Creature:
    c = state.creature(uid)
    if c is None or c.owner != state.active:
        raise IllegalAction(f"creature {uid} is not the active seat's")
    return c


__all__ = ["activate", "alt_use", "attach", "deploy", "legal_main", "move", "pass_turn", "reattach", "steal", "take"]
