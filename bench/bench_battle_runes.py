"""Battle Runes engine benchmark.

Run from the repository root: ``python -m bench.bench_battle_runes [--games N] [--decisions N]``.

Reports random full-game playouts (through the pure driver, ``play_out``, and through the bare
``apply`` loop), turn resolutions per second, and NashBot decision times (each position timed 3
times, best kept). Exits 1 when a target is missed: mean random game < 5 ms, NashBot mean and max
decision < 50 ms.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time

from app.games.battle_runes import (
    BattleRunes,
    NashBot,
    ResolveOptions,
    hand_picks,
    resolve_turn,
    settle_scores,
    sort_runes,
)
from app.games.battle_runes.data import DECK
from app.games.core import CHANCE, play_out
from bench.report import print_report, time_decisions

GAME_TARGET_MS = 5.0
NASH_TARGET_MS = 50.0

RULES = BattleRunes()


def bench_driver_games(games: int) -> tuple[float, float]:
    """Random games through ``play_out``: (games per second, mean turns)."""
    turns = 0
    t0 = time.perf_counter()
    for seed in range(games):
        state, _ = play_out(RULES, 2, rng=random.Random(seed))
        turns += state.turn
    elapsed = time.perf_counter() - t0
    return games / elapsed, turns / games


def bench_apply_games(games: int) -> float:
    """Random games through ``apply`` directly (no driver bookkeeping): games per second."""
    t0 = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = RULES.initial_state(2, {})
        while True:
            to_act = RULES.to_act(state)
            if not to_act:
                break
            if CHANCE in to_act:
                actions = {CHANCE: RULES.sample_chance(state, rng)}
            else:
                actions = {p: rng.choice(RULES.legal_actions(state, p)) for p in (0, 1)}
            state, _ = RULES.apply(state, actions)
    return games / (time.perf_counter() - t0)


def random_pick_pairs(count: int, seed: int = 1) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """``count`` random (pick A, pick B) from random hands."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(count):
        picks = []
        for _seat in (0, 1):
            hand = sort_runes(rng.sample(DECK, 5))
            picks.append(rng.choice(hand_picks(hand)).runes)
        pairs.append((picks[0], picks[1]))
    return pairs


def bench_resolutions(count: int) -> tuple[float, float]:
    """(full breakdowns per second, score-only resolutions per second)."""
    pairs = random_pick_pairs(count)
    t0 = time.perf_counter()
    for pair in pairs:
        resolve_turn(pair, (25, 25))
    full = count / (time.perf_counter() - t0)
    options = ResolveOptions()
    t0 = time.perf_counter()
    for a, b in pairs:
        settle_scores(a, b, (25, 25), options)
    fast = count / (time.perf_counter() - t0)
    return full, fast


def bench_nash(decisions: int, repeats: int = 3) -> tuple[float, float, float, float]:
    """NashBot on ``decisions`` positions (both seats) of random games.

    A decision is a deterministic computation, so each position is timed ``repeats`` times and its
    best time taken (as ``timeit`` does): a preemption by another process on a busy machine is not
    the bot's cost. :returns: (mean ms, p99 ms, max ms) over positions of the best times, and the
    max ms of any single run (noisy, for information).
    """
    bot = NashBot()
    rng = random.Random(3)
    positions = []
    seed = 0
    while len(positions) < decisions:
        game_rng = random.Random(10_000 + seed)
        seed += 1
        state = RULES.initial_state(2, {})
        while RULES.to_act(state) and len(positions) < decisions:
            if RULES.to_act(state) == {CHANCE}:
                state, _ = RULES.apply(state, {CHANCE: RULES.sample_chance(state, game_rng)})
                continue
            for seat in (0, 1):
                positions.append((RULES.observe(state, seat), RULES.legal_actions(state, seat)))
            state, _ = RULES.apply(state, {p: game_rng.choice(RULES.legal_actions(state, p)) for p in (0, 1)})
    positions = positions[:decisions]
    bot.choose(*positions[0], rng)  # warm-up: scipy's first call loads HiGHS
    return time_decisions(bot, positions, rng, repeats, clock=time.perf_counter)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="random games per playout benchmark")
    parser.add_argument("--resolutions", type=int, default=50_000, help="turns to resolve")
    parser.add_argument("--decisions", type=int, default=400, help="NashBot decisions to time")
    args = parser.parse_args(argv)

    gc.collect()
    driver_gps, mean_turns = bench_driver_games(args.games)
    apply_gps = bench_apply_games(args.games)
    full_rps, fast_rps = bench_resolutions(args.resolutions)
    nash_mean, nash_p99, nash_max, nash_single = bench_nash(args.decisions)

    driver_ms = 1000 / driver_gps
    rows = [
        (
            "random game via driver.play_out",
            f"{driver_gps:,.0f} games/s",
            f"{driver_ms:.3f} ms/game",
            f"< {GAME_TARGET_MS:g} ms",
            driver_ms < GAME_TARGET_MS,
        ),
        (
            "random game via apply only",
            f"{apply_gps:,.0f} games/s",
            f"{1000 / apply_gps:.3f} ms/game",
            f"< {GAME_TARGET_MS:g} ms",
            1000 / apply_gps < GAME_TARGET_MS,
        ),
        ("  mean turns per random game", f"{mean_turns:.1f}", "", "", None),
        ("resolve_turn (full breakdown)", f"{full_rps:,.0f} turns/s", f"{1e6 / full_rps:.1f} us/turn", "", None),
        ("settle_scores (bots' fast path)", f"{fast_rps:,.0f} turns/s", f"{1e6 / fast_rps:.1f} us/turn", "", None),
        ("NashBot decision, mean", "", f"{nash_mean:.2f} ms", f"< {NASH_TARGET_MS:g} ms", nash_mean < NASH_TARGET_MS),
        ("NashBot decision, p99", "", f"{nash_p99:.2f} ms", "", None),
        ("NashBot decision, max", "", f"{nash_max:.2f} ms", f"< {NASH_TARGET_MS:g} ms", nash_max < NASH_TARGET_MS),
        ("  max single run (machine noise)", "", f"{nash_single:.2f} ms", "", None),
    ]
    title = f"Battle Runes benchmark ({args.games} games, {args.resolutions} resolutions, {args.decisions} decisions)"
    return print_report(title, rows, [34, 18, 16, 10, 4])


if __name__ == "__main__":
    sys.exit(main())
