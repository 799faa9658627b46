"""Attacks, built step by step (``rules/treasure_beasts.md`` section 9; AMBIGUITY 7).

1. ``Target(t)``: the active seat declares an enemy creature that at least one of its creatures may
   attack (phase ``attack``). A declaration cannot be taken back (our decision, as at a table).
2. ``Join(a)``: add a creature that may attack ``t``; ``Strike`` once at least one has joined.
3. The strike: S = the attackers' summed current strength, D = the target's. The target is
   destroyed when S >= D. The target's owner then picks attackers to destroy, one ``Lose`` at a
   time, each fitting what is left of the budget D; the picks stop when no attacker fits, so the
   chosen set is always maximal. Picks that are forced (every fitting attacker fits together) are
   made by the engine, so the defender is asked only when there is a real choice.
4. Survivors are tired; everything destroyed leaves together and the on-leave abilities resolve,
   the active seat's first (:func:`~.zones.leave`).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.errors import IllegalAction
from ..core.rules import Event
from ..core.state import evolve
from .abilities import resolve
from .actions import Join, Lose, Strike, Target, TBAction
from .data import CENTER, CardBook, Stats
from .properties import attackers, derive, guard_map, guards_against, may_attack
from .state import ATTACK, ATTACKED, LOSSES, MAIN, NO_HOST, Attack, State
from .zones import leave


def legal_targets(
    state: State, stats: Mapping[int, Stats], guards: Mapping[int, frozenset[int]] | None = None
) -> list[Target]:
    """Enemy creatures at least one of the active seat's creatures may attack.

    :param guards: :func:`~.properties.guard_map` of this state, when the caller has it already.
    """
    seat = state.active
    mine = attackers(state, stats)
    if not mine:
        return []
    if guards is None:
        guards = guard_map(state, stats)
    per_owner = {owner: guards_against(state, guards, seat, owner) for owner in range(state.num_players)}
    # what reaches a target depends only on these four facts of an attacker (properties.reaches),
    # so each distinct combination is tried once per target, not each attacker
    kinds = {
        (
            "interception" in (p := stats[a.uid].props),
            a.zone == CENTER,
            "attentiveness" in p,
            "flight" in p or "jump" in p,
        )
        for a in mine
    }
    out = []
    for t in state.creatures:
        if t.owner == seat or t.host != NO_HOST:
            continue
        g = per_owner[t.owner]
        if g and t.uid not in g:
            continue
        tprops = stats[t.uid].props
        centre, stealth, flying = t.zone == CENTER, "stealth" in tprops, "flight" in tprops
        for intercepts, in_centre, attentive, flies in kinds:
            if (intercepts or (in_centre and centre)) and (attentive or not stealth) and (flies or not flying):
                out.append(Target(t.uid))
                break
    return out


def legal_attack(book: CardBook, state: State) -> list[TBAction]:
    """Phase ``attack``: ``Join`` for each creature that may still join, ``Strike`` once one has."""
    a = state.attack
    assert a is not None
    stats = derive(book, state)
    target = state.creature(a.target)
    out: list[TBAction] = []
    if target is not None:
        guards = guard_map(state, stats)
        out.extend(
            Join(c.uid)
            for c in attackers(state, stats)
            if c.uid not in a.attackers and may_attack(state, stats, c, target, guards)
        )
    if a.attackers:
        out.append(Strike())
    return out


def loss_choices(state: State) -> list[int]:
    """Attackers the defender may still pick (phase ``losses``): not picked yet and fitting the budget."""
    a = state.attack
    assert a is not None
    return [u for u, s in zip(a.attackers, a.strengths, strict=True) if u not in a.lost and s <= a.budget]


def defender(state: State) -> int:
    """The seat that picks losses: the target's owner."""
    a = state.attack
    assert a is not None
    target = state.creature(a.target)
    assert target is not None
    return target.owner


def declare(book: CardBook, state: State, action: Target, events: list[Event]) -> State:
    """Step 1: declare the target."""
    events.append(Event("attack_declared", {"seat": state.active, "target": action.creature}))
    return evolve(state, phase=ATTACK, attack=Attack(action.creature))


def join(book: CardBook, state: State, action: Join, events: list[Event]) -> State:
    """Step 2: one more attacker."""
    a = state.attack
    assert a is not None
    events.append(Event("attacker_joined", {"uid": action.creature, "target": a.target}))
    return evolve(state, attack=evolve(a, attackers=(*a.attackers, action.creature)))


def strike(book: CardBook, state: State, action: Strike, events: list[Event]) -> State:
    """Step 3: compare strengths, then the losses (asked or forced)."""
    a = state.attack
    assert a is not None
    stats = derive(book, state)
    strengths = tuple(stats[u].strength for u in a.attackers)
    defence = stats[a.target].strength
    a = evolve(a, strengths=strengths, defence=defence, budget=defence, destroyed=sum(strengths) >= defence)
    events.append(
        Event(
            "strike",
            {
                "target": a.target,
                "attackers": list(a.attackers),
                "strength": sum(strengths),
                "defence": defence,
                "target_destroyed": a.destroyed,
            },
        )
    )
    return _losses(book, evolve(state, attack=a), events)


def lose(book: CardBook, state: State, action: Lose, events: list[Event]) -> State:
    """The defender's pick of one attacker to destroy."""
    a = state.attack
    assert a is not None
    if action.creature not in loss_choices(state):
        raise IllegalAction(f"attacker {action.creature} cannot be picked")
    strength = a.strengths[a.attackers.index(action.creature)]
    a = evolve(a, lost=(*a.lost, action.creature), budget=a.budget - strength)
    return _losses(book, evolve(state, attack=a), events)


def _losses(book: CardBook, state: State, events: list[Event]) -> State:
    a = state.attack
    assert a is not None
    fitting = loss_choices(state)
    if fitting and sum(a.strengths[a.attackers.index(u)] for u in fitting) > a.budget:
        return evolve(state, phase=LOSSES)
    return _finish(book, evolve(state, attack=evolve(a, lost=(*a.lost, *fitting))), events)


def _finish(book: CardBook, state: State, events: list[Event]) -> State:
    a = state.attack
    assert a is not None
    tired = {u for u in a.attackers if u not in a.lost}
    state = evolve(
        state,
        creatures=tuple(
            evolve(c, ready=False, used=c.used | ATTACKED) if c.uid in tired else c for c in state.creatures
        ),
        phase=MAIN,
        attack=None,
    )
    dead = ([a.target] if a.destroyed else []) + list(a.lost)
    events.append(
        Event(
            "attack_resolved",
            {
                "target": a.target,
                "target_destroyed": a.destroyed,
                "attackers_lost": list(a.lost),
                "attackers_tired": sorted(tired),
            },
        )
    )
    state, queue = leave(book, state, dead, frozenset(), "attack", events)
    return resolve(book, state, queue, events)
