"""Resolving one-shot abilities: on-enter, activated, on-leave and alternative uses
(``rules/treasure_beasts.md`` sections 5.3, 11.1, 13; the vocabulary is in :mod:`.data`).

:func:`resolve` works through a queue of :class:`~.zones.Trigger` in order; effects that bring
creatures onto the field or take them off add their triggers to the end of the queue. The
12-treasure victory is checked after every effect (section 13, AMBIGUITY 22). Where several
triggers fire at once their order is fixed (active seat first, then turn order, then by uid)
instead of chosen by the players: a decision of ours that keeps every step a short choice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..core.rules import Event
from ..core.state import evolve
from .data import CENTER, START, ZONE_INDEX, CardBook, Effect, Stats
from .properties import derive, may_target, treasury_open
from .state import NO_HOST, UNLIMITED, Creature, State, opponents, with_creature, with_player
from .turns import check_win, draw
from .zones import Trigger, enter, leave, place

Handler = Callable[[CardBook, State, Trigger, Effect, list[Event], list[Trigger]], State]


def resolve(book: CardBook, state: State, queue: list[Trigger], events: list[Event]) -> State:
    """Resolve ``queue`` (consumed) and everything it triggers. Event ``ability`` per trigger."""
    while queue and state.outcome is None:
        t = queue.pop(0)
        if state.players[t.owner].eliminated:
            continue
        events.append(Event("ability", {"seat": t.owner, "uid": t.uid, "card": t.card, "trigger": t.kind}))
        for effect in t.effects:
            state = _HANDLERS[effect.do](book, state, t, effect, events, queue)
            state = check_win(state, events)
            if state.outcome is not None:
                break
    return state


# ------------------------------------------------------------------------------- treasure


def gain_from_center(state: State, seat: int, amount: int, events: list[Event], why: str) -> State:
    """``seat`` takes ``amount`` from the central pool (capped when the pool is finite)."""
    if state.center != UNLIMITED:
        amount = min(amount, state.center)
        state = evolve(state, center=state.center - amount)
    if amount <= 0:
        return state
    state = with_player(state, seat, treasury=state.players[seat].treasury + amount)
    events.append(Event("treasure", {"seat": seat, "amount": amount, "from": "center", "why": why}))
    return state


def pay_to_center(state: State, seat: int, amount: int, events: list[Event], why: str) -> State:
    """``seat`` loses ``amount`` (capped by its treasury) to the central pool."""
    amount = min(amount, state.players[seat].treasury)
    if amount <= 0:
        return state
    state = with_player(state, seat, treasury=state.players[seat].treasury - amount)
    if state.center != UNLIMITED:
        state = evolve(state, center=state.center + amount)
    events.append(Event("treasure", {"seat": seat, "amount": -amount, "to": "center", "why": why}))
    return state


def transfer(state: State, thief: int, victim: int, amount: int, events: list[Event], why: str) -> State:
    """Move ``amount`` (capped by the victim's treasury) from ``victim`` to ``thief``."""
    amount = min(amount, state.players[victim].treasury)
    if amount <= 0:
        return state
    state = with_player(state, victim, treasury=state.players[victim].treasury - amount)
    state = with_player(state, thief, treasury=state.players[thief].treasury + amount)
    events.append(Event("stolen", {"seat": thief, "victim": victim, "amount": amount, "why": why}))
    return state


# ------------------------------------------------------------------------------- targets


def source_props(book: CardBook, state: State, stats: Mapping[int, Stats], t: Trigger) -> frozenset[str]:
    """The properties the trigger's source acts with: current ones on the field, else printed."""
    if t.uid in stats:
        return stats[t.uid].props
    return frozenset(book.cards[t.card].properties)


def pick_target(book: CardBook, state: State, t: Trigger, e: Effect) -> Creature | None:
    """The creature effect ``e`` of trigger ``t`` acts on, by its selector (module :mod:`.data`)."""
    sel = e.target
    if sel == "self":
        return state.creature(t.uid)
    if sel == "host":
        me = state.creature(t.uid)
        return state.creature(me.host) if me is not None and me.host != NO_HOST else None
    stats = derive(book, state)
    if sel == "own_tired":
        pool = [c for c in state.creatures if c.owner == t.owner and not c.ready and c.host == NO_HOST]
    else:
        props = source_props(book, state, stats, t)
        pool = [c for c in state.creatures if c.owner != t.owner and may_target(state, stats, t.owner, props, c)]
        if sel == "ready_enemy":
            pool = [c for c in pool if c.ready]
    if e.max_strength is not None:
        pool = [c for c in pool if stats[c.uid].strength <= e.max_strength]
    if not pool:
        return None
    if sel == "weakest_enemy":
        return min(pool, key=lambda c: (stats[c.uid].strength, c.uid))
    return max(pool, key=lambda c: (stats[c.uid].strength, -c.uid))


# ------------------------------------------------------------------------------- effects


def _gain(book: CardBook, state: State, t: Trigger, e: Effect, events: list[Event], q: list[Trigger]) -> State:
    return gain_from_center(state, t.owner, e.amount, events, t.card)


def _drain(book: CardBook, state: State, t: Trigger, e: Effect, events: list[Event], q: list[Trigger]) -> State:
    stats = derive(book, state)
    for victim in opponents(state, t.owner):
        if treasury_open(state, stats, t.owner, victim):
            state = pay_to_center(state, victim, e.amount, events, t.card)
    return state


def _steal(book: CardBook, state: State, t: Trigger, e: Effect, events: list[Event], q: list[Trigger]) -> State:
    stats = derive(book, state)
    victims = [
        v
        for v in opponents(state, t.owner)
        if state.players[v].treasury > 0 and treasury_open(state, stats, t.owner, v)
    ]
    if not victims:
        return state
    victim = max(victims, key=lambda v: state.players[v].treasury)  # first in turn order on ties
    return transfer(state, t.owner, victim, e.amount, events, t.card)


def _draw(book: CardBook, state: State, t: Trigger, e: Effect, events: list[Event], q: list[Trigger]) -> State:
    return draw(state, t.owner, e.amount, events)


def _discard(book: CardBook, state: State, t: Trigger, e: Effect, events: list[Event], q: list[Trigger]) -> State:
    for seat in opponents(state, t.owner):
        hand = state.players[seat].hand
        if not hand:
            continue
        keep, lost = hand[: -e.amount], hand[-e.amount :]
        state = with_player(state, seat, hand=keep)
        state = evolve(state, discard=state.discard + lost)
        events.append(Event("discarded", {"seat": seat, "cards": list(lost), "why": t.card}))
    return state


def _ap(book: CardBook, state: State, t: Trigger, e: Effect, events: list[Event], q: list[Trigger]) -> State:
    if t.owner != state.active:
        return state
    events.append(Event("ap_gained", {"seat": t.owner, "amount": e.amount}))
    return evolve(state, ap=state.ap + e.amount)


def _destroy(book: CardBook, state: State, t: Trigger, e: Effect, events: list[Event], q: list[Trigger]) -> State:
    victim = pick_target(book, state, t, e)
    if victim is None:
        return state
    to_hand = frozenset({victim.uid}) if e.do == "return" else frozenset()
    state, more = leave(book, state, [victim.uid], to_hand, "returned" if e.do == "return" else "destroyed", events)
    q.extend(more)
    return state


def _revive(book: CardBook, state: State, t: Trigger, e: Effect, events: list[Event], q: list[Trigger]) -> State:
    discard = state.discard
    for i in range(len(discard) - 1, -1, -1):
        if discard[i] != t.card:
            card = discard[i]
            state = evolve(state, discard=discard[:i] + discard[i + 1 :])
            zone = ZONE_INDEX[book.cards[card].start_position]
            state, more = enter(book, state, t.owner, card, zone, NO_HOST, "revived", events)
            q.extend(more)
            return state
    return state


def _move(book: CardBook, state: State, t: Trigger, e: Effect, events: list[Event], q: list[Trigger]) -> State:
    c = pick_target(book, state, t, e)
    if c is None or c.host != NO_HOST:
        return state
    zone = min(CENTER, c.zone + 1) if e.direction == "forward" else max(START, c.zone - 1)
    if zone == c.zone:
        return state
    events.append(Event("pushed", {"uid": c.uid, "zone": zone, "why": t.card}))
    return place(state, c.uid, zone)


def _tire(book: CardBook, state: State, t: Trigger, e: Effect, events: list[Event], q: list[Trigger]) -> State:
    c = pick_target(book, state, t, e)
    ready = e.do == "ready"
    if c is None or c.ready == ready:
        return state
    events.append(Event("readied" if ready else "tired", {"uid": c.uid, "why": t.card}))
    return with_creature(state, c.uid, ready=ready)


_HANDLERS: dict[str, Handler] = {
    "gain": _gain,
    "drain": _drain,
    "steal": _steal,
    "draw": _draw,
    "discard": _discard,
    "ap": _ap,
    "destroy": _destroy,
    "return": _destroy,
    "revive": _revive,
    "move": _move,
    "tire": _tire,
    "ready": _tire,
}
