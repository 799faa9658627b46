"""Stratego Junior engine and bot benchmark.

Run from the repository root: ``python -m bench.bench_stratego_junior [--games N] [--decisions N]
[--duel N]``.

Reports random full games per second for Victory (through the pure driver, ``play_out``, and
through the bare ``apply`` loop) and Quest, the Victory bot's decision times, and the Victory and
Quest bots' results against the random bot. Times are CPU time of this process, each batch of 10
games timed 5 times with the best kept (as ``timeit`` does), so that other processes on a busy
machine do not count as the engine's cost. Exits 1 when a target is missed: random Victory games
>= 200/s on one core through the engine (``legal_actions`` + ``apply``; the driver row adds the
core's own bookkeeping, log encoding and a second legality check, and is shown for information),
Victory bot decisions mean and max < 50 ms, the Victory bot winning >= 95 of 100 seeded games
against the random bot.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Callable

from app.games.core import CHANCE, play_out
from app.games.stratego_junior import QUEST_RULES, VICTORY_RULES, RandomBot, StrategoBot, StrategoRules
from bench.report import print_report, time_decisions

GAMES_TARGET = 200.0  #: random Victory games per second
DECISION_TARGET_MS = 50.0
DUEL_TARGET = 0.95

RULES: dict[str, StrategoRules] = {"quest": QUEST_RULES, "victory": VICTORY_RULES}
BATCH = 10


def _best_of(run: Callable[[range], int], games: int, repeats: int = 5) -> tuple[float, float]:
    """(games per CPU second, mean turns): each batch of :data:`BATCH` seeds timed ``repeats``
    times, the best kept."""
    total = 0.0
    turns = 0
    for start in range(0, games, BATCH):
        seeds = range(start, min(games, start + BATCH))
        best = float("inf")
        for _ in range(repeats):  # the best run: other processes' load is not the engine's cost
            t0 = time.process_time()
            turns_here = run(seeds)
            best = min(best, time.process_time() - t0)
        total += best
        turns += turns_here
    return games / total, turns / games


def driver_games(variant: str) -> Callable[[range], int]:
    """Random games through ``play_out`` (the path of the conformance suite and the service)."""
    rules = RULES[variant]

    def run(seeds: range) -> int:
        turns = 0
        for seed in seeds:
            state, _ = play_out(rules, 2, {"variant": variant}, rng=random.Random(seed))
            turns += state.turn
        return turns

    return run


def apply_games(variant: str) -> Callable[[range], int]:
    """Random games through ``apply`` directly (no driver bookkeeping)."""
    rules = RULES[variant]
    options = rules.normalize_options({"variant": variant})

    def run(seeds: range) -> int:
        turns = 0
        for seed in seeds:
            rng = random.Random(seed)
            state = rules.initial_state(2, options)
            while True:
                to_act = rules.to_act(state)
                if not to_act:
                    break
                if CHANCE in to_act:
                    actions = {CHANCE: rules.sample_chance(state, rng)}
                else:
                    actions = {p: rng.choice(rules.legal_actions(state, p)) for p in to_act}
                state, _ = rules.apply(state, actions)
            turns += state.turn
        return turns

    return run


def bench_decisions(decisions: int, repeats: int = 3) -> tuple[float, float, float, float]:
    """The Victory bot on ``decisions`` positions of random games (bot observation, as the
    service gives it). :returns: (mean, p99, max) ms over positions of the best of ``repeats``
    runs, and the max ms of any single run (noisy, for information)."""
    bot = StrategoBot()
    rules = RULES["victory"]
    positions = []
    seed = 0
    while len(positions) < decisions:
        rng = random.Random(20_000 + seed)
        seed += 1
        state = rules.initial_state(2, {})
        while rules.to_act(state) and len(positions) < decisions:
            to_act = rules.to_act(state)
            if state.phase == "play":
                seat = state.to_move
                positions.append((rules.bot_observation(state, seat), rules.legal_actions(state, seat)))
            state, _ = rules.apply(state, {p: rng.choice(rules.legal_actions(state, p)) for p in to_act})
    rng = random.Random(3)
    return time_decisions(bot, positions, rng, repeats, clock=time.process_time)


def duel(variant: str, games: int, seed: int = 1000) -> tuple[int, int, float]:
    """The strong bot against the random bot, alternating colours: (wins, games, CPU s per game)."""
    strong, weak = StrategoBot(), RandomBot()
    rules = RULES[variant]

    def policy(bot):
        def choose(state, seat, rng):
            return bot.choose(rules.bot_observation(state, seat), rules.legal_actions(state, seat), rng)

        return choose

    wins = 0
    t0 = time.process_time()
    for g in range(games):
        seat = g % 2
        state, _ = play_out(
            rules,
            2,
            {"variant": variant},
            rng=random.Random(seed + g),
            policies={seat: policy(strong), 1 - seat: policy(weak)},
        )
        wins += state.outcome.results[seat] == "win"
    return wins, games, (time.process_time() - t0) / max(1, games)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="random games per playout benchmark")
    parser.add_argument("--decisions", type=int, default=300, help="Victory bot decisions to time")
    parser.add_argument("--duel", type=int, default=100, help="bot-against-random games per variant")
    args = parser.parse_args(argv)

    gc.collect()
    v_driver, v_turns = _best_of(driver_games("victory"), args.games)
    v_apply, _ = _best_of(apply_games("victory"), args.games)
    q_driver, q_turns = _best_of(driver_games("quest"), args.games)
    mean_ms, p99_ms, max_ms, single_ms = bench_decisions(args.decisions)
    v_wins, v_games, v_cost = duel("victory", args.duel)
    q_wins, q_games, q_cost = duel("quest", args.duel)
    v_rate = v_wins / max(1, v_games)

    rows = [
        ("random Victory game, play_out", f"{v_driver:,.0f} games/s", f"{1000 / v_driver:.2f} ms/game", "", None),
        (
            "random Victory game, apply only",
            f"{v_apply:,.0f} games/s",
            f"{1000 / v_apply:.2f} ms/game",
            f">= {GAMES_TARGET:g}/s",
            v_apply >= GAMES_TARGET,
        ),
        ("  mean turns per Victory game", f"{v_turns:.0f}", "", "", None),
        ("random Quest game, play_out", f"{q_driver:,.0f} games/s", f"{1000 / q_driver:.2f} ms/game", "", None),
        ("  mean turns per Quest game", f"{q_turns:.0f}", "", "", None),
        (
            "Victory bot decision, mean",
            "",
            f"{mean_ms:.2f} ms",
            f"< {DECISION_TARGET_MS:g} ms",
            mean_ms < DECISION_TARGET_MS,
        ),
        ("Victory bot decision, p99", "", f"{p99_ms:.2f} ms", "", None),
        (
            "Victory bot decision, max",
            "",
            f"{max_ms:.2f} ms",
            f"< {DECISION_TARGET_MS:g} ms",
            max_ms < DECISION_TARGET_MS,
        ),
        ("  max single run (machine noise)", "", f"{single_ms:.2f} ms", "", None),
        (
            "Victory bot vs random, wins",
            f"{v_wins}/{v_games}",
            f"{v_cost:.2f} s/game",
            f">= {DUEL_TARGET:.0%}",
            v_rate >= DUEL_TARGET,
        ),
        ("Quest bot vs random, wins", f"{q_wins}/{q_games}", f"{q_cost:.3f} s/game", "", None),
    ]
    title = (
        f"Stratego Junior benchmark ({args.games} random games per row, {args.decisions} decisions, "
        f"{args.duel} bot games per variant; CPU time)"
    )
    return print_report(title, rows, [34, 18, 16, 12, 4])


if __name__ == "__main__":
    sys.exit(main())
