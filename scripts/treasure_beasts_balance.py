"""Treasure Beasts balance report: bot-against-bot games at 2, 3 and 4 players.

Run from the repository root::

    .venv/bin/python scripts/treasure_beasts_balance.py [--games 400] [--seed 2026] [--players 2 3 4]
                                                        [--duel 100] [--out docs/treasure_beasts_balance.md]

Every seat is played by :class:`~app.games.treasure_beasts.bots.GreedyBot`, the stronger of the
fast levels: it drafts by its card value (the planner drafts the same way) and plays by rules of
thumb. For each player count the report gives the game length (turns and rounds), how the games
ended, the first player's win rate against the fair share, and per card: how often the bot took it
when it was in its pack (pick rate), how often it was drafted, how often it sat in the winner's
drafted deck, and its drafters' win rate against the fair share. A card whose drafters win more
than 12 points above (or below) the fair share, over at least 40 drafts, is listed as an outlier
with its numbers. With ``--duel N`` (default 100) it also plays N three-player games of the
strongest computer level (:class:`~app.games.treasure_beasts.planner.PlannerBot`, seat rotating)
against two random bots and counts its outright wins (the issue's target: at least 80 of 100).

Exit status 1 when a card is an outlier at every player count, or the duel misses its target.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.games.core import CHANCE  # noqa: E402
from app.games.treasure_beasts import RULES, GreedyBot, PlannerBot, RandomBot  # noqa: E402
from app.games.treasure_beasts.actions import Pick  # noqa: E402
from app.games.treasure_beasts.state import DRAFT, State  # noqa: E402

DEFAULT_OUT = ROOT / "docs" / "treasure_beasts_balance.md"
OUTLIER_POINTS = 0.12  #: a card's drafters' win rate this far from the fair share is an outlier
OUTLIER_MIN_DRAFTS = 40
DUEL_TARGET = 0.8


@dataclass
class CardTally:
    """One card at one player count: ``offered`` (packs it was in when the bot picked),
    ``picked``, ``games`` (games it was drafted in, per drafter), ``wins`` (of its drafters),
    ``in_winner`` (games it was in the winner's drafted deck)."""

    offered: int = 0
    picked: int = 0
    games: int = 0
    wins: int = 0
    in_winner: int = 0


@dataclass
class Field:
    """What the games at one player count gave."""

    players: int
    games: int = 0
    turns: list[int] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)
    first_wins: int = 0
    seat_wins: Counter[int] = field(default_factory=Counter)
    cards: dict[str, CardTally] = field(default_factory=dict)
    seconds: float = 0.0

    def card(self, card: str) -> CardTally:
        return self.cards.setdefault(card, CardTally())

    @property
    def fair(self) -> float:
        return 1 / self.players

    def outliers(self) -> list[tuple[str, CardTally, float]]:
        """Cards drafted at least :data:`OUTLIER_MIN_DRAFTS` times whose drafters' win rate is more
        than :data:`OUTLIER_POINTS` from the fair share, furthest first."""
        out = []
        for card, t in self.cards.items():
            if t.games >= OUTLIER_MIN_DRAFTS and abs(t.wins / t.games - self.fair) > OUTLIER_POINTS:
                out.append((card, t, t.wins / t.games - self.fair))
        return sorted(out, key=lambda x: -abs(x[2]))


def play_game(
    players: int, seed: int, policies: Mapping[int, Any], options: Mapping[str, Any] | None = None
) -> tuple[State, list[list[str]], list[tuple[int, tuple[str, ...], str]]]:
    """One game: chance from ``seed``, each seat by its bot, the match ``options`` (default: the
    game's). Returns the final state, each seat's drafted cards, and every draft decision as
    (seat, pack, pick)."""
    rng = random.Random(seed)
    state = RULES.initial_state(players, RULES.normalize_options(options or {}))
    drafted: list[list[str]] = [[] for _ in range(players)]
    decisions: list[tuple[int, tuple[str, ...], str]] = []
    while True:
        to_act = RULES.to_act(state)
        if not to_act:
            return state, drafted, decisions
        if CHANCE in to_act:
            state, _ = RULES.apply(state, {CHANCE: RULES.sample_chance(state, rng)})
            continue
        chosen = {}
        for seat in sorted(to_act):
            bot = policies[seat]
            action = bot.choose(RULES.bot_observation(state, seat), RULES.legal_actions(state, seat), rng)
            chosen[seat] = action
            if state.phase == DRAFT and isinstance(action, Pick):
                drafted[seat].append(action.card)
                decisions.append((seat, state.players[seat].pack, action.card))
        state, _ = RULES.apply(state, chosen)


def run_field(players: int, games: int, seed: int, options: Mapping[str, Any] | None = None) -> Field:
    """``games`` greedy-vs-greedy games at ``players`` seats."""
    f = Field(players)
    bots = {s: GreedyBot() for s in range(players)}
    t0 = time.process_time()
    for game in range(games):
        state, drafted, decisions = play_game(players, seed * 1000 + game, bots, options)
        outcome = state.outcome
        assert outcome is not None
        winners = set(outcome.winners)
        f.games += 1
        f.turns.append(state.turn)
        f.reasons[outcome.reason] += 1
        f.first_wins += 0 in winners
        for s in winners:
            f.seat_wins[s] += 1
        for _seat, pack, pick in decisions:
            for card in set(pack):
                f.card(card).offered += 1
            f.card(pick).picked += 1
        for seat, cards in enumerate(drafted):
            for card in set(cards):
                t = f.card(card)
                t.games += 1
                t.wins += seat in winners
                t.in_winner += seat in winners
    f.seconds = time.process_time() - t0
    return f


def duel(games: int, seed: int) -> tuple[int, int]:
    """PlannerBot in one seat (rotating) against two RandomBots, 3 players: (outright wins, games)."""
    wins = 0
    for game in range(games):
        seat = game % 3
        bots = {s: (PlannerBot() if s == seat else RandomBot()) for s in range(3)}
        state, _, _ = play_game(3, seed * 7919 + game, bots)
        assert state.outcome is not None
        wins += state.outcome.winners == (seat,)
    return wins, games


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def report(fields: Sequence[Field], duel_result: tuple[int, int] | None, args: argparse.Namespace) -> str:
    """The Markdown report."""
    names = RULES.book.cards
    lines = [
        "# Treasure Beasts balance report",
        "",
        f"Generated by `scripts/treasure_beasts_balance.py` (`--games {args.games} --seed {args.seed} "
        f"--players {' '.join(map(str, args.players))} --duel {args.duel}`).",
        "",
        "Every seat is played by the greedy bot (it drafts by its card value, as the planner does). "
        f"Outlier: a card whose drafters win more than {round(100 * OUTLIER_POINTS)} points above or below the fair "
        f"share (1 / players), over at least {OUTLIER_MIN_DRAFTS} drafts. Pick rate: how often the bot took the card "
        "when it was in its pack. In winner's deck: the share of games the winner had drafted it.",
        "",
        "## Game length and the first player",
        "",
        "| players | games | mean turns | mean rounds | median rounds | endings | first player wins | fair | seat win rates | CPU s |",
        "|---:|---:|---:|---:|---:|---|---:|---:|---|---:|",
    ]
    for f in fields:
        rounds = [t / f.players for t in f.turns]
        endings = ", ".join(f"{k} {v}" for k, v in f.reasons.most_common())
        seats = " / ".join(pct(f.seat_wins[s] / f.games) for s in range(f.players))
        lines.append(
            f"| {f.players} | {f.games} | {statistics.fmean(f.turns):.1f} | {statistics.fmean(rounds):.1f} | "
            f"{statistics.median(rounds):.1f} | {endings} | **{pct(f.first_wins / f.games)}** | {pct(f.fair)} | "
            f"{seats} | {f.seconds:.0f} |"
        )
    for f in fields:
        lines += [
            "",
            f"## {f.players} players: the cards",
            "",
            "| card | name | pick rate | drafted (games) | in winner's deck | drafters' win rate | vs fair |",
            "|---|---|---:|---:|---:|---:|---:|",
        ]
        for card, t in sorted(f.cards.items(), key=lambda kv: -(kv[1].wins / kv[1].games if kv[1].games else 0)):
            rate = t.wins / t.games if t.games else 0.0
            lines.append(
                f"| `{card}` | {names[card].name} | {pct(t.picked / t.offered if t.offered else 0)} | {t.games} | "
                f"{pct(t.in_winner / f.games)} | {pct(rate)} | {100 * (rate - f.fair):+.1f} |"
            )
        out = f.outliers()
        lines += [
            "",
            f"Outliers at {f.players} players: "
            + (
                ", ".join(
                    f"`{c}` {pct(t.wins / t.games)} over {t.games} drafts ({100 * d:+.1f} points)" for c, t, d in out
                )
                if out
                else "none"
            )
            + ".",
        ]
    if duel_result is not None:
        wins, games = duel_result
        lines += [
            "",
            "## The strongest level against random",
            "",
            f"The planner (one seat, rotating) against two random bots in 3-player games: **{wins} outright wins of "
            f"{games}** (target: at least {round(DUEL_TARGET * games)}).",
        ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per player count")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--duel", type=int, default=100, help="planner vs 2 random games (0: skip)")
    parser.add_argument("--options", type=json.loads, default={}, help="match options as JSON (default: the game's)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write the Markdown ('-': nowhere)")
    args = parser.parse_args(argv)
    fields = []
    for players in args.players:
        f = run_field(players, args.games, args.seed + players, args.options)
        fields.append(f)
        rounds = statistics.fmean(t / players for t in f.turns)
        print(
            f"{players} players, {f.games} games: {statistics.fmean(f.turns):.1f} turns ({rounds:.1f} rounds), "
            f"first player wins {pct(f.first_wins / f.games)} (fair {pct(f.fair)}), endings {dict(f.reasons)}, "
            f"{f.seconds:.0f} CPU s",
            flush=True,
        )
        for card, t, d in f.outliers():
            print(f"  outlier {card}: drafters win {pct(t.wins / t.games)} over {t.games} drafts ({100 * d:+.1f})")
    duel_result = None
    if args.duel:
        duel_result = duel(args.duel, args.seed)
        print(f"planner vs 2 random, 3 players: {duel_result[0]} outright wins of {duel_result[1]}", flush=True)
    text = report(fields, duel_result, args)
    if str(args.out) != "-":
        args.out.write_text(text, encoding="utf-8")
        print(f"written to {args.out}")
    always = set.intersection(*({c for c, _, _ in f.outliers()} for f in fields)) if fields else set()
    failed = bool(always) or (duel_result is not None and duel_result[0] < DUEL_TARGET * duel_result[1])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
