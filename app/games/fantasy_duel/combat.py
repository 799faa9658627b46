"""Attack resolution (``rules/fantasy_duel.md`` section 4, the normative algorithm) and its exact
odds from the dice distribution.

An attack is a :class:`Matchup` (everything known once attacker and target are chosen, before any
die is rolled: spec 4.1) and a roll; :func:`resolve` turns the two into a :class:`Verdict`.
:func:`odds` sums :func:`resolve` over every possible roll, weighted by its count among ``6 ** n``
(exact, not simulated), for the pages ("the probability this attack wins") and the bots.

Per-attack abilities: ``bonus_vs`` (5.1), ``defense_bonus_vs`` (5.2), hiding (5.3) against
tracking (5.4), poison (5.5) against a healer (5.6), defensive fire (5.10, the *attacker's* lowest
die, AMBIGUITY 5), Kostej's Doom (5.11, AMBIGUITY 9), Ally support (5.9).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .abilities import has_healer, has_tracking, support_dice
from .data import MAX_DICE, UnitDef

DEFEATED = "defeated"  #: the target is defeated (the attacker's owner wins)
REPELLED = "repelled"  #: the attacker is defeated (the target's owner wins)
HIDDEN = "hidden"  #: the target hid: nothing happens (5.3)
TIE = "tie"  #: attack total == effective defence: nothing happens (4.5 step 3)
POISONED = "poisoned"  #: the attack failed and the target is poisoned (4.5 step 4)
RESULTS = (DEFEATED, REPELLED, HIDDEN, TIE, POISONED)

#: A margin strictly above this lets the winner recruit (spec 4.7).
RECRUIT_MARGIN = 10


class Matchup(NamedTuple):
    """One declared attack, before the dice (spec 4.1-4.4). (A named tuple: made on every attack,
    never stored in a state.)

    :param dice: dice to roll (own dice + Ally support).
    :param attack: the attacker's flat attack plus every applicable ``bonus_vs`` (they add up).
    :param defence: the target's defence plus any ``defense_bonus_vs`` (before defensive fire).
    :param fire: defensive fire applies (+ the lowest die): the target has it and is not poisoned.
    :param can_hide: the target hides on an even dice sum (it has hiding, the attacking army no
        tracker).
    :param doom: Kostej's Doom applies (the attacker has it, the target is living).
    :param poison: a failed attack poisons the target (the attacker has poison, the target is
        living and its army has no healer).
    """

    dice: int
    attack: int
    defence: int
    fire: bool
    can_hide: bool
    doom: bool
    poison: bool


class Verdict(NamedTuple):
    """The result of one rolled attack (spec 4.5).

    :param result: one of :data:`RESULTS`.
    :param total: attack total; ``defence``: effective defence (with defensive fire).
    :param margin: the winner's margin (``total - defence`` when the target is defeated, also after
        Doom where it may be small or negative; ``defence - total`` when repelled); 0 otherwise.
    :param choice: the winner may recruit (margin over 10, or Doom: spec 4.7, AMBIGUITY 9).
    """

    result: str
    total: int
    defence: int
    margin: int
    choice: bool


def matchup(
    attacker: UnitDef,
    own_army: Sequence[UnitDef],
    target: UnitDef,
    target_army: Sequence[UnitDef],
    target_poisoned: bool,
    poison_ignores_fire: bool = False,
) -> Matchup:
    """Everything about an attack that is known before the dice.

    :param own_army: the attacker's whole army (the attacker included): Ally support, Tracking.
    :param target_army: the target's whole army: Healer.
    :param target_poisoned: the target is poisoned (no defensive fire, spec 5.5).
    :param poison_ignores_fire: the alternative reading of AMBIGUITY 4 (a poison attacker ignores
        defensive fire).
    """
    bonus = 0
    for kind, value in attacker.bonus_vs:
        if target.matches(kind):
            bonus += value
    defence = target.defense
    for kind, value in target.defense_bonus_vs:
        if attacker.matches(kind):
            defence += value
    return Matchup(
        dice=attacker.dice + support_dice(attacker, own_army),
        attack=attacker.attack + bonus,
        defence=defence,
        fire=target.defensive_fire and not target_poisoned and not (poison_ignores_fire and attacker.poison),
        can_hide=target.hiding and not has_tracking(own_army),
        doom=attacker.doom and target.living,
        poison=attacker.poison and target.living and not has_healer(target_army),
    )


def resolve(m: Matchup, dice_sum: int, dice_min: int) -> Verdict:
    """Resolve an attack rolled with ``dice_sum`` (all dice, support included) and ``dice_min``
    (the lowest die), spec 4.5 in order: Doom, success (hiding check), tie, failure (poison).
    """
    total = m.attack + dice_sum
    defence = m.defence + (dice_min if m.fire else 0)
    hides = m.can_hide and dice_sum % 2 == 0
    if m.doom:
        if hides:
            return Verdict(HIDDEN, total, defence, 0, False)
        return Verdict(DEFEATED, total, defence, total - defence, True)
    if total > defence:
        if hides:
            return Verdict(HIDDEN, total, defence, 0, False)
        margin = total - defence
        return Verdict(DEFEATED, total, defence, margin, margin > RECRUIT_MARGIN)
    if total == defence:
        return Verdict(TIE, total, defence, 0, False)
    if m.poison:
        return Verdict(POISONED, total, defence, 0, False)
    margin = defence - total
    return Verdict(REPELLED, total, defence, margin, margin > RECRUIT_MARGIN)


def _distributions(most: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For n = 0..``most`` dice: ``((sum, lowest, ways), ...)`` over the ``6 ** n`` rolls."""
    out: list[tuple[tuple[int, int, int], ...]] = [((0, 0, 1),)]
    ways: dict[tuple[int, int], int] = {(0, 7): 1}
    for _n in range(most):
        nxt: dict[tuple[int, int], int] = {}
        for (s, low), w in ways.items():
            for face in range(1, 7):
                key = (s + face, min(low, face))
                nxt[key] = nxt.get(key, 0) + w
        ways = nxt
        out.append(tuple(sorted((s, low, w) for (s, low), w in ways.items())))
    return tuple(out)


#: ``DICE[n]``: the distribution of (sum, lowest die) for n d6, as ``(sum, lowest, ways)``.
DICE = _distributions(MAX_DICE + 3)


def _sums(table: tuple[tuple[int, int, int], ...]) -> tuple[tuple[int, int, int], ...]:
    ways: dict[int, int] = {}
    for dice_sum, _low, w in table:
        ways[dice_sum] = ways.get(dice_sum, 0) + w
    return tuple((dice_sum, 0, w) for dice_sum, w in sorted(ways.items()))


#: ``SUMS[n]``: the distribution of the sum of n d6, as ``(sum, 0, ways)`` (the shape of ``DICE``).
SUMS = tuple(_sums(t) for t in DICE)


#: The fields of :class:`Odds` that split an attack's rolls between them (they sum to 1), in the
#: order the match page lists them; ``static/js/games/fantasy_duel.js`` (``ODDS_PARTS``) shows each
#: of them that is not 0 on the unit card and the attack button alike (``big_win`` and
#: ``big_loss`` are shares of ``win`` and ``lose``).
ODDS_PARTS = ("win", "tie", "lose", "hide", "poison")


@dataclass(frozen=True, slots=True)
class Odds:
    """Exact probabilities of an attack's results (the :data:`ODDS_PARTS` sum to 1).

    :param win: the target is defeated; ``big_win``: ... with the recruit choice (part of ``win``).
    :param lose: the attacker is defeated; ``big_loss``: ... with a margin over 10 (part of ``lose``).
    :param hide: the target hides; ``tie``: nothing happens; ``poison``: the target is poisoned.
    """

    win: float
    big_win: float
    lose: float
    big_loss: float
    hide: float
    tie: float
    poison: float

    def to_json(self) -> dict[str, float]:
        """``{"win", "big_win", "lose", "big_loss", "hide", "tie", "poison"}`` rounded to 6 places."""
        return {
            "win": round(self.win, 6),
            "big_win": round(self.big_win, 6),
            "lose": round(self.lose, 6),
            "big_loss": round(self.big_loss, 6),
            "hide": round(self.hide, 6),
            "tie": round(self.tie, 6),
            "poison": round(self.poison, 6),
        }


def odds(m: Matchup) -> Odds:
    """The exact odds of ``m`` over every roll of ``m.dice`` d6: :func:`resolve` summed over the
    distribution (inlined; ``tests/games/test_fantasy_duel.py`` checks it against :func:`resolve`
    on every roll).

    :raises IndexError: more dice than the table holds (``MAX_DICE + 3``).
    """
    win = big_win = lose = big_loss = hide = tie = poison = 0
    attack, defence, can_hide = m.attack, m.defence, m.can_hide
    # Without defensive fire only the sum matters: the shorter table, with 0 for the lowest die.
    for dice_sum, low, ways in DICE[m.dice] if m.fire else SUMS[m.dice]:
        total = attack + dice_sum
        wall = defence + low
        if can_hide and dice_sum % 2 == 0 and (m.doom or total > wall):
            hide += ways
        elif m.doom:
            win += ways
            big_win += ways
        elif total > wall:
            win += ways
            if total - wall > RECRUIT_MARGIN:
                big_win += ways
        elif total == wall:
            tie += ways
        elif m.poison:
            poison += ways
        else:
            lose += ways
            if wall - total > RECRUIT_MARGIN:
                big_loss += ways
    whole = 6**m.dice
    return Odds(
        win=win / whole,
        big_win=big_win / whole,
        lose=lose / whole,
        big_loss=big_loss / whole,
        hide=hide / whole,
        tie=tie / whole,
        poison=poison / whole,
    )
