"""Fantasy súboj bot strength: the best computer level in one seat against three random seats.

Run from the repository root: ``python -m bench.fantasy_duel_strength [--games 100] [--bot NAME]
[--bound own-dice|best-dice]``.

Game ``i`` (0-based) is seeded ``seed + i`` (default :data:`STRENGTH_SEED`) and puts the tested bot
in seat ``i % 4``, so every seat, first to play or not, is tested equally often; the other three
seats play :class:`~app.games.fantasy_duel.RandomBot`. A game counts as a *win* only when the
tested seat has the best score alone (outcome result ``"win"``); a shared best score (``"draw"``)
is counted apart and is not a win. Exits 1 when fewer than ``--target`` games are won (default:
9 in 10, issue 10).

``--bound`` measures what no choice of attacker and target can beat, to judge that target:

* ``own-dice``: before each attack the tested seat sees the dice it is about to roll (a copy of
  the game's random stream) and takes the pair with the best result for that roll (win, then
  tie or hide, then poison, then defeat), the heuristic's score breaking ties;
* ``best-dice``: the tested seat plays the heuristic and its every attack rolls near-best dice
  (all sixes but a five last, so the sum is odd and no unit hides): it wins nearly every attack.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from app.games.core import CHANCE, bot_levels, make_bot, play_out
from app.games.fantasy_duel import RULES, FantasyDuel, HeuristicBot, RandomBot
from app.games.fantasy_duel.actions import Attacker, Dice, Target
from app.games.fantasy_duel.bots import Table
from app.games.fantasy_duel.state import ROLL, FantasyState
from app.games.fantasy_duel.targeting import attack_dice

STRENGTH_SEED = 7000
PLAYERS = 4
Policy = Callable[[Any, int, random.Random], Any]


def policy_of(bot: Any, rules: Any = RULES) -> Policy:
    """A :func:`~app.games.core.play_out` policy playing ``bot`` from its observation."""

    def policy(state: Any, seat: int, rng: random.Random) -> Any:
        return bot.choose(rules.bot_observation(state, seat), rules.legal_actions(state, seat), rng)

    return policy


class BestDice(FantasyDuel):
    """The rules, but seat :attr:`lucky`'s attacks roll all sixes and a five (the random stream
    advances as it would)."""

    lucky = 0

    def sample_chance(self, state: FantasyState, rng: random.Random) -> Any:
        drawn = super().sample_chance(state, rng)
        if state.phase == ROLL and state.active == self.lucky:
            return Dice((6,) * (attack_dice(state, state.attacker) - 1) + (5,))
        return drawn


_RESULT_RANK = {"defeated": 3, "hidden": 2, "tie": 2, "poisoned": 1, "repelled": 0}


def own_dice_policy(rules: Any = RULES) -> Policy:
    """The ``own-dice`` bound: sees its next roll before choosing (see the module docstring)."""
    heuristic = HeuristicBot()
    plan: dict[str, Any] = {}

    def policy(state: Any, seat: int, rng: random.Random) -> Any:
        legal = rules.legal_actions(state, seat)
        if isinstance(legal[0], Target) and plan.get("target") in legal:
            return plan["target"]
        if not isinstance(legal[0], Attacker):
            return heuristic.choose(rules.bot_observation(state, seat), legal, random.Random(0))
        best: tuple[Any, ...] | None = None
        for attacker in legal:
            chosen, _ = rules.apply(state, {seat: attacker})
            for target in rules.legal_actions(chosen, seat):
                if not isinstance(target, Target):
                    continue
                aimed, _ = rules.apply(chosen, {seat: target})
                peek = random.Random()
                peek.setstate(rng.getstate())
                _, events = rules.apply(aimed, {CHANCE: rules.sample_chance(aimed, peek)})
                result = next(e.data["result"] for e in events if e.kind == "attack_resolved")
                key = (
                    _RESULT_RANK[result],
                    Table(rules.bot_observation(state, seat)).score(attacker.card, target.card),
                )
                if best is None or key > best[0]:
                    best = (key, attacker, target)
        assert best is not None
        plan["target"] = best[2]
        return best[1]

    return policy


def play_games(bot: Any, games: int, seed: int = STRENGTH_SEED, bound: str = "") -> dict[str, Any]:
    """Play ``games`` seeded 4-seat games of ``bot`` (or a ``bound``) against three random seats.

    :returns: ``{"win", "draw", "loss"}`` counts of the tested seat, ``"margins"`` (its score minus
        the best other score, per game) and ``"seconds"`` (CPU time).
    """
    counts = {"win": 0, "draw": 0, "loss": 0}
    margins: list[float] = []
    t0 = time.process_time()
    for i in range(games):
        seat = i % PLAYERS
        rules: Any = RULES
        if bound == "best-dice":
            rules = BestDice()
            rules.lucky = seat
        tested = own_dice_policy(rules) if bound == "own-dice" else policy_of(bot, rules)
        rand = policy_of(RandomBot(), rules)
        policies = {s: (tested if s == seat else rand) for s in range(PLAYERS)}
        state, _ = play_out(rules, PLAYERS, rng=random.Random(seed + i), policies=policies)
        outcome = rules.outcome(state)
        assert outcome is not None
        counts[outcome.results[seat]] += 1
        scores = outcome.scores
        margins.append(scores[seat] - max(x for s, x in enumerate(scores) if s != seat))
    return {**counts, "margins": margins, "seconds": time.process_time() - t0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--bot", default="", help="bot level (default: the strongest)")
    parser.add_argument("--seed", type=int, default=STRENGTH_SEED)
    parser.add_argument("--bound", choices=("", "own-dice", "best-dice"), default="")
    parser.add_argument("--target", type=int, default=-1, help="wins needed (default: 90%% of --games)")
    args = parser.parse_args(argv)
    level = args.bot or bot_levels("fantasy_duel")[-1]
    r = play_games(make_bot("fantasy_duel", level), args.games, args.seed, args.bound)
    target = args.target if args.target >= 0 else (9 * args.games + 9) // 10
    who = {"": level, "own-dice": f"{level}, seeing its own dice", "best-dice": f"{level}, rolling near-best dice"}
    print(
        f"Fantasy súboj strength: {who[args.bound]} in 1 seat vs 3 random, {args.games} games "
        f"(seeds {args.seed}..{args.seed + args.games - 1}): {r['win']} wins, {r['draw']} shared-best "
        f"draws (not wins), {r['loss']} losses; target {target} wins; mean margin over the best "
        f"random seat {sum(r['margins']) / len(r['margins']):+.2f}; {r['seconds']:.1f} s CPU"
    )
    return 0 if r["win"] >= target else 1


if __name__ == "__main__":
    sys.exit(main())
