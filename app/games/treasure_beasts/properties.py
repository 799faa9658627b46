"""Current strength and properties of every creature, and who may interact with whom
(``rules/treasure_beasts.md`` sections 8, 10 and 11).

:func:`derive` folds every static effect on the field (passive abilities, attach options, active
group abilities, the Pacifists' built-in Carrying Capacity) into one :class:`Stats` per creature.
It is recomputed from the state whenever needed (no cache on states or rules).

Decisions where the spec is silent:

* strength never goes below 0; a removed property beats a granted or printed one;
* the same group ability (same card id) counts once per owner however many copies are on the
  field; different cards' group abilities add up;
* an attached creature is neither attacked nor targeted, never counts for Threat, takes no
  treasure and does not attack; its passive and activated abilities still work.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .data import CENTER, CardBook, Effect, Stats
from .state import ATTACKED, NO_HOST, Creature, State


def derive(book: CardBook, state: State) -> dict[int, Stats]:
    """Every creature's :class:`Stats`, by uid (sections 10, 11.1 passive, 11.2, 5.2; AMBIGUITY 13)."""
    creatures = state.creatures
    base = book.base_stats
    out = {c.uid: base[c.card] for c in creatures}
    sources = [c for c in creatures if c.card in book.has_static]
    if not sources:
        return out
    cards = book.cards
    #: uid -> [strength added, granted, removed, extra moves, take bonus]
    mods: dict[int, list[Any]] = {}
    counts: dict[tuple[int, str], int] = {}
    if any(cards[c.card].group_ability is not None for c in sources):
        group_of = book.group_of
        for c in creatures:
            key = (c.owner, group_of[c.card])
            counts[key] = counts.get(key, 0) + 1
    applied: set[tuple[int, str]] = set()

    def apply(targets: list[int], e: Effect) -> None:
        slot = _SLOT[e.do]
        value: Any = e.property if slot in (1, 2) else e.amount
        for uid in targets:
            m = mods.get(uid)
            if m is None:
                m = mods[uid] = [0, set(), set(), 0, 0]
            if slot in (1, 2):
                m[slot].add(value)
            else:
                m[slot] += value

    for c in sources:
        card = cards[c.card]
        for e in book.passive[c.card]:
            apply(_static_targets(book, state, c, e.target or "self", card.group, False), e)
        if c.host != NO_HOST and card.attach_option is not None:
            for e in card.attach_option.effects:
                apply([c.host], e)
        ga = card.group_ability
        if (
            ga is not None
            and counts.get((c.owner, card.group), 0) >= ga.required_count
            and (c.owner, c.card) not in applied
        ):
            applied.add((c.owner, c.card))
            for e in ga.effects:
                apply(_static_targets(book, state, c, e.target or "group", card.group, ga.scope == "all"), e)

    for uid, (added, granted, removed, moves, bonus) in mods.items():
        if uid not in out:
            continue
        b = out[uid]
        out[uid] = Stats(max(0, b.strength + added), (b.props | granted) - removed, 1 + moves, bonus)
    return out


#: effect -> its slot in derive's per-creature modifiers
_SLOT = {"strength": 0, "grant": 1, "remove": 2, "extra_move": 3, "take_bonus": 4}


def _static_targets(
    book: CardBook, state: State, source: Creature, target: str, group: str, everyone: bool
) -> list[int]:
    if target == "self":
        return [source.uid]
    if target == "host":
        return [source.host] if source.host != NO_HOST else []
    if target == "own":
        return [c.uid for c in state.creatures if c.owner == source.owner]
    if target == "enemy":
        return [c.uid for c in state.creatures if c.owner != source.owner]
    # group: the owner's creatures of the source's group (or every player's, scope "all")
    group_of = book.group_of
    return [c.uid for c in state.creatures if (everyone or c.owner == source.owner) and group_of[c.card] == group]


# ------------------------------------------------------------------------------- interactions


def guard_map(state: State, stats: Mapping[int, Stats]) -> dict[int, frozenset[int]]:
    """Per seat, its ready Threat creatures on the field that are not attached (section 10, Threat);
    seats without any are absent."""
    out: dict[int, set[int]] = {}
    for c in state.creatures:
        if c.ready and c.host == NO_HOST and "threat" in stats[c.uid].props:
            out.setdefault(c.owner, set()).add(c.uid)
    return {seat: frozenset(uids) for seat, uids in out.items()}


def guards_against(state: State, guards: Mapping[int, frozenset[int]], actor: int, owner: int) -> frozenset[int]:
    """The Threat creatures that limit what ``actor`` may do to ``owner``: the owner's (AMBIGUITY 11),
    or with ``threat_scope: global`` every opponent's."""
    if state.config.threat_global:
        return frozenset().union(*(uids for seat, uids in guards.items() if seat != actor))
    return guards.get(owner, frozenset())


def may_target(
    state: State,
    stats: Mapping[int, Stats],
    actor: int,
    source_props: frozenset[str],
    target: Creature,
    guards: Mapping[int, frozenset[int]] | None = None,
) -> bool:
    """Whether ``actor``'s creature with ``source_props`` may interact with the enemy ``target``:
    not attached, Flight needs Flight or Jump (AMBIGUITY 9), Threat (AMBIGUITY 11).

    :param guards: :func:`guard_map` of this state, when the caller has it already.
    """
    if target.owner == actor or target.host != NO_HOST:
        return False
    if "flight" in stats[target.uid].props and "flight" not in source_props and "jump" not in source_props:
        return False
    g = guards_against(state, guard_map(state, stats) if guards is None else guards, actor, target.owner)
    return not g or target.uid in g


def treasury_open(
    state: State,
    stats: Mapping[int, Stats],
    actor: int,
    victim: int,
    guards: Mapping[int, frozenset[int]] | None = None,
) -> bool:
    """Whether ``actor`` may take from ``victim``'s treasury (Threat protects it)."""
    return not guards_against(state, guard_map(state, stats) if guards is None else guards, actor, victim)


def center_open(
    state: State, stats: Mapping[int, Stats], actor: int, guards: Mapping[int, frozenset[int]] | None = None
) -> bool:
    """Whether ``actor`` may take from the central pool (blocked only by global Threat)."""
    if not state.config.threat_global:
        return True
    return not guards_against(state, guard_map(state, stats) if guards is None else guards, actor, actor)


def may_act(state: State, c: Creature, kind: int) -> bool:
    """A creature action of ``kind`` is allowed: ready, not attached, not used this turn (per kind,
    or at all with ``creature_actions: one_total``; section 6.3)."""
    if not c.ready:
        return False
    if state.config.one_total:
        return c.used == 0
    return not c.used & kind


def attackers(state: State, stats: Mapping[int, Stats]) -> list[Creature]:
    """The active seat's creatures that may attack something (section 9.1): ready, not attached,
    not attacked this turn, not Peaceful."""
    return [
        c
        for c in state.creatures
        if c.owner == state.active
        and c.host == NO_HOST
        and may_act(state, c, ATTACKED)
        and "peacefulness" not in stats[c.uid].props
    ]


def reaches(state: State, stats: Mapping[int, Stats], attacker: Creature, target: Creature) -> bool:
    """Whether ``attacker`` (one of :func:`attackers`) reaches the enemy ``target``, Threat aside:
    both in Center or Interception; Stealth needs Attentiveness; Flight needs Flight or Jump."""
    props = stats[attacker.uid].props
    if "interception" not in props and (attacker.zone != CENTER or target.zone != CENTER):
        return False
    tprops = stats[target.uid].props
    if "stealth" in tprops and "attentiveness" not in props:
        return False
    return "flight" not in tprops or "flight" in props or "jump" in props


def may_attack(
    state: State,
    stats: Mapping[int, Stats],
    attacker: Creature,
    target: Creature,
    guards: Mapping[int, frozenset[int]] | None = None,
) -> bool:
    """Section 9.1: a ready own creature that has not attacked, not Peaceful, within reach of
    ``target`` (both in Center, or Interception), Stealth needs Attentiveness, Flight and Threat."""
    if attacker.host != NO_HOST or attacker.owner != state.active or not may_act(state, attacker, ATTACKED):
        return False
    if "peacefulness" in stats[attacker.uid].props or not reaches(state, stats, attacker, target):
        return False
    return may_target(state, stats, attacker.owner, stats[attacker.uid].props, target, guards)
