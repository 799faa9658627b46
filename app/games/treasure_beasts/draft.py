"""The deal and the draft (``rules/treasure_beasts.md`` section 3.4-3.6; AMBIGUITY 1).

Chance shuffles the deck; seat 0 plays first (lobby order) and the seats take six cards each in
turn order. Then every seat keeps one card of its pack at the same time and passes the rest to the
left (seat ``i`` to seat ``i + 1``) until the packs are empty; the kept cards are the starting hand.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.rules import Event
from ..core.state import evolve
from .actions import Pick
from .data import CardBook
from .state import DRAFT, Player, State
from .turns import PACK_SIZE, start_turn


def deal(book: CardBook, state: State, order: tuple[str, ...], events: list[Event]) -> State:
    """The deck in ``order``: six cards to each seat's pack, the rest stays the deck. Events
    ``dealt`` (each pack to its seat only)."""
    n = state.num_players
    players = []
    for seat in range(n):
        pack = order[PACK_SIZE * seat : PACK_SIZE * (seat + 1)]
        players.append(evolve(state.players[seat], pack=pack))
        events.append(
            Event("dealt", {"seat": seat, "pack": list(pack)}, frozenset({seat}), {"seat": seat, "count": len(pack)})
        )
    return evolve(state, players=tuple(players), deck=order[PACK_SIZE * n :], phase=DRAFT)


def legal_picks(book: CardBook, state: State, seat: int) -> list[Pick]:
    """One :class:`Pick` per distinct card of ``seat``'s pack, in catalog order."""
    return [Pick(card) for card in sorted(set(state.players[seat].pack), key=book.order.__getitem__)]


def picks(book: CardBook, state: State, chosen: Mapping[int, Pick], events: list[Event]) -> State:
    """Every seat keeps its pick, then the packs pass to the left; after the last pick the first
    turn starts. Events ``picked`` (the card to its seat only) and ``packs_passed``."""
    n = state.num_players
    rest: list[tuple[str, ...]] = []
    players: list[Player] = []
    for seat in range(n):
        p = state.players[seat]
        card = chosen[seat].card
        pack = list(p.pack)
        pack.remove(card)
        rest.append(tuple(pack))
        players.append(evolve(p, hand=(*p.hand, card)))
        events.append(Event("picked", {"seat": seat, "card": card}, frozenset({seat}), {"seat": seat}))
    players = [evolve(players[seat], pack=rest[(seat - 1) % n]) for seat in range(n)]
    state = evolve(state, players=tuple(players), draft_round=state.draft_round + 1)
    events.append(Event("packs_passed", {"round": state.draft_round}))
    if all(not p.pack for p in state.players):
        return start_turn(state, 0, events)
    return state
