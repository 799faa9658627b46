"""Treasure Beasts engine benchmark and a quick balance look.

Run from the repository root: ``python -m bench.bench_treasure_beasts [--games N] [--decisions N]
[--duel N] [--balance N]``.

Reports random full-game playouts through the pure driver (3 and 6 players), PlannerBot (the
strongest level) and GreedyBot decision times (each position timed twice, best kept), how often each
wins 3-player games against two random bots and the planner against two greedy bots, and (``--balance``, 0 to skip) a balance look from greedy-vs-greedy games at 2, 3 and 4
players: game length, the first player's win rate, and the cards whose drafters win most and least
often. Times are CPU time of this process (``time.process_time``). Exits 1 when a target is missed:
50 random 3-player games a second, a random 6-player game under 250 ms, a mean decision under
100 ms, and the planner winning at least 80% of its games against two random bots outright.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections import Counter

from app.games.core import CHANCE, LegalMemo, play_out
from app.games.treasure_beasts import RULES, GreedyBot, PlannerBot
from app.games.treasure_beasts.actions import Pick
from bench.report import print_report, time_decisions

GAMES_PER_SECOND_TARGET = 50.0
SIX_PLAYER_TARGET_MS = 250.0
DECISION_TARGET_MS = 100.0
DUEL_TARGET = 0.8


def bench_random_games(players: int, games: int) -> tuple[float, float, float]:
    """Random games through ``play_out``: (games per CPU second, mean inputs, mean turns)."""
    inputs = turns = 0
    t0 = time.process_time()
    for seed in range(games):
        state, log = play_out(RULES, players, rng=random.Random(seed))
        inputs += len(log)
        turns += state.turn
    elapsed = time.process_time() - t0
    return games / elapsed, inputs / games, turns / games


def _greedy_policy(memo: LegalMemo, bot=None):  # type: ignore[no-untyped-def]
    bot = bot or GreedyBot()

    def policy(state, seat, rng):  # type: ignore[no-untyped-def]
        return bot.choose(RULES.bot_observation(state, seat), memo.legal(RULES, state, seat), rng)

    return policy


def bench_decisions(bot, decisions: int) -> tuple[float, float, float, float]:  # type: ignore[no-untyped-def]
    """``bot`` on ``decisions`` positions of random 3-player games (mean, p99, max ms, worst single)."""
    positions = []
    seed = 0
    while len(positions) < decisions:
        rng = random.Random(20_000 + seed)
        seed += 1
        state = RULES.initial_state(3, {})
        while RULES.to_act(state) and len(positions) < decisions:
            to_act = RULES.to_act(state)
            if CHANCE in to_act:
                state, _ = RULES.apply(state, {CHANCE: RULES.sample_chance(state, rng)})
                continue
            for seat in to_act:
                positions.append((RULES.bot_observation(state, seat), RULES.legal_actions(state, seat)))
            state, _ = RULES.apply(state, {s: rng.choice(list(RULES.legal_actions(state, s))) for s in to_act})
    return time_decisions(bot, positions[:decisions], random.Random(3), repeats=2)


def duel(games: int, bot_class=GreedyBot, against=None) -> float:  # type: ignore[no-untyped-def]
    """``bot_class`` (each seat in turn) against two others (random bots, or ``against``) in 3-player
    games: its rate of outright wins (the only winner)."""
    wins = 0
    for game in range(games):
        seat = game % 3
        memo = LegalMemo()
        policies = {seat: _greedy_policy(memo, bot_class())}
        if against is not None:
            policies |= {s: _greedy_policy(memo, against()) for s in range(3) if s != seat}
        state, _ = play_out(RULES, 3, rng=random.Random(50_000 + game), policies=policies)
        wins += state.outcome.winners == (seat,)
    return wins / games


def balance(games: int, players: int) -> dict[str, object]:
    """Greedy-vs-greedy games: mean turns and rounds, seat 0's win rate, and per card how often its
    drafter won (cards drafted at least 10 times), as ``{"turns", "first_player", "cards"}``."""
    turns, first = [], 0
    drafted: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for game in range(games):
        memo = LegalMemo()
        policies = {s: _greedy_policy(memo) for s in range(players)}
        state, log = play_out(RULES, players, rng=random.Random(90_000 + game), policies=policies)
        turns.append(state.turn)
        winners = set(state.outcome.winners)
        first += 0 in winners
        for record in log:
            action = RULES.decode_action(record.action)
            if isinstance(action, Pick):
                drafted[action.card] += 1
                won[action.card] += record.seat in winners
    rates = {card: won[card] / n for card, n in drafted.items() if n >= 10}
    return {
        "turns": statistics.fmean(turns),
        "rounds": statistics.fmean(turns) / players,
        "first_player": first / games,
        "cards": rates,
        "drafted": dict(drafted),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="random games per player count")
    parser.add_argument("--decisions", type=int, default=300, help="GreedyBot decisions to time")
    parser.add_argument("--duel", type=int, default=100, help="3-player games of a bot vs two random bots")
    parser.add_argument("--balance", type=int, default=0, help="greedy games per player count (0: skip)")
    args = parser.parse_args(argv)

    gc.collect()
    gps3, inputs3, turns3 = bench_random_games(3, args.games)
    gps6, inputs6, turns6 = bench_random_games(6, max(1, args.games // 2))
    mean, p99, worst, single = bench_decisions(PlannerBot(), args.decisions)
    g_mean, *_ = bench_decisions(GreedyBot(), args.decisions)
    win_rate = duel(args.duel, PlannerBot)
    greedy_rate = duel(args.duel, GreedyBot)
    vs_greedy = duel(args.duel, PlannerBot, GreedyBot)
    ms6 = 1000 / gps6
    rows = [
        (
            "random 3-player game (play_out)",
            f"{gps3:,.1f} games/s",
            f"{1000 / gps3:.1f} ms/game",
            f">= {GAMES_PER_SECOND_TARGET:g}/s",
            gps3 >= GAMES_PER_SECOND_TARGET,
        ),
        ("  inputs / turns per game", f"{inputs3:.0f} / {turns3:.1f}", "", "", None),
        (
            "random 6-player game (play_out)",
            f"{gps6:,.1f} games/s",
            f"{ms6:.1f} ms/game",
            f"< {SIX_PLAYER_TARGET_MS:g} ms",
            ms6 < SIX_PLAYER_TARGET_MS,
        ),
        ("  inputs / turns per game", f"{inputs6:.0f} / {turns6:.1f}", "", "", None),
        ("PlannerBot decision, mean", "", f"{mean:.2f} ms", f"< {DECISION_TARGET_MS:g} ms", mean < DECISION_TARGET_MS),
        ("PlannerBot decision, p99 / max", "", f"{p99:.2f} / {worst:.2f} ms", "", None),
        ("  max single run (machine noise)", "", f"{single:.2f} ms", "", None),
        ("GreedyBot decision, mean", "", f"{g_mean:.3f} ms", "", None),
        (
            f"planner outright wins vs 2 random ({args.duel} games)",
            f"{win_rate:.0%}",
            "",
            f">= {DUEL_TARGET:.0%}",
            win_rate >= DUEL_TARGET,
        ),
        (f"greedy wins vs 2 random ({args.duel} games)", f"{greedy_rate:.0%}", "", "", None),
        (f"planner wins vs 2 greedy ({args.duel} games)", f"{vs_greedy:.0%}", "", "(fair 33%)", None),
    ]
    code = print_report(
        f"Treasure Beasts benchmark ({args.games} games, {args.decisions} decisions)", rows, [36, 20, 22, 12, 4]
    )
    if args.balance:
        for players in (2, 3, 4):
            look = balance(args.balance, players)
            rates: dict[str, float] = look["cards"]  # type: ignore[assignment]
            ranked = sorted(rates.items(), key=lambda kv: kv[1])
            print(
                f"\nbalance, {players} players, {args.balance} greedy games: {look['turns']:.1f} turns "
                f"({look['rounds']:.1f} rounds), first player wins {look['first_player']:.0%} "
                f"(fair: {1 / players:.0%})"
            )
            print("  drafters win least:", json.dumps({k: round(v, 2) for k, v in ranked[:4]}))
            print("  drafters win most: ", json.dumps({k: round(v, 2) for k, v in ranked[-4:]}))
    return code


if __name__ == "__main__":
    sys.exit(main())
