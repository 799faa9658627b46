"""Scratch Wars events: every kind with its ``data`` keys, and how a step records one.

All Scratch Wars events are public (a loadout or start weapon chosen in a simultaneous phase is
held by the driver, never in an event, until both seats chose). Each event carries codes and
numbers only (effect ids, field colours, slots), never prose.
"""

from __future__ import annotations

from ..core.rules import JSON, Event

#: Where a step appends its events; ``None`` when nobody needs them (the bots' look-ahead), so
#: callers test ``ev is not None`` before building a payload.
Events = list[Event] | None


def emit(ev: list[Event], kind: str, **data: JSON) -> None:
    """Append a public event ``kind`` with ``data`` (the keys listed in :data:`EVENT_KINDS`)."""
    ev.append(Event(kind, data))


#: Event kinds and their ``data`` keys (all public).
EVENT_KINDS: dict[str, list[str]] = {
    "loadouts_revealed": ["heroes", "weapons", "random"],
    "start_weapons": ["slots", "weapons"],
    "start_spin": ["segments", "values", "winner"],
    "starter_chosen": ["chooser", "starter", "lives"],
    "round_started": ["round", "day", "time_of_day", "time_of_day_name"],
    "day3_penalty": ["lives", "amount"],
    "turn_started": ["seat", "round", "energy", "energy_gained", "repaired"],
    "spin_started": ["seat", "slot", "weapon", "cost", "actions", "energy"],
    "spin_result": ["seat", "slot", "weapon", "segment", "effect", "value", "field", "resolves_as"],
    "effect_skipped": ["seat", "slot", "field"],
    "effect_used": ["seat", "slot", "effect", "printed", "base", "bonus", "bonus_value", "value"],
    "energy_gained": ["seat", "amount", "energy"],
    "healed": ["seat", "amount", "lives"],
    "effect_deferred": ["seat", "slot", "weapon", "effect", "value"],
    "attack_declared": ["seat", "source", "effect", "value", "target"],
    "shield_spent": ["seat", "slot", "weapon", "shield", "value"],
    "attack_resolved": ["seat", "source", "target", "value", "lives | broken | cancelled"],
    "effect_cancelled": ["seat", "slot", "weapon", "effect", "value", "by"],
    "repair_started": ["seat", "slot", "weapon", "cost", "actions", "energy"],
    "main_phase_ended": ["seat", "reason", "actions_lost"],
    "combo_detonated": ["seat", "slots", "weapons", "values", "bonus", "bonus_value", "value"],
    "combos_kept": ["seat", "slots"],
    "game_over": ["results", "scores", "reason", "ranks"],
}
