"""Coming onto the field, leaving it, moving between zones and attaching
(``rules/treasure_beasts.md`` sections 5.1, 5.2, 6.1, 6.2, 9.2; AMBIGUITIES 5, 12, 17).

These are primitives: they change the field and report the abilities that trigger
(:class:`Trigger`), which :mod:`.abilities` then resolves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..core.rules import Event
from ..core.state import evolve
from .data import CENTER, START, ZONES, CardBook, Effect, Stats
from .properties import guard_map, guards_against
from .state import NO_HOST, Creature, State, turn_order, with_player


@dataclass(frozen=True, slots=True)
class Trigger:
    """An ability waiting to resolve: ``owner``'s ``card`` (creature ``uid`` on the field, or the
    uid it had; 0 for an alternative use from hand), its ``kind`` (``on_enter``, ``activated``,
    ``on_leave``, ``alternative_use``) and its one-shot ``effects``."""

    owner: int
    uid: int
    card: str
    kind: str
    effects: tuple[Effect, ...]


def triggers_of(book: CardBook, c: Creature, kind: str) -> list[Trigger]:
    """The ``kind`` abilities of creature ``c``'s card, as triggers."""
    return [Trigger(c.owner, c.uid, c.card, kind, a.effects) for a in book.cards[c.card].abilities(kind)]


def enter(
    book: CardBook, state: State, owner: int, card: str, zone: int, host: int, how: str, events: list[Event]
) -> tuple[State, list[Trigger]]:
    """Put ``card`` onto ``owner``'s field in ``zone`` (attached to ``host`` unless ``NO_HOST``),
    fresh and ready. Event ``entered`` (``how``: ``deployed``, ``attached``, ``revived``).

    :returns: the new state and its on-enter triggers (section 11.1: from anywhere, attaching too).
    """
    c = Creature(state.next_uid, card, owner, zone, host=host)
    state = evolve(state, creatures=(*state.creatures, c), next_uid=state.next_uid + 1)
    events.append(
        Event(
            "entered",
            {
                "seat": owner,
                "uid": c.uid,
                "card": card,
                "zone": ZONES[zone],
                "host": None if host == NO_HOST else host,
                "how": how,
            },
        )
    )
    return state, triggers_of(book, c, "on_enter")


def leave(
    book: CardBook, state: State, uids: list[int], to_hand: frozenset[int], reason: str, events: list[Event]
) -> tuple[State, list[Trigger]]:
    """Creatures ``uids`` leave the field together, with everything attached to them (AMBIGUITY
    12): to their owner's hand for those in ``to_hand``, else to the discard. Events ``left``.

    :returns: the new state and the on-leave triggers, the active seat's first, then turn order
        (section 9.2), each seat's by uid.
    """
    gone = set(uids)
    gone |= {c.uid for c in state.creatures if c.host in gone}
    leaving = [c for c in state.creatures if c.uid in gone]
    if not leaving:
        return state, []
    discard = list(state.discard)
    state = evolve(state, creatures=tuple(c for c in state.creatures if c.uid not in gone))
    for c in leaving:
        if c.uid in to_hand:
            state = with_player(state, c.owner, hand=(*state.players[c.owner].hand, c.card))
        else:
            discard.append(c.card)
        events.append(
            Event(
                "left",
                {
                    "seat": c.owner,
                    "uid": c.uid,
                    "card": c.card,
                    "reason": reason,
                    "to": "hand" if c.uid in to_hand else "discard",
                },
            )
        )
    state = evolve(state, discard=tuple(discard))
    order = {seat: i for i, seat in enumerate(turn_order(state, state.active))}
    leaving.sort(key=lambda c: (order.get(c.owner, len(order)), c.uid))
    return state, [t for c in leaving for t in triggers_of(book, c, "on_leave")]


def place(state: State, uid: int, zone: int) -> State:
    """Creature ``uid`` and whatever is attached to it are now in ``zone``."""
    return evolve(
        state, creatures=tuple(evolve(c, zone=zone) if c.uid == uid or c.host == uid else c for c in state.creatures)
    )


def move_targets(c: Creature, stats: Stats) -> list[int]:
    """Zones ``c`` may move to now (section 6.1): adjacent, once per turn (more with extra moves),
    not on the turn it entered, never while attached."""
    if c.host != NO_HOST or c.fresh or c.moves >= stats.moves:
        return []
    return [z for z in (c.zone - 1, c.zone + 1) if START <= z <= CENTER]


def attach_hosts(
    book: CardBook,
    state: State,
    stats: Mapping[int, Stats],
    seat: int,
    card: str,
    props: frozenset[str],
    exclude: int = NO_HOST,
    guards: Mapping[int, frozenset[int]] | None = None,
) -> list[int]:
    """Creatures ``seat``'s ``card`` may be attached to (section 5.2): not attached themselves,
    of the hosts its attach option names; an opponent's must be one it may target (Flight,
    Threat). Empty for a card without an attach option."""
    option = book.cards[card].attach_option
    if option is None:
        return []
    hosts = option.hosts
    if hosts == "own":
        return [h.uid for h in state.creatures if h.owner == seat and h.host == NO_HOST and h.uid != exclude]
    if guards is None:
        guards = guard_map(state, stats)
    reaches_flyers = "flight" in props or "jump" in props
    # properties.may_target for each enemy, its Threat guards looked up once per owner
    limits = {owner: guards_against(state, guards, seat, owner) for owner in range(state.num_players)}
    out = []
    for h in state.creatures:
        if h.host != NO_HOST or h.uid == exclude:
            continue
        if h.owner == seat:
            if hosts != "opponent":
                out.append(h.uid)
            continue
        g = limits[h.owner]
        if g and h.uid not in g:
            continue
        if reaches_flyers or "flight" not in stats[h.uid].props:
            out.append(h.uid)
    return out
