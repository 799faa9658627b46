"""Scratch Wars engine and bot benchmark.

Run from the repository root: ``python -m bench.bench_scratch_wars [--games N] [--decisions N]``.

Reports random level-3 duels per second on one core (through the pure driver, ``play_out``, which
also encodes and checks every action, and through the bare ``apply`` loop), the mean length of a
random duel, and the computer players' decision times on positions of greedy-against-greedy duels.
Times are the process's CPU time (``time.process_time``), so other processes on a shared machine do
not count; playouts are measured in several rounds and each decision 3 times, the best kept (as
``timeit`` does).
Exits 1 when a target is missed: at least 300 random level-3 duels per second through the driver,
ExpectimaxBot's mean decision under 100 ms.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from typing import Any

from app.games.core import CHANCE, play_out
from app.games.scratch_wars import ScratchWars
from app.games.scratch_wars.bots import ExpectimaxBot, GreedyBot
from bench.report import print_report, time_decisions

DUELS_PER_SECOND_TARGET = 300.0
BOT_MEAN_TARGET_MS = 100.0

RULES = ScratchWars()
OPTIONS = RULES.normalize_options({"level": 3})


def bench_driver_duels(games: int, rounds: int) -> tuple[float, float, float]:
    """Random level-3 duels through ``play_out``: (best duels per second, mean inputs, mean rounds)."""
    best, inputs, duel_rounds = 0.0, 0, 0
    for r in range(rounds):
        gc.collect()
        t0 = time.process_time()
        for seed in range(games):
            state, log = play_out(RULES, 2, OPTIONS, rng=random.Random(seed))
            if r == 0:
                inputs += len(log)
                duel_rounds += state.round
        best = max(best, games / (time.process_time() - t0))
    return best, inputs / games, duel_rounds / games


def bench_apply_duels(games: int, rounds: int) -> float:
    """Random level-3 duels through ``apply`` directly (no driver bookkeeping): best duels per second."""
    best = 0.0
    for _ in range(rounds):
        gc.collect()
        t0 = time.process_time()
        for seed in range(games):
            rng = random.Random(seed)
            state = RULES.initial_state(2, OPTIONS)
            while True:
                to_act = RULES.to_act(state)
                if not to_act:
                    break
                if CHANCE in to_act:
                    actions = {CHANCE: RULES.sample_chance(state, rng)}
                else:
                    actions = {p: rng.choice(RULES.legal_actions(state, p)) for p in to_act}
                state, _ = RULES.apply(state, actions)
        best = max(best, games / (time.process_time() - t0))
    return best


def decision_positions(count: int, seed: int = 7) -> list[tuple[dict, tuple, int]]:
    """``count`` decision points (observation, legal actions, seat) of greedy-against-greedy duels
    with random heroes, every phase included (loadouts, start, main, decide, target, shield, combo)."""
    greedy = GreedyBot()
    positions: list[tuple[dict, tuple, int]] = []
    g = 0
    while len(positions) < count:
        rng = random.Random(seed * 1000 + g)
        g += 1
        state = RULES.initial_state(2, OPTIONS)
        while RULES.to_act(state) and len(positions) < count:
            to_act = RULES.to_act(state)
            if CHANCE in to_act:
                state, _ = RULES.apply(state, {CHANCE: RULES.sample_chance(state, rng)})
                continue
            actions = {}
            for seat in to_act:
                obs, legal = RULES.bot_observation(state, seat), RULES.legal_actions(state, seat)
                if len(legal) > 1:
                    positions.append((obs, legal, seat))
                actions[seat] = greedy.choose(obs, legal, rng)
            state, _ = RULES.apply(state, actions)
    return positions[:count]


def bench_bot(bot: Any, positions: list, repeats: int = 3) -> tuple[float, float, float, float]:
    """(mean ms, p99 ms, max ms) over positions of the best of ``repeats`` runs, and the slowest
    single run (noisy, for information)."""
    rng = random.Random(3)
    return time_decisions(bot, positions, rng, repeats, clock=time.process_time)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="random duels per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per playout measure (best kept)")
    parser.add_argument("--decisions", type=int, default=300, help="bot decisions to time")
    args = parser.parse_args(argv)

    driver_dps, mean_inputs, mean_rounds = bench_driver_duels(args.games, args.rounds)
    apply_dps = bench_apply_duels(args.games, args.rounds)
    positions = decision_positions(args.decisions)
    x_mean, x_p99, x_max, x_single = bench_bot(ExpectimaxBot(), positions)
    g_mean, _g_p99, g_max, _ = bench_bot(GreedyBot(), positions, repeats=1)

    rows = [
        (
            "random L3 duel via driver.play_out",
            f"{driver_dps:,.0f} duels/s",
            f"{1000 / driver_dps:.2f} ms/duel",
            f">= {DUELS_PER_SECOND_TARGET:g}/s",
            driver_dps >= DUELS_PER_SECOND_TARGET,
        ),
        ("random L3 duel via apply only", f"{apply_dps:,.0f} duels/s", f"{1000 / apply_dps:.2f} ms/duel", "", None),
        ("  mean inputs / rounds per duel", f"{mean_inputs:.0f} / {mean_rounds:.1f}", "", "", None),
        (
            "ExpectimaxBot decision, mean",
            "",
            f"{x_mean:.2f} ms",
            f"< {BOT_MEAN_TARGET_MS:g} ms",
            x_mean < BOT_MEAN_TARGET_MS,
        ),
        ("ExpectimaxBot decision, p99", "", f"{x_p99:.2f} ms", "", None),
        ("ExpectimaxBot decision, max", "", f"{x_max:.2f} ms", "", None),
        ("  max single run (machine noise)", "", f"{x_single:.2f} ms", "", None),
        ("GreedyBot decision, mean / max", "", f"{g_mean:.3f} / {g_max:.2f} ms", "", None),
    ]
    title = (
        f"Scratch Wars benchmark ({args.rounds} x {args.games} random level-3 duels, {len(positions)} decisions; "
        "CPU time)"
    )
    return print_report(title, rows, [36, 20, 20, 12, 4])


if __name__ == "__main__":
    sys.exit(main())
