"""The army-wide special abilities (``rules/fantasy_duel.md`` section 5) and targeting (4.1).

These functions take plain unit records (:class:`~.data.UnitDef`), so the engine (from its
state) and the bots (from their observation) apply the same rules:

* :func:`has_tactics`, :func:`has_tracking`, :func:`has_healer`: an army holds such a unit
  (5.8, 5.4, 5.6);
* :func:`support_dice`: Ally support's extra dice (5.9, AMBIGUITY 18: *other* units only);
* :func:`allowed_targets`: Taunt and Tactics (4.1, 5.7, AMBIGUITY 8: global Taunt).

The per-attack abilities (bonuses, defensive fire, hiding, poison, Doom) are in :mod:`.combat`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .data import UnitDef


def has_tactics(army: Iterable[UnitDef]) -> bool:
    """Whether ``army`` holds a Tactics unit (spec 5.8)."""
    return any(u.tactics for u in army)


def has_tracking(army: Iterable[UnitDef]) -> bool:
    """Whether ``army`` holds a Tracking unit: its targets cannot hide (spec 5.4)."""
    return any(u.tracking for u in army)


def has_healer(army: Iterable[UnitDef]) -> bool:
    """Whether ``army`` holds a Healer: none of its units can be poisoned (spec 5.6)."""
    return any(u.healer for u in army)


def support_dice(attacker: UnitDef, army: Sequence[UnitDef]) -> int:
    """Extra dice from Ally support (spec 5.9): ``support_per_ally`` per *other* unit of
    ``attacker``'s exact faction in its army, at most ``support_max``; 0 without the ability.

    :param army: the attacker's whole army, the attacker included (it is not counted).
    """
    if not attacker.support_per_ally:
        return 0
    allies = sum(1 for u in army if u.faction == attacker.faction) - 1
    return min(attacker.support_per_ally * max(allies, 0), attacker.support_max)


def allowed_targets(
    enemies: Sequence[int],
    taunting: Sequence[int],
    tactics: bool,
    ignore_taunt: bool = False,
) -> Sequence[int]:
    """The cards an attack may target (spec 4.1).

    :param enemies: every card of every enemy seat on the table, in seat order.
    :param taunting: those of ``enemies`` that are active (unpoisoned) Taunt units (spec 5.7).
    :param tactics: the attacking army holds a Tactics unit (it ignores Taunt, spec 5.8 a).
    :param ignore_taunt: the attacker ignores Taunt anyway (the ``poison_attacker_ignores_taunt_and_fire``
        reading of AMBIGUITY 4, for a poison attacker).
    :returns: ``enemies``, or, while any enemy has an active Taunt unit and neither exemption
        applies, only ``taunting`` (global reading, AMBIGUITY 8).
    """
    if taunting and not tactics and not ignore_taunt:
        return taunting
    return enemies
