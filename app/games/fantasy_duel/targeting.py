"""Attacks on the table: which units a seat may target and the matchup of two cards
(``rules/fantasy_duel.md`` 4.1-4.4), read from the state with the rules of :mod:`.abilities` and
:mod:`.combat`."""

from __future__ import annotations

from collections.abc import Sequence

from .abilities import allowed_targets, support_dice
from .combat import Matchup, matchup
from .data import CARD_UNITS
from .deck import seat_has_tactics
from .state import FantasyState, owner_of


def targets(state: FantasyState, seat: int, attacker: int) -> Sequence[int]:
    """The cards ``seat``'s unit ``attacker`` may attack now, in seat order (spec 4.1: units of
    other teams only; Taunt, global (AMBIGUITY 8), unless ``seat`` has Tactics)."""
    teams = state.config.teams
    mine = teams[seat]
    poisoned = state.poisoned
    enemies = [c for s, army in enumerate(state.armies) if teams[s] != mine for c in army]
    taunting = [c for c in enemies if _TAUNT[c] and c not in poisoned]
    ignore = state.config.poison_attacker_ignores_taunt_and_fire and CARD_UNITS[attacker].poison
    return allowed_targets(enemies, taunting, seat_has_tactics(state, seat), ignore)


#: card -> its unit has Taunt
_TAUNT: tuple[bool, ...] = tuple(u.taunt for u in CARD_UNITS)


def attack_matchup(state: FantasyState, attacker: int, target: int, target_seat: int = -1) -> Matchup:
    """The :class:`~.combat.Matchup` of card ``attacker`` (of the active seat) against card
    ``target`` (of ``target_seat``, found when -1); their armies give Ally support, Tracking and
    Healer."""
    own = state.armies[state.active]
    theirs = state.armies[target_seat if target_seat >= 0 else owner_of(state, target)]
    return matchup(
        CARD_UNITS[attacker],
        [CARD_UNITS[c] for c in own],
        CARD_UNITS[target],
        [CARD_UNITS[c] for c in theirs],
        target in state.poisoned,
        state.config.poison_attacker_ignores_taunt_and_fire,
    )


def attack_dice(state: FantasyState, attacker: int) -> int:
    """The dice card ``attacker`` (of the active seat) rolls: its own plus Ally support from its
    army (spec 4.2)."""
    unit = CARD_UNITS[attacker]
    if not unit.support_per_ally:
        return unit.dice
    return unit.dice + support_dice(unit, [CARD_UNITS[c] for c in state.armies[state.active]])
