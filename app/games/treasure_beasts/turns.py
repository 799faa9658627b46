"""Turns, action points, draws, the hand limit, elimination and the end of the game
(``rules/treasure_beasts.md`` sections 4, 12 and 13; AMBIGUITIES 2, 6, 15, 16, 19, 22-24).

:func:`settle` runs after every applied action: it checks the 12-treasure victory, asks chance to
reshuffle when someone is owed a draw from an empty deck, and ends the turn when the active seat
has spent its last action point. The turn cap (option ``max_rounds``) is ours: see the package
docstring.
"""

from __future__ import annotations

from ..core.rules import Event, Outcome
from ..core.state import evolve
from .state import (
    DISCARD,
    MAIN,
    OVER,
    RESHUFFLE,
    Creature,
    State,
    turn_order,
    with_player,
)

AP_PER_TURN = 2  #: section 4.1
HAND_LIMIT = 6  #: section 4.4
START_TREASURE = 6  #: section 2
WIN_TREASURE = 12  #: section 12
PACK_SIZE = 6  #: section 3.4


def draw(state: State, seat: int, count: int, events: list[Event]) -> State:
    """``seat`` draws ``count`` cards from the top of the deck; what the deck lacks is owed and
    drawn after a reshuffle of the discard (AMBIGUITY 19). Events: ``drew`` (the cards to the
    drawer only; the others see the count)."""
    deck = state.deck
    got = deck[:count]
    if got:
        player = state.players[seat]
        state = with_player(evolve(state, deck=deck[len(got) :]), seat, hand=player.hand + got)
        events.append(
            Event("drew", {"seat": seat, "cards": list(got)}, frozenset({seat}), {"seat": seat, "count": len(got)})
        )
    short = count - len(got)
    if short:
        owed = list(state.owed or (0,) * state.num_players)
        owed[seat] += short
        state = evolve(state, owed=tuple(owed))
    return state


def finish(state: State, winners: list[int], reason: str, events: list[Event]) -> State:
    """End the game: ``winners`` win, everyone else loses. Ranks: winners 1, then seats still
    playing by treasure, then eliminated seats, the later out the better. Event ``game_over``."""

    def key(seat: int) -> tuple[int, int]:
        p = state.players[seat]
        if seat in winners:
            return (2, 0)
        return (1, p.treasury) if not p.eliminated else (0, p.eliminated)

    seats = range(state.num_players)
    keys = [key(s) for s in seats]
    outcome = Outcome(
        results=tuple("win" if s in winners else "loss" for s in seats),
        scores=tuple(float(p.treasury) for p in state.players),
        reason=reason,
        ranks=tuple(1 + sum(k > keys[s] for k in keys) for s in seats),
    )
    events.append(Event("game_over", {"winners": sorted(winners), "reason": reason}))
    return evolve(state, phase=OVER, outcome=outcome, attack=None)


def check_win(state: State, events: list[Event]) -> State:
    """Section 12: a seat holding 12 or more wins at once; the active seat first, then turn order
    (AMBIGUITY 16)."""
    if state.outcome is not None or all(p.treasury < WIN_TREASURE for p in state.players):
        return state
    for seat in turn_order(state, state.active):
        if state.players[seat].treasury >= WIN_TREASURE:
            return finish(state, [seat], "treasure", events)
    return state


def start_turn(state: State, seat: int, events: list[Event]) -> State:
    """Section 4.1 for ``seat``: its creatures become ready and per-turn counters reset
    (AMBIGUITY 6), 2 AP, then a draw of 1, or 2 when the hand is empty. Past the turn cap the game
    ends instead (richest seats still playing win, reason ``turn_cap``)."""
    cap = state.config.max_rounds
    if cap and state.turn >= cap * state.num_players:
        alive = state.alive()
        best = max(state.players[s].treasury for s in alive)
        return finish(state, [s for s in alive if state.players[s].treasury == best], "turn_cap", events)
    creatures = tuple(
        evolve(c, ready=True, fresh=False, moves=0, used=0, reattached=False) if c.owner == seat else c
        for c in state.creatures
    )
    state = evolve(
        state, creatures=creatures, active=seat, ap=AP_PER_TURN, turn=state.turn + 1, phase=MAIN, attack=None
    )
    events.append(Event("turn_started", {"seat": seat, "turn": state.turn}))
    return draw(state, seat, 2 if not state.players[seat].hand else 1, events)


def end_turn(state: State, events: list[Event]) -> State:
    """Section 4.4: over the hand limit, the active seat discards first (phase ``discard``);
    then :func:`finish_turn`."""
    if len(state.players[state.active].hand) > HAND_LIMIT:
        return evolve(state, phase=DISCARD, attack=None)
    return finish_turn(state, events)


def finish_turn(state: State, events: list[Event]) -> State:
    """The elimination check (a seat with 0 treasure at the end of its own turn is out; its hand,
    creatures and anything attached to them go to the discard without triggers, AMBIGUITY 15),
    the last-standing victory (AMBIGUITY 24), then the next seat's turn."""
    seat = state.active
    events.append(Event("turn_ended", {"seat": seat, "turn": state.turn}))
    if state.players[seat].treasury <= 0:
        state = eliminate(state, seat, events)
        alive = state.alive()
        if len(alive) == 1:
            return finish(state, alive, "last_standing", events)
    nxt = turn_order(state, (seat + 1) % state.num_players)[0]
    return start_turn(state, nxt, events)


def eliminate(state: State, seat: int, events: list[Event]) -> State:
    """Put ``seat`` out: its hand and its creatures (with whatever is attached to them, and its own
    creatures attached elsewhere) go to the discard silently."""
    gone = {c.uid for c in state.creatures if c.owner == seat}
    gone |= {c.uid for c in state.creatures if c.host in gone}
    removed: list[Creature] = [c for c in state.creatures if c.uid in gone]
    player = state.players[seat]
    discard = state.discard + player.hand + tuple(c.card for c in removed)
    state = evolve(state, creatures=tuple(c for c in state.creatures if c.uid not in gone), discard=discard)
    state = with_player(state, seat, hand=(), eliminated=state.turn)
    events.append(Event("eliminated", {"seat": seat, "discarded": list(player.hand) + [c.card for c in removed]}))
    return state


def settle(state: State, events: list[Event]) -> State:
    """After every action: the victory check, the reshuffle a short draw needs (chance node,
    then back to ``resume``), and the end of the turn at 0 AP (AMBIGUITIES 2, 23)."""
    while True:
        state = check_win(state, events)
        if state.outcome is not None or state.phase == RESHUFFLE:
            return state
        if any(state.owed):
            if state.deck:  # cards came back to the deck: pay what is owed now
                owed, state = state.owed, evolve(state, owed=())
                for seat in turn_order(state, state.active):
                    if owed[seat]:
                        state = draw(state, seat, owed[seat], events)
                continue
            if state.discard:
                return evolve(state, phase=RESHUFFLE, resume=state.phase)
            state = evolve(state, owed=())  # nothing left anywhere: draw as many as possible
        if state.phase == MAIN and state.ap <= 0 and state.config.turn_ends_at_zero_ap:
            state = end_turn(state, events)
            continue
        return state


def reshuffled(state: State, order: tuple[str, ...], events: list[Event]) -> State:
    """The chance outcome of a reshuffle: the discard in ``order`` becomes the deck, then owed
    draws are paid in turn order from the active seat, and play resumes."""
    owed = state.owed
    state = evolve(state, deck=state.deck + order, discard=(), owed=(), phase=state.resume)
    events.append(Event("deck_reshuffled", {"size": len(order)}))
    for seat in turn_order(state, state.active):
        if owed and owed[seat]:
            state = draw(state, seat, owed[seat], events)
    return state


def discard_down(state: State, card: str, events: list[Event]) -> State:
    """Section 4.4: the active seat discards ``card``; at the hand limit the turn finishes."""
    seat = state.active
    hand = list(state.players[seat].hand)
    hand.remove(card)
    state = with_player(state, seat, hand=tuple(hand))
    state = evolve(state, discard=(*state.discard, card))
    events.append(Event("discarded", {"seat": seat, "cards": [card], "why": "hand_limit"}))
    if len(hand) > HAND_LIMIT:
        return state
    return finish_turn(state, events)
