"""Turns and rounds (``rules/fantasy_duel.md`` sections 3, 6 and 7): from the end of one decision
to the next state where somebody must decide.

A turn of the active seat: a Tactics player's deferred draws (``muster``), the mandatory attack
(``attacker``, ``target``, ``roll``), its aftermath (the recruit choice, replacement draws), poison
expiry, then the next seat in seat order. A seat with no units, or with no legal attack (every
unit poisoned), has its turn pass without an attack (3.2, golden case 20). When every seat has had
its turn the round ends: the stalemate guard counts it, then the top-up gives one card per pass to
every army under 3, starting with the first player (6, AMBIGUITY 18); a Tactics player is asked
whether to take its card (``topup``) and may decline the rest of this top-up.

Events: ``turn_started`` ``{"seat", "round"}``, ``turn_skipped`` ``{"seat", "reason": "no_units" |
"no_attack"}``, ``recovered`` ``{"seat", "cards"}`` (poison expiry, 5.5), ``round_ended``
``{"round", "quiet_rounds"}``, ``game_over`` (the outcome, with ``team_scores``).
"""

from __future__ import annotations

from ..core.rules import Event
from ..core.state import evolve
from .deck import draw, refill, seat_has_tactics
from .scoring import LAST_ARMY, STALEMATE, final_outcome, is_finished, team_scores
from .state import ARMY_SIZE, ATTACKER, MUSTER, OVER, REPLACE, TOPUP, FantasyState, Round


def finish(state: FantasyState, reason: str, events: list[Event]) -> FantasyState:
    """Final scoring (spec 7): the state is over and carries its outcome."""
    state = evolve(state, phase=OVER, actor=-1, attacker=-1, target=-1, spoils=None)
    outcome = final_outcome(state, reason)
    events.append(
        Event(
            "game_over",
            {**outcome.to_json(), "team_scores": [score for _t, score in sorted(team_scores(state).items())]},
        )
    )
    return evolve(state, outcome=outcome)


def has_enemy_units(state: FantasyState, seat: int) -> bool:
    """Whether any seat of another team has a unit on the table (a target exists, spec 4.1)."""
    teams = state.config.teams
    mine = teams[seat]
    return any(army and teams[s] != mine for s, army in enumerate(state.armies))


def can_attack(state: FantasyState, seat: int) -> bool:
    """``seat`` has an unpoisoned unit and there is an enemy unit to attack (spec 3.2)."""
    poisoned = state.poisoned
    return any(c not in poisoned for c in state.armies[seat]) and has_enemy_units(state, seat)


def wants_muster(state: FantasyState, seat: int) -> bool:
    """A Tactics player may take owed cards before attacking (spec 3.1, 5.8 b): it has a Tactics
    unit, fewer than 3 units and the deck is not empty."""
    return bool(state.deck) and len(state.armies[seat]) < ARMY_SIZE and seat_has_tactics(state, seat)


def to_attack(state: FantasyState, events: list[Event]) -> FantasyState:
    """The active seat attacks if it can; otherwise its turn passes without an attack."""
    if is_finished(state):
        return finish(state, LAST_ARMY, events)
    if can_attack(state, state.active):
        return evolve(state, phase=ATTACKER, actor=-1, attacker=-1, target=-1)
    events.append(Event("turn_skipped", {"seat": state.active, "reason": "no_attack"}))
    return end_turn(state, events)


def after_attack(
    state: FantasyState,
    loser: int,
    had_tactics: tuple[tuple[int, bool], ...],
    events: list[Event],
) -> FantasyState:
    """The aftermath of a resolved attack (spec 6, 5.8, AMBIGUITY 11).

    :param loser: the seat that lost a unit from its army (-1: nobody).
    :param had_tactics: ``(seat, had a Tactics unit before the attack)`` for every seat whose
        army changed; a seat that lost its last Tactics unit draws every owed card at once.
    """
    for seat, had in had_tactics:
        if had and not seat_has_tactics(state, seat):
            state = refill(state, seat, "tactics_lost", events)
    if loser >= 0 and state.deck and len(state.armies[loser]) < ARMY_SIZE:
        if seat_has_tactics(state, loser):
            return evolve(state, phase=REPLACE, actor=loser, attacker=-1, target=-1, spoils=None)
        state = draw(state, loser, "replace", events)
    return end_turn(state, events)


def end_turn(state: FantasyState, events: list[Event]) -> FantasyState:
    """Poison expiry for the active seat (spec 3.5), then the next decision."""
    state = _expire_poison(state, state.active, events)
    return _next_turn(state, events)


def _expire_poison(state: FantasyState, seat: int, events: list[Event]) -> FantasyState:
    if not state.poisoned:
        return state
    recovered = [c for c in state.armies[seat] if c in state.poisoned]
    if not recovered:
        return state
    events.append(Event("recovered", {"seat": seat, "cards": recovered}))
    return evolve(state, poisoned=state.poisoned.difference(recovered))


def _next_turn(state: FantasyState, events: list[Event]) -> FantasyState:
    """Move on to the next seat, closing the round (stalemate guard, top-up) on the way, until
    a seat must decide or the game is over."""
    n = state.num_players
    while True:
        if is_finished(state):
            return finish(state, LAST_ARMY, events)
        seat = (state.active + 1) % n
        if seat == state.round.first:
            state, waiting = _close_round(state, events)
            if waiting:
                return state
            state = open_round(state)
        state, decided = start_turn(state, seat, events)
        if decided:
            return state
        state = _expire_poison(state, seat, events)


def start_turn(state: FantasyState, seat: int, events: list[Event]) -> tuple[FantasyState, bool]:
    """Begin ``seat``'s turn: phase ``muster`` or ``attacker`` (``True``: a decision waits), or the
    turn passes without one (``False``, with a ``turn_skipped`` event); or the game is over."""
    if is_finished(state):
        return finish(state, LAST_ARMY, events), True
    events.append(Event("turn_started", {"seat": seat, "round": state.round.number}))
    if not state.armies[seat]:
        events.append(Event("turn_skipped", {"seat": seat, "reason": "no_units"}))
        return evolve(state, active=seat), False
    if wants_muster(state, seat):
        return evolve(state, phase=MUSTER, active=seat, actor=-1, attacker=-1, target=-1), True
    if can_attack(state, seat):
        return evolve(state, phase=ATTACKER, active=seat, actor=-1, attacker=-1, target=-1), True
    events.append(Event("turn_skipped", {"seat": seat, "reason": "no_attack"}))
    return evolve(state, active=seat), False


def open_round(state: FantasyState) -> FantasyState:
    """A new round starts with the first player (spec 2)."""
    rnd = state.round
    return evolve(
        state,
        round=Round(number=rnd.number + 1, first=rnd.first, began_empty=not state.deck, quiet_rounds=rnd.quiet_rounds),
    )


def begin_round(state: FantasyState, events: list[Event]) -> FantasyState:
    """Open a round and play on to the first decision (after the start roll or a top-up)."""
    state = open_round(state)
    first = state.round.first
    state, decided = start_turn(state, first, events)
    if decided:
        return state
    state = _expire_poison(state, first, events)
    return _next_turn(state, events)


def _close_round(state: FantasyState, events: list[Event]) -> tuple[FantasyState, bool]:
    """End of round: the stalemate guard (AMBIGUITY 12), then the top-up (spec 6).

    :returns: the state and whether it waits for a decision (``topup``) or is over.
    """
    rnd = state.round
    quiet = rnd.quiet_rounds
    if rnd.began_empty:
        quiet = quiet + 1 if rnd.quiet else 0
    events.append(Event("round_ended", {"round": rnd.number, "quiet_rounds": quiet}))
    if quiet != rnd.quiet_rounds:
        state = evolve(state, round=evolve(rnd, quiet_rounds=quiet))
    if rnd.began_empty and quiet >= state.config.stalemate_rounds:
        return finish(state, STALEMATE, events), True
    return run_topup(state, events)


def _needs_card(state: FantasyState, seat: int) -> bool:
    return len(state.armies[seat]) < ARMY_SIZE and seat not in state.round.topup_declined


def run_topup(state: FantasyState, events: list[Event]) -> tuple[FantasyState, bool]:
    """The end-of-round top-up from ``round.topup_cursor`` (spec 6): passes in seat order from
    the first player, one card per army under 3, until every army that did not decline has 3 or
    the deck is empty. (``open_round`` resets the cursor and the declines.)

    :returns: the state and ``True`` when it stopped in phase ``topup`` for a Tactics player's
        choice; ``False`` when the top-up is done (the caller opens the next round).
    """
    if not state.deck:
        return state, False
    n = state.num_players
    first = state.round.first
    cursor = state.round.topup_cursor
    while state.deck:
        step = cursor % n
        if step == 0 and not any(_needs_card(state, s) for s in range(n)):
            break
        seat = (first + step) % n
        if _needs_card(state, seat):
            if seat_has_tactics(state, seat):
                return evolve(state, phase=TOPUP, actor=seat, round=evolve(state.round, topup_cursor=cursor)), True
            state = draw(state, seat, "topup", events)
        cursor += 1
    return state, False


def resume_after_topup(state: FantasyState, events: list[Event]) -> FantasyState:
    """Continue after a ``topup`` choice: finish the top-up, open the next round and start it."""
    state, waiting = run_topup(state, events)
    if waiting:
        return state
    return begin_round(state, events)
