"""Swiss rounds by the FIDE (Dutch) system, C.04.3 (the rules in force until 31 January 2026), through
the py4swiss library (``Moritz72/py4swiss``, MIT; a port of bbpPairings, one of the FIDE-endorsed
pairing programs, whose results it reproduces).

The library reads a tournament in the standard TRF(x) form; :func:`to_trf` builds that form in
memory from the boards played so far (no file), and :func:`pair_round` asks the library's Dutch
engine for the next round. The absolute criteria hold by the system itself: no two players meet
twice, a player gets at most one pairing-allocated bye (the lowest-ranked player of the lowest
score group without one), and colours follow the Dutch colour rules (no one plays the same colour
three times running, the colour difference stays within +-2). Colour ``white`` here is the game's
first seat. A player who withdrew is left out (the TRF's ``XXZ`` list) and scores nothing for the
rounds they miss.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError
from py4swiss.trf import ParsedTrf
from py4swiss.trf.codes import PlayerCode
from py4swiss.trf.results import ColorToken, ResultToken, RoundResult
from py4swiss.trf.sections import PlayerSection, XSection
from py4swiss.trf.sections.x_section import XSectionConfiguration

from app.tournaments.pairing import Board, Pair

#: our result -> the TRF's result tokens for (the first seat, the second seat)
_TOKENS: dict[str, tuple[ResultToken, ResultToken]] = {
    "1-0": (ResultToken.WIN, ResultToken.LOSS),
    "0-1": (ResultToken.LOSS, ResultToken.WIN),
    "1/2": (ResultToken.DRAW, ResultToken.DRAW),
    "+-": (ResultToken.FORFEIT_WIN, ResultToken.FORFEIT_LOSS),
    "-+": (ResultToken.FORFEIT_LOSS, ResultToken.FORFEIT_WIN),
    "--": (ResultToken.FORFEIT_LOSS, ResultToken.FORFEIT_LOSS),
}


class SwissPairingError(ValueError):
    """No pairing of the next round satisfies the absolute criteria (for instance more rounds
    than the players allow without a rematch)."""


def recommended_rounds(players: int) -> int:
    """A sensible number of rounds for ``players``: ``ceil(log2(players))``, enough to find a clear
    winner, at least 1 and at most ``players - 1``."""
    return max(1, min(players - 1, (players - 1).bit_length()))


def to_trf(players: int, rounds: int, boards: Sequence[Board], withdrawn: Collection[int] = ()) -> ParsedTrf:
    """The tournament so far in TRF(x) form, as py4swiss reads it.

    :param players: starting numbers are ``1 .. players`` (1 = the top seed).
    :param rounds: the rounds the tournament will have (the TRF's ``XXR``).
    :param boards: every board of the rounds played, each round complete; a player missing from
        a round (withdrawn) scores a zero-point bye there.
    :param withdrawn: players left out of the next round.
    :raises ValueError: a board names a player outside ``1 .. players``.
    """
    played_rounds = max((b.round for b in boards), default=0)
    per_player: dict[int, dict[int, RoundResult]] = {p: {} for p in range(1, players + 1)}
    for b in boards:
        if b.first not in per_player or (b.second is not None and b.second not in per_player):
            raise ValueError(f"board of round {b.round} names a player outside 1..{players}")
        if b.second is None:  # a bye (a Swiss has no "rest")
            per_player[b.first][b.round] = RoundResult(
                id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=ResultToken.PAIRING_ALLOCATED_BYE
            )
            continue
        first, second = _TOKENS[b.result]
        per_player[b.first][b.round] = RoundResult(id=b.second, color=ColorToken.WHITE, result=first)
        per_player[b.second][b.round] = RoundResult(id=b.first, color=ColorToken.BLACK, result=second)
    absent = RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=ResultToken.ZERO_POINT_BYE)
    sections = []
    x_section = XSection(
        number_of_rounds=max(rounds, played_rounds + 1),
        zeroed_ids=set(withdrawn),
        configuration=XSectionConfiguration(first_round_color=True),
    )
    for number in range(1, players + 1):
        results = [per_player[number].get(r, absent) for r in range(1, played_rounds + 1)]
        points = sum(x_section.scoring_point_system.get_points_times_ten(r) for r in results)
        sections.append(
            PlayerSection(
                code=PlayerCode.PLAYER,
                starting_number=number,
                points_times_ten=points,
                rank=number,
                results=results,
            )
        )
    trf = ParsedTrf(player_sections=sections, x_section=x_section)
    trf.validate_contents()
    return trf


def pair_round(players: int, rounds: int, boards: Sequence[Board], withdrawn: Collection[int] = ()) -> list[Pair]:
    """The next round's boards by the Dutch system, in the published order (highest score first);
    a bye is ``(number, None)``, listed last.

    :param players: starting numbers ``1 .. players``, ranked by rating (1 = the highest).
    :param boards: every board of the rounds played so far (see :func:`to_trf`).
    :param withdrawn: players not to pair any more.
    :raises SwissPairingError: when no pairing satisfies the absolute criteria.
    """
    trf = to_trf(players, rounds, boards, withdrawn)
    try:
        pairings = DutchEngine.generate_pairings(trf)
    except PairingError as exc:
        raise SwissPairingError(str(exc)) from None
    pairs: list[Pair] = []
    byes: list[Pair] = []
    for p in pairings:
        if p.black == 0:
            byes.append((p.white, None))
        elif p.white == 0:
            byes.append((p.black, None))
        else:
            pairs.append((p.white, p.black))
    return pairs + byes
