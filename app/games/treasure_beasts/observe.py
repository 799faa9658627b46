"""What a viewer may see (``rules/treasure_beasts.md`` AMBIGUITY 21), and the secrets it may not.

A seat sees its own hand and, during the draft, its own pack; everybody sees hand and pack sizes,
the deck and discard sizes, the discard pile, the whole field and every treasury. Observation::

    {"phase", "turn", "round", "active", "ap", "to_act": [seats], "center": int | null,
     "deck_size", "discard": [card ids], "draft_round",
     "players": [{"seat", "treasury", "hand_size", "pack_size", "eliminated"}],
     "creatures": [{"uid", "card", "owner", "zone", "ready", "fresh", "moves", "used": [kinds],
                    "host": uid | null, "reattached", "strength", "properties": [ids]}],
     "attack": null | {"target", "attackers", "strengths", "defence", "budget", "lost", "destroyed"},
     "seat": viewer | null, "config": {the match options; center_treasure null = unlimited},
     "hand": {"seat": viewer, "cards": [ids]}   (own seat only),
     "pack": {"seat": viewer, "pack": [ids]}    (own seat only, during the draft),
     "outcome": null | Outcome JSON}

:func:`secrets` names, for a viewer, the JSON fragments of the others' hands and packs (the exact
objects above) and the deck order (``{"deck": [ids]}``; observations carry only its size).
"""

from __future__ import annotations

import json
from typing import Any

from .data import ZONES, CardBook
from .properties import derive
from .state import NO_HOST, UNLIMITED, USED_NAMES, State

JSON = Any


def observe(book: CardBook, state: State, viewer: int | None, to_act: list[int]) -> dict[str, JSON]:
    """The observation above for ``viewer`` (a seat, or ``None`` for a spectator)."""
    stats = derive(book, state)
    n = state.num_players
    a = state.attack
    cfg = state.config
    view: dict[str, JSON] = {
        "phase": state.phase,
        "turn": state.turn,
        "round": (state.turn - 1) // n + 1 if state.turn else 0,
        "active": state.active,
        "ap": state.ap,
        "to_act": to_act,
        "center": None if state.center == UNLIMITED else state.center,
        "deck_size": len(state.deck),
        "discard": list(state.discard),
        "draft_round": state.draft_round,
        "players": [
            {
                "seat": s,
                "treasury": p.treasury,
                "hand_size": len(p.hand),
                "pack_size": len(p.pack),
                "eliminated": bool(p.eliminated),
            }
            for s, p in enumerate(state.players)
        ],
        "creatures": [
            {
                "uid": c.uid,
                "card": c.card,
                "owner": c.owner,
                "zone": ZONES[c.zone],
                "ready": c.ready,
                "fresh": c.fresh,
                "moves": c.moves,
                "used": [name for name, bit in USED_NAMES if c.used & bit],
                "host": None if c.host == NO_HOST else c.host,
                "reattached": c.reattached,
                "strength": stats[c.uid].strength,
                "properties": sorted(stats[c.uid].props),
            }
            for c in state.creatures
        ],
        "attack": None
        if a is None
        else {
            "target": a.target,
            "attackers": list(a.attackers),
            "strengths": list(a.strengths),
            "defence": a.defence,
            "budget": a.budget,
            "lost": list(a.lost),
            "destroyed": a.destroyed,
        },
        "seat": viewer,
        "config": {
            "center_treasure": None if cfg.center_treasure == UNLIMITED else cfg.center_treasure,
            "turn_ends_at_zero_ap": cfg.turn_ends_at_zero_ap,
            "creature_actions": "one_total" if cfg.one_total else "per_kind",
            "threat_scope": "global" if cfg.threat_global else "owner",
            "max_rounds": cfg.max_rounds,
        },
        "outcome": None if state.outcome is None else state.outcome.to_json(),
    }
    if viewer is not None:
        p = state.players[viewer]
        view["hand"] = {"seat": viewer, "cards": list(p.hand)}
        if p.pack:
            view["pack"] = {"seat": viewer, "pack": list(p.pack)}
    return view


def observe_finished(book: CardBook, state: State, viewer: int | None, to_act: list[int]) -> dict[str, JSON]:
    """:func:`observe` once the match has ended (any ending): everything revealed to everybody,
    for the finished page and every step of the replay. Adds ``"hands": [{"seat", "cards"}]`` and
    ``"packs": [{"seat", "pack"}]`` for every seat (the objects :func:`observe` gives their owner)
    and ``"deck": {"deck": [ids]}`` (the deck order, top first), so nothing :func:`secrets`
    names for any viewer is left out."""
    view = observe(book, state, viewer, to_act)
    view["hands"] = [{"seat": s, "cards": list(p.hand)} for s, p in enumerate(state.players)]
    view["packs"] = [{"seat": s, "pack": list(p.pack)} for s, p in enumerate(state.players)]
    view["deck"] = {"deck": list(state.deck)}
    return view


def secrets(state: State, viewer: int | None) -> list[str]:
    """JSON fragments ``viewer`` must never see: every other seat's hand and pack (as the objects
    :func:`observe` gives their owner) and the deck order."""
    out = []
    for seat, p in enumerate(state.players):
        if seat == viewer:
            continue
        if p.hand:
            out.append(json.dumps({"seat": seat, "cards": list(p.hand)}))
        if p.pack:
            out.append(json.dumps({"seat": seat, "pack": list(p.pack)}))
    if state.deck:
        out.append(json.dumps({"deck": list(state.deck)}))
    return out
