"""What a Scratch Wars seat or spectator sees, and the way back from a view to a state (the bots').

Nothing in a Scratch Wars *state* is secret: a loadout or start weapon chosen in a simultaneous
phase is held by the driver (its ``pending``) until both seats chose, never in the state, and
everything in the state (heroes, wheels, spins, deferred effects) is on the table. So every viewer
gets the same view (with its own ``seat``), :func:`secrets` names nothing, and
:func:`state_from_observation` rebuilds the state exactly while the game runs.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.rules import JSON, Outcome
from . import effects as fx
from .attack import target_json
from .data import EFFECTS, FIELDS, TIMES_OF_DAY, WEAPON_TYPES, CardBook
from .state import (
    GAME,
    NO_EFFECT,
    OVER,
    READY,
    SOURCE_NAMES,
    STATUS_NAMES,
    TARGET_INDEX,
    Attack,
    Config,
    Seat,
    Slot,
    Spin,
    State,
)


def observe(book: CardBook, st: State, viewer: int | None, to_act: frozenset[int]) -> dict[str, JSON]:
    """The view of ``viewer`` (a seat, or ``None``)::

        {"game", "seat", "options", "level", "phase", "to_act", "round", "day", "time_of_day",
         "time_of_day_name", "starter", "active", "actions", "ending", "heroes": [hero view | null] x2,
         "spin": pending spin | null, "attack": attack being resolved | null, "permanent_queue",
         "combo_selection", "start": start spin | null, "random_seats", "over", "outcome"}

    See :func:`hero_view` for a hero. ``day``/``time_of_day`` are null at level 1 and before round 1.
    """
    cycle = st.config.day_cycle and st.round > 0
    tod = fx.time_of_day(st) if cycle else None
    return {
        "game": GAME,
        "seat": viewer,
        "options": st.config.to_json(),
        "level": st.config.level,
        "phase": st.phase,
        "to_act": sorted(to_act),
        "round": st.round,
        "day": fx.day(st) if cycle else None,
        "time_of_day": tod,
        "time_of_day_name": None if tod is None else TIMES_OF_DAY[tod],
        "starter": st.starter,
        "active": st.active,
        "actions": st.actions,
        "ending": st.ending,
        "heroes": [hero_view(book, st, i) for i in (0, 1)],
        "spin": _spin_view(st),
        "attack": _attack_view(book, st),
        "permanent_queue": list(st.queue),
        "combo_selection": list(st.combos),
        "start": _start_view(book, st),
        "random_seats": list(st.random_seats),
        "over": st.phase == OVER,
        "outcome": None if st.outcome is None else st.outcome.to_json(),
    }


def _spin_view(st: State) -> dict[str, JSON] | None:
    """``{"seat", "slot", "weapon", "segment", "effect", "value", "field", "resolves_as"}``; the
    last five are null while the wheel turns."""
    spin = st.spin
    if spin is None:
        return None
    view: dict[str, JSON] = {
        "seat": st.active,
        "slot": spin.slot,
        "weapon": st.seat(st.active).slots[spin.slot].weapon,
        "segment": None,
        "effect": None,
        "value": None,
        "field": None,
        "resolves_as": None,
    }
    if spin.segment >= 0:
        view.update(
            segment=spin.segment,
            effect=EFFECTS[spin.effect],
            value=spin.value,
            field=FIELDS[spin.field],
            resolves_as=EFFECTS[fx.resolves_as(st, spin.effect)],
        )
    return view


def _attack_view(book: CardBook, st: State) -> dict[str, JSON] | None:
    """``{"seat", "source", "effect", "declared", "value", "target": target | null, "shields", "origin"}``."""
    attack = st.attack
    if attack is None:
        return None
    return {
        "seat": st.active,
        "source": SOURCE_NAMES[attack.source],
        "effect": EFFECTS[attack.effect],
        "declared": attack.declared,
        "value": attack.value,
        "target": None if attack.target < 0 else target_json(book, st, attack),
        "shields": list(attack.shields),
        "origin": attack.origin,
    }


def _start_view(book: CardBook, st: State) -> dict[str, JSON] | None:
    """``{"slots", "weapons", "segments" | null, "values" | null, "winner" | null}`` of the start spin."""
    if not st.start:
        return None
    w, segs = st.start[:2], st.start[2:]
    weapons = [st.seat(i).slots[w[i]].weapon for i in (0, 1)]
    values = winner = None
    if segs[0] >= 0:
        values = [book.weapon_rows[weapons[i]].wheel[segs[i]][1] for i in (0, 1)]
        winner = None if values[0] == values[1] else int(values[1] > values[0])
    return {
        "slots": list(w),
        "weapons": weapons,
        "segments": None if segs[0] < 0 else list(segs),
        "values": values,
        "winner": winner,
    }


def hero_view(book: CardBook, st: State, i: int) -> dict[str, JSON] | None:
    """A hero as everyone sees it (``None`` before its loadout is known)::

        {"seat", "hero", "name", "lives" (floored at 0), "max_lives", "energy", "weapon_types",
         "column": {"time_of_day", "energy", "bonuses": [{"index", "kind", "effect", "value",
                    "flag", "used"}]} | null,
         "weapons": [{"slot", "code", "name", "type", "cost", "spin_cost", "durability",
                      "state": "ready" | "broken" | "repairing" | "holding",
                      "effect": {"effect", "value"} | null}]}

    ``column`` is the current time of day's column (null at level 1 or before round 1);
    ``used`` marks bonuses used this turn (only the active hero uses bonuses).
    """
    seat = st.seats[i]
    if seat is None:
        return None
    hero = book.heroes[seat.hero]
    column = None
    if st.config.bonuses and st.round > 0:
        tod = fx.time_of_day(st)
        col = hero.times_of_day[tod]
        used = st.used if i == st.active else 0
        column = {
            "time_of_day": tod,
            "energy": col.energy,
            "bonuses": [
                {
                    "index": k,
                    "kind": b.kind,
                    "effect": b.effect,
                    "value": b.value,
                    "flag": b.flag,
                    "used": bool(used >> k & 1),
                }
                for k, b in enumerate(col.bonuses)
            ],
        }
    weapons = []
    for j, slot in enumerate(seat.slots):
        w = book.weapon_rows[slot.weapon]
        held = slot.held != NO_EFFECT
        weapons.append(
            {
                "slot": j,
                "code": slot.weapon,
                "name": w.name,
                "type": WEAPON_TYPES[w.type],
                "cost": w.cost,
                "spin_cost": book.spin_cost(seat.hero, slot.weapon),
                "durability": w.durability,
                "state": "holding" if held else STATUS_NAMES[slot.status],
                "effect": {"effect": EFFECTS[slot.held], "value": slot.value} if held else None,
            }
        )
    return {
        "seat": i,
        "hero": seat.hero,
        "name": hero.name,
        "lives": max(0, seat.lives),
        "max_lives": hero.lives_duel,
        "energy": seat.energy,
        "weapon_types": list(hero.weapon_types),
        "column": column,
        "weapons": weapons,
    }


def secrets(st: State, viewer: int | None) -> list[str]:
    """JSON fragments ``viewer`` must not see: none (module docstring). The hidden part of the
    game, a seat's loadout or start weapon before the other seat chose, never enters the state."""
    return []


def state_from_observation(obs: Mapping[str, JSON]) -> State:
    """Rebuild the state from an observation (bots search from their own view; nothing in the
    state is hidden, so this is exact while the game runs; once over, lives are floored at 0).

    :raises ValueError: an observation of another game or a malformed one.
    """
    if obs.get("game") != GAME:
        raise ValueError(f"{GAME}: not a {GAME} observation")
    try:
        seats: list[Seat | None] = [_seat(h) for h in obs["heroes"]]
        active = int(obs["active"])
        used = 0
        if active >= 0 and seats[active] is not None and obs["heroes"][active]["column"] is not None:
            for b in obs["heroes"][active]["column"]["bonuses"]:
                if b["used"]:
                    used |= 1 << b["index"]
        spin = None
        if obs["spin"] is not None:
            s = obs["spin"]
            spin = (
                Spin(int(s["slot"]))
                if s["segment"] is None
                else Spin(
                    int(s["slot"]),
                    int(s["segment"]),
                    EFFECTS.index(s["effect"]),
                    int(s["value"]),
                    FIELDS.index(s["field"]),
                )
            )
        attack = None
        if obs["attack"] is not None:
            a = obs["attack"]
            target = a["target"]
            attack = Attack(
                SOURCE_NAMES.index(a["source"]),
                EFFECTS.index(a["effect"]),
                int(a["value"]),
                int(a["declared"]),
                -1 if target is None else TARGET_INDEX[target["kind"]],
                -1 if target is None or target["kind"] == "hero" else int(target["slot"]),
                tuple(a["shields"]),
                int(a["origin"]),
            )
        start: tuple[int, ...] = ()
        if obs["start"] is not None:
            segs = obs["start"]["segments"] or [-1, -1]
            start = (*obs["start"]["slots"], *segs)
        outcome = None if obs["outcome"] is None else Outcome.from_json(obs["outcome"])
        return State(
            Config.of(**obs["options"]),
            obs["phase"],
            (seats[0], seats[1]),
            int(obs["starter"]),
            active,
            int(obs["round"]),
            int(obs["actions"]),
            used,
            bool(obs["ending"]),
            spin,
            attack,
            tuple(obs["permanent_queue"]),
            tuple(obs["combo_selection"]),
            start,
            tuple(obs["random_seats"]),
            outcome,
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ValueError(f"{GAME}: malformed observation ({exc!r})") from None


def _seat(h: JSON) -> Seat | None:
    if h is None:
        return None
    slots = []
    for w in h["weapons"]:
        eff = w["effect"]
        status = READY if w["state"] == "holding" else STATUS_NAMES.index(w["state"])
        slots.append(
            Slot(
                w["code"],
                status,
                NO_EFFECT if eff is None else EFFECTS.index(eff["effect"]),
                0 if eff is None else int(eff["value"]),
            )
        )
    return Seat(h["hero"], int(h["lives"]), int(h["energy"]), tuple(slots))
