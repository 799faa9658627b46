"""What a viewer sees of a Fantasy súboj table (``rules/fantasy_duel.md`` sections 1, 4, 7).

Everything on the table is public: every army face up (with its poisoned units), every prison,
the dice of every attack. The only secret is the deck order; the view gives its size only. So the
view is the same for every seat and for spectators, but for ``"seat"`` and, in phase ``target``,
the odds the attacking seat is shown before it chooses.

Shape::

    {"seat": viewer or null, "phase", "to_act": [seats, -1 = chance], "active", "first", "round",
     "num_players", "teams": [team per seat], "deck_count",
     "armies": [[{"card", "unit", "poisoned"}]], "prisons": [[unit id, oldest first]],
     "scores": [per seat], "team_scores": [per team], "tactics": [bool per seat],
     "rolling": [seats in the start roll],
     "attack": null | {"seat", "attacker", "unit", "target", "target_unit", "target_seat", "dice"},
     "odds": null | [{"target", "target_seat", "dice", "win", "big_win", "lose", "big_loss", "hide",
                      "tie", "poison"}],     # phase "target", in the attacking seat's own view only:
                                             # the exact odds of every allowed target
     "spoils": null | {"winner", "loser", "card", "unit", "margin"},
     "last_attack": null | {...LastAttack},
     "quiet_rounds", "options", "over", "outcome"}
"""

from __future__ import annotations

from typing import Any

from ..core.rules import CHANCE
from .combat import matchup, odds
from .data import CARD_UNITS, UnitDef
from .deck import seat_has_tactics
from .scoring import seat_scores, team_scores
from .state import ACTIVE_PHASES, CHANCE_PHASES, OVER, TARGET, FantasyState, owner_of
from .targeting import attack_matchup, targets

JSON = Any


def _to_act(state: FantasyState) -> list[int]:
    if state.phase in CHANCE_PHASES:
        return [CHANCE]
    if state.phase == OVER:
        return []
    return [state.active if state.phase in ACTIVE_PHASES else state.actor]


def _attack(state: FantasyState) -> dict[str, JSON] | None:
    if state.attacker < 0:
        return None
    out: dict[str, JSON] = {
        "seat": state.active,
        "attacker": state.attacker,
        "unit": CARD_UNITS[state.attacker].id,
        "target": None,
        "target_unit": None,
        "target_seat": None,
        "dice": None,
    }
    if state.target >= 0:
        out.update(
            target=state.target,
            target_unit=CARD_UNITS[state.target].id,
            target_seat=owner_of(state, state.target),
            dice=attack_matchup(state, state.attacker, state.target).dice,
        )
    return out


def attack_odds(state: FantasyState) -> list[dict[str, JSON]]:
    """In phase ``target``: the exact odds (:func:`.combat.odds`) of the chosen attacker against
    every allowed target, in seat order."""
    attacker = CARD_UNITS[state.attacker]
    own = [CARD_UNITS[c] for c in state.armies[state.active]]
    ignore_fire = state.config.poison_attacker_ignores_taunt_and_fire
    armies: dict[int, list[UnitDef]] = {}
    out = []
    for card in targets(state, state.active, state.attacker):
        seat = owner_of(state, card)
        if seat not in armies:
            armies[seat] = [CARD_UNITS[c] for c in state.armies[seat]]
        m = matchup(attacker, own, CARD_UNITS[card], armies[seat], card in state.poisoned, ignore_fire)
        out.append({"target": card, "target_seat": seat, "dice": m.dice, **odds(m).to_json()})
    return out


def observe(state: FantasyState, viewer: int | None, with_odds: bool = True) -> dict[str, JSON]:
    """The view of ``viewer`` (a seat, or ``None`` for a spectator); see the module docstring.

    :param with_odds: give the attacking seat the odds of its targets (bots compute their own).
    """
    poisoned = state.poisoned
    spoils = state.spoils
    by_team = team_scores(state)
    return {
        "seat": viewer,
        "phase": state.phase,
        "to_act": _to_act(state),
        "active": state.active,
        "first": state.round.first,
        "round": state.round.number,
        "num_players": state.num_players,
        "teams": list(state.config.teams),
        "deck_count": len(state.deck),
        "armies": [
            [{"card": c, "unit": CARD_UNITS[c].id, "poisoned": c in poisoned} for c in army] for army in state.armies
        ],
        "prisons": [[CARD_UNITS[c].id for c in prison] for prison in state.prisons],
        "scores": list(seat_scores(state)),
        "team_scores": [by_team[t] for t in sorted(by_team)],
        "tactics": [seat_has_tactics(state, s) for s in range(state.num_players)],
        "rolling": list(state.round.rolling),
        "attack": _attack(state),
        "odds": attack_odds(state) if with_odds and state.phase == TARGET and viewer == state.active else None,
        "spoils": None
        if spoils is None
        else {
            "winner": spoils.winner,
            "loser": spoils.loser,
            "card": spoils.card,
            "unit": CARD_UNITS[spoils.card].id,
            "margin": spoils.margin,
        },
        "last_attack": None if state.last is None else state.last.to_json(),
        "quiet_rounds": state.round.quiet_rounds,
        "options": state.config.to_json(),
        "over": state.phase == OVER,
        "outcome": None if state.outcome is None else state.outcome.to_json(),
    }
