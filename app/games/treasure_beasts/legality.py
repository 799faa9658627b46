"""Whether one action is legal, checked directly (``TreasureBeasts.is_legal``), without listing
every legal action: the same predicates as the lists in :mod:`.play`, :mod:`.attacks` and
:mod:`.draft`, applied to the one creature, card or host the action names. A test checks that this
agrees with membership in ``legal_actions`` on many random positions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .actions import (
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
    Steal,
    Strike,
    Take,
    Target,
    TBAction,
)
from .attacks import loss_choices
from .data import CardBook, Stats
from .properties import attackers, derive, guard_map, guards_against, may_act, may_attack, reaches
from .state import ACTIVATED, ATTACK, DISCARD, DRAFT, LOSSES, MAIN, NO_HOST, Creature, State
from .zones import attach_hosts, move_targets

Check = Callable[[CardBook, State, int, TBAction, Mapping[int, Stats] | None], bool]


def _stats(book: CardBook, state: State, stats: Mapping[int, Stats] | None) -> Mapping[int, Stats]:
    return derive(book, state) if stats is None else stats


def _own(state: State, seat: int, uid: int) -> Creature | None:
    c = state.creature(uid)
    return c if c is not None and c.owner == seat else None


def _deploy(book: CardBook, state: State, seat: int, a: TBAction, stats: Mapping[int, Stats] | None) -> bool:
    assert isinstance(a, Deploy)
    return state.ap >= 1 and a.card in state.players[seat].hand


def _attach(book: CardBook, state: State, seat: int, a: TBAction, stats: Mapping[int, Stats] | None) -> bool:
    assert isinstance(a, Attach)
    if state.ap < 1 or a.card not in state.players[seat].hand:
        return False
    props = frozenset(book.cards[a.card].properties)
    return a.host in attach_hosts(book, state, _stats(book, state, stats), seat, a.card, props)


def _alt(book: CardBook, state: State, seat: int, a: TBAction, stats: Mapping[int, Stats] | None) -> bool:
    assert isinstance(a, AltUse)
    player = state.players[seat]
    if a.card not in player.hand:
        return False
    alt = book.cards[a.card].alternative_use
    return alt is not None and state.ap >= 1 + alt.extra_cost.ap and player.treasury >= alt.extra_cost.treasure


def _move(book: CardBook, state: State, seat: int, a: TBAction, stats: Mapping[int, Stats] | None) -> bool:
    assert isinstance(a, Move)
    c = _own(state, seat, a.creature)
    if c is None or abs(a.zone - c.zone) != 1:
        return False
    if c.moves == 0:  # one move is always allowed: no need for the creature's current values
        return bool(move_targets(c, book.base_stats[c.card]))
    return a.zone in move_targets(c, _stats(book, state, stats)[c.uid])


def _reattach(book: CardBook, state: State, seat: int, a: TBAction, stats: Mapping[int, Stats] | None) -> bool:
    assert isinstance(a, Reattach)
    c = _own(state, seat, a.creature)
    if c is None or c.host == NO_HOST or c.fresh or c.reattached or a.host == c.host:
        return False
    stats = _stats(book, state, stats)
    return a.host in attach_hosts(book, state, stats, seat, c.card, stats[c.uid].props, exclude=c.uid)


def _take(book: CardBook, state: State, seat: int, a: TBAction, stats: Mapping[int, Stats] | None) -> bool:
    from .play import may_take

    assert isinstance(a, Take)
    c = _own(state, seat, a.creature)
    return c is not None and may_take(state, _stats(book, state, stats), c)


def _steal(book: CardBook, state: State, seat: int, a: TBAction, stats: Mapping[int, Stats] | None) -> bool:
    from .play import theft_victims

    assert isinstance(a, Steal)
    c = _own(state, seat, a.creature)
    return c is not None and a.victim in theft_victims(state, _stats(book, state, stats), c)


def _activate(book: CardBook, state: State, seat: int, a: TBAction, stats: Mapping[int, Stats] | None) -> bool:
    assert isinstance(a, Activate)
    c = _own(state, seat, a.creature)
    return c is not None and c.card in book.activated and may_act(state, c, ACTIVATED)


def _target(book: CardBook, state: State, seat: int, a: TBAction, stats: Mapping[int, Stats] | None) -> bool:
    assert isinstance(a, Target)
    t = state.creature(a.creature)
    if t is None or t.owner == seat or t.host != NO_HOST:
        return False
    stats = _stats(book, state, stats)
    g = guards_against(state, guard_map(state, stats), seat, t.owner)
    if g and t.uid not in g:
        return False
    return any(reaches(state, stats, c, t) for c in attackers(state, stats))


def _join(book: CardBook, state: State, seat: int, a: TBAction, stats: Mapping[int, Stats] | None) -> bool:
    assert isinstance(a, Join)
    attack = state.attack
    c = _own(state, seat, a.creature)
    if attack is None or c is None or c.uid in attack.attackers:
        return False
    t = state.creature(attack.target)
    return t is not None and may_attack(state, _stats(book, state, stats), c, t)


_MAIN: dict[type[TBAction], Check] = {
    Deploy: _deploy,
    Attach: _attach,
    AltUse: _alt,
    Move: _move,
    Reattach: _reattach,
    Take: _take,
    Steal: _steal,
    Activate: _activate,
    Target: _target,
    Pass: lambda book, state, seat, a, stats: True,
}


def is_legal(
    book: CardBook, state: State, seat: int, action: TBAction, stats: Mapping[int, Stats] | None = None
) -> bool:
    """Whether ``seat`` (already known to be to act) may play ``action`` now.

    :param stats: :func:`~.properties.derive` of ``state``, when the caller has it already.
    """
    phase = state.phase
    if phase == MAIN:
        check = _MAIN.get(type(action))
        return check is not None and check(book, state, seat, action, stats)
    if phase == ATTACK:
        if isinstance(action, Strike):
            return state.attack is not None and bool(state.attack.attackers)
        return isinstance(action, Join) and _join(book, state, seat, action, stats)
    if phase == LOSSES:
        return isinstance(action, Lose) and action.creature in loss_choices(state)
    if phase == DISCARD:
        return isinstance(action, Discard) and action.card in state.players[seat].hand
    if phase == DRAFT:
        return isinstance(action, Pick) and action.card in state.players[seat].pack
    return False
