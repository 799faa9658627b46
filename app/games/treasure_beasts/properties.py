"""Current strength and properties of every creature, and who may interact with whom
(``rules/treasure_beasts.md`` sections 8, 10 and 11).

:func:`derive` folds every static effect on the field (passive abilities, attach options, active
group abilities, the Pacifists' built-in Carrying Capacity) into one :class:`Stats` per creature.
It is remembered here by the field it depends on (see :func:`derive`); states and rules carry no
cache.

Decisions where the spec is silent:

* strength never goes below 0; a removed property beats a granted or printed one;
* the same group ability (same card id) counts once per owner however many copies are on the
  field; different cards' group abilities add up;
* an attached creature is neither attacked nor targeted, never counts for Threat, takes no
  treasure and does not attack; its passive and activated abilities still work.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter

from .data import CENTER, CardBook, Effect, Stats
from .state import ATTACKED, NO_HOST, Creature, State


class FieldStats(dict[int, Stats]):
    """What :func:`derive` gives: :class:`Stats` by uid, and ``threat``, the uids whose current
    properties include Threat (ready or not), so that :func:`guard_map` skips fields without any."""

    __slots__ = ("threat",)

    def __init__(self, stats: dict[int, Stats]) -> None:
        super().__init__(stats)
        self.threat = frozenset(uid for uid, s in stats.items() if "threat" in s.props)


def derive(book: CardBook, state: State) -> FieldStats:
    """Every creature's :class:`Stats`, by uid (sections 10, 11.1 passive, 11.2, 5.2; AMBIGUITY 13).

    The values depend only on which cards are on the field, whose they are and what is attached to
    what, never on zones, readiness or treasure, so they are remembered by that key (:data:`_MEMO`,
    at most :data:`_MEMO_SIZE` fields), and for the last state object asked about (:data:`_LAST`):
    a turn of moves, takes and attacks that destroy nothing derives its field once. Callers must
    not change the returned dict.
    """
    last = _LAST
    if last is not None and last[0] is state and last[1] is book:  # asked again about one state
        return last[2]
    key = (book, tuple(map(_FIELD_KEY, state.creatures)))
    found = _MEMO.get(key)
    if found is None:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        found = _MEMO[key] = FieldStats(_derive(book, state))
    globals()["_LAST"] = (state, book, found)
    return found


_MEMO_SIZE = 512
#: what of a creature the values depend on: (uid, card, owner, host)
_FIELD_KEY = attrgetter("uid", "card", "owner", "host")
#: (state, book, stats) of the last call: the legal list, the legality check and the resolution of
#: one step ask about the same state object
_LAST: tuple[State, CardBook, FieldStats] | None = None
#: (book, ((uid, card, owner, host), ...) of the field) -> stats: a pure function's memo, cleared when full
_MEMO: dict[tuple[CardBook, tuple[tuple[int, str, int, int], ...]], FieldStats] = {}


def _derive(book: CardBook, state: State) -> dict[int, Stats]:
    """:func:`derive` without the memo."""
    creatures = state.creatures
    base = book.base_stats
    out = {c.uid: base[c.card] for c in creatures}
    has_static = book.has_static
    sources = [c for c in creatures if c.card in has_static]
    if not sources:
        return out
    cards = book.cards
    group_of = book.group_of
    #: per target uid: strength added, properties granted, properties removed, extra moves, take bonus
    added: dict[int, int] = {}
    granted: dict[int, set[str]] = {}
    removed: dict[int, set[str]] = {}
    moves: dict[int, int] = {}
    bonus: dict[int, int] = {}
    #: the field by owner and by (owner, group), in creature order (for "own", "enemy", "group")
    by_owner: dict[int, list[int]] = {}
    by_group: dict[tuple[int, str], list[int]] = {}
    for c in creatures:
        by_owner.setdefault(c.owner, []).append(c.uid)
        by_group.setdefault((c.owner, group_of[c.card]), []).append(c.uid)
    applied: set[tuple[int, str]] = set()

    def targets(source: Creature, target: str, group: str, everyone: bool) -> list[int]:
        if target == "self":
            return [source.uid]
        if target == "host":
            return [source.host] if source.host != NO_HOST else []
        owner = source.owner
        if target == "own":
            return by_owner[owner]
        if target == "enemy":
            return [c.uid for c in creatures if c.owner != owner]
        # group: the owner's creatures of the source's group (or every player's, scope "all")
        if everyone:
            return [c.uid for c in creatures if group_of[c.card] == group]
        return by_group.get((owner, group), [])

    def apply(uids: list[int], e: Effect) -> None:
        do = e.do
        if do == "strength":
            for uid in uids:
                added[uid] = added.get(uid, 0) + e.amount
        elif do == "grant":
            for uid in uids:
                granted.setdefault(uid, set()).add(e.property)  # type: ignore[arg-type]
        elif do == "remove":
            for uid in uids:
                removed.setdefault(uid, set()).add(e.property)  # type: ignore[arg-type]
        elif do == "extra_move":
            for uid in uids:
                moves[uid] = moves.get(uid, 0) + e.amount
        else:  # take_bonus
            for uid in uids:
                bonus[uid] = bonus.get(uid, 0) + e.amount

    passive = book.passive
    for c in sources:
        card = cards[c.card]
        for e in passive[c.card]:
            apply(targets(c, e.target or "self", card.group, False), e)
        if c.host != NO_HOST and card.attach_option is not None:
            for e in card.attach_option.effects:
                apply([c.host], e)
        ga = card.group_ability
        if (
            ga is not None
            and len(by_group.get((c.owner, card.group), ())) >= ga.required_count
            and (c.owner, c.card) not in applied
        ):
            applied.add((c.owner, c.card))
            for e in ga.effects:
                apply(targets(c, e.target or "group", card.group, ga.scope == "all"), e)

    for uid in added.keys() | granted.keys() | removed.keys() | moves.keys() | bonus.keys():
        b = out.get(uid)
        if b is None:
            continue
        props = b.props
        if uid in granted:
            props = props | granted[uid]
        if uid in removed:
            props = props - removed[uid]
        out[uid] = Stats(max(0, b.strength + added.get(uid, 0)), props, 1 + moves.get(uid, 0), bonus.get(uid, 0))
    return out


# ------------------------------------------------------------------------------- interactions


def guard_map(state: State, stats: Mapping[int, Stats]) -> dict[int, frozenset[int]]:
    """Per seat, its ready Threat creatures on the field that are not attached (section 10, Threat);
    seats without any are absent."""
    threat = getattr(stats, "threat", None)  # known for what derive gives
    if threat is not None and not threat:
        return {}
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
