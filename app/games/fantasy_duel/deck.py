"""The deck, the armies and the prisons: drawing, imprisoning, recruiting and healing
(``rules/fantasy_duel.md`` sections 4.6, 4.7, 5.5, 5.6 and 6).

Every function takes a state and the list of events being built, appends its events and returns
the new state (made with :func:`~app.games.core.evolve`). Events carry codes and parameters only:

* ``drew`` ``{"seat", "card", "unit", "reason"}`` (reason ``deal`` | ``replace`` | ``muster`` |
  ``topup`` | ``tactics_lost``), then ``deck_empty`` ``{}`` when the last card is taken;
* ``imprisoned`` ``{"seat", "card", "unit", "from_seat"}``: ``card`` left ``from_seat``'s army
  for ``seat``'s prison;
* ``recruited`` ``{"seat", "card", "unit", "from_seat", "released", "released_unit", "prison"}``;
* ``cured`` ``{"seat", "cards"}``: a Healer in the army cures its poisoned units (5.6,
  AMBIGUITY 10).
"""

from __future__ import annotations

from typing import Any

from ..core.rules import Event
from ..core.state import evolve
from .data import CARD_UNITS, UnitDef, unit_of
from .state import ARMY_SIZE, FantasyState, Round


def army_units(state: FantasyState, seat: int) -> list[UnitDef]:
    """The unit records of ``seat``'s army, in army order."""
    return [CARD_UNITS[c] for c in state.armies[seat]]


def seat_has_tactics(state: FantasyState, seat: int) -> bool:
    """Whether ``seat``'s army holds a Tactics unit (spec 5.8)."""
    return any(_TACTICS[c] for c in state.armies[seat])


#: card -> its unit has Tactics (the hot path of :func:`seat_has_tactics`)
_TACTICS: tuple[bool, ...] = tuple(u.tactics for u in CARD_UNITS)


def _with_army(state: FantasyState, seat: int, army: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    armies = list(state.armies)
    armies[seat] = army
    return tuple(armies)


def _with_prison(state: FantasyState, seat: int, card: int) -> tuple[tuple[int, ...], ...]:
    prisons = list(state.prisons)
    prisons[seat] = prisons[seat] + (card,)
    return tuple(prisons)


def _unquiet(state: FantasyState) -> Round:
    """The round bookkeeping once a unit has left an army (the stalemate guard, AMBIGUITY 12)."""
    return evolve(state.round, quiet=False) if state.round.quiet else state.round


def cure(state: FantasyState, seat: int, events: list[Event]) -> FantasyState:
    """Cure ``seat``'s poisoned units when its army holds a Healer (spec 5.6, AMBIGUITY 10)."""
    army = state.armies[seat]
    if not state.poisoned or not any(CARD_UNITS[c].healer for c in army):
        return state
    cured = [c for c in army if c in state.poisoned]
    if not cured:
        return state
    events.append(Event("cured", {"seat": seat, "cards": cured}))
    return evolve(state, poisoned=state.poisoned.difference(cured))


def draw(state: FantasyState, seat: int, reason: str, events: list[Event]) -> FantasyState:
    """``seat`` takes the top card of the deck into its army, face up (spec 6).

    :raises IndexError: the deck is empty (callers check first).
    """
    card = state.deck[0]
    state = evolve(state, deck=state.deck[1:], armies=_with_army(state, seat, state.armies[seat] + (card,)))
    events.append(Event("drew", {"seat": seat, "card": card, "unit": unit_of(card).id, "reason": reason}))
    if not state.deck:
        events.append(Event("deck_empty", {}))
    return cure(state, seat, events) if unit_of(card).healer else state


def refill(state: FantasyState, seat: int, reason: str, events: list[Event], limit: int = ARMY_SIZE) -> FantasyState:
    """``seat`` draws until its army holds ``limit`` units or the deck is empty."""
    while state.deck and len(state.armies[seat]) < limit:
        state = draw(state, seat, reason, events)
    return state


def imprison(
    state: FantasyState,
    loser: int,
    card: int,
    prison: int,
    events: list[Event],
    **changes: Any,
) -> FantasyState:
    """``card`` leaves ``loser``'s army for ``prison``'s prison (spec 4.6); a unit leaving the
    table loses its poison, and the round is no longer quiet (stalemate guard).

    :param changes: further fields of the new state (made in the same copy).
    """
    army = tuple(c for c in state.armies[loser] if c != card)
    events.append(Event("imprisoned", {"seat": prison, "card": card, "unit": unit_of(card).id, "from_seat": loser}))
    return evolve(
        state,
        armies=_with_army(state, loser, army),
        prisons=_with_prison(state, prison, card),
        poisoned=state.poisoned - {card} if card in state.poisoned else state.poisoned,
        round=_unquiet(state),
        **changes,
    )


def recruit(
    state: FantasyState,
    winner: int,
    loser: int,
    card: int,
    released: int,
    prison: int,
    events: list[Event],
) -> FantasyState:
    """The recruit option (spec 4.7 b): ``card`` leaves ``loser``'s army and joins ``winner``'s,
    in the place of ``winner``'s own unit ``released``, which goes to ``prison``'s prison (the
    winner's by default, AMBIGUITY 1). Both lose any poison; a Healer recruited cures the army.
    """
    lost = tuple(c for c in state.armies[loser] if c != card)
    gained = tuple(card if c == released else c for c in state.armies[winner])
    armies = list(state.armies)
    armies[loser], armies[winner] = lost, gained
    events.append(
        Event(
            "recruited",
            {
                "seat": winner,
                "card": card,
                "unit": unit_of(card).id,
                "from_seat": loser,
                "released": released,
                "released_unit": unit_of(released).id,
                "prison": prison,
            },
        )
    )
    state = evolve(
        state,
        armies=tuple(armies),
        prisons=_with_prison(state, prison, released),
        poisoned=state.poisoned - {card, released},
        round=_unquiet(state),
    )
    return cure(state, winner, events)
