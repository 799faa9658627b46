"""Choosing Stratego Junior actions for the browser tests, from JSON views and ``legal`` lists as
the match page gets them (no Playwright here, so the choices can be simulated on the engine alone).

A test drives a page with these choices by clicking the squares and buttons they name. The
choices are "sensible" so that a match ends by a flag capture in a few dozen turns:

* :func:`victory_choice`: tower attacks first (the flag when the driver may peek at the owner's
  view), then winning attacks, then moves towards the opponent's back row.
* :func:`quest_choice`: flips a castle that matches the die when it knows one, opens the way to
  the back row, and picks towers in a chosen order (``tower_plan``), so that a test can make sure
  the Jester and the Black Knight come up before the Flag.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

JSON = Any
STRENGTH = {"king": 6, "princess": 5, "knight": 4, "unicorn": 3, "dwarf": 2, "wizard": 1, "dragon": None}
BEATS = {"dwarf": {"dragon"}, "wizard": {"king"}}


def combat(attacker: str, defender: str) -> int:
    """Victory combat (spec 5.2): 1 the attacker wins, -1 the defender wins, 0 both removed."""
    if defender in BEATS.get(attacker, ()):
        return 1
    if attacker in BEATS.get(defender, ()) or STRENGTH[defender] is None:
        return -1
    a, d = STRENGTH[attacker], STRENGTH[defender]
    return 1 if a > d else -1 if a < d else 0


def _identities(view: Mapping[str, JSON], owner: int) -> dict[tuple[int, int], str | None]:
    return {tuple(c["sq"]): c.get("piece") for c in view["castles"] if c["owner"] == owner}


def _tower_pieces(view: Mapping[str, JSON] | None, owner: int) -> dict[int, str | None]:
    if view is None:
        return {}
    return {t["tower"]: t.get("piece") for t in view["towers"][owner] if not t.get("empty")}


def victory_choice(
    view: Mapping[str, JSON],
    legal: Sequence[JSON],
    rng: random.Random,
    peek: Mapping[str, JSON] | None = None,
    *,
    careful: bool = True,
) -> JSON:
    """A Victory action for the seat of ``view``.

    :param peek: the opponent's own view (its identities), or None to play without peeking
        (unknown castles are then attacked by strong castles only).
    :param careful: never attack when the peeked defender would win.
    """
    me = view["seat"]
    opp = 1 - me
    mine = _identities(view, me)
    theirs = _identities(peek, opp) if peek is not None else _identities(view, opp)
    towers = _tower_pieces(peek, opp)
    target = view["geometry"]["back_rows"][opp]
    few_movers = sum(1 for p in mine.values() if p not in (None, "dragon")) <= 2
    last_mover = peek is not None and sum(1 for p in theirs.values() if p not in (None, "dragon")) <= 1
    best, best_score = None, -1e9
    for action in legal:
        score = rng.random()
        if "attack_tower" in action:
            piece = towers.get(action["attack_tower"]["tower"])
            score += {"flag": 1000, "jester": 300, "black_knight": -50}.get(piece, 400)
        elif "attack" in action:
            a = mine.get(tuple(action["attack"]["from"]))
            d = theirs.get(tuple(action["attack"]["to"]))
            if a is None:
                score -= 50
            elif d is None:  # unknown: only strong castles dare
                score += 40 * ((STRENGTH[a] or 0) - 3)
            else:
                res = combat(a, d)
                fr, to = action["attack"]["from"][0], action["attack"]["to"][0]
                gain = abs(fr - target) - abs(to - target)
                if res > 0:
                    score += 40 + 12 * gain + (60 if to == target else 0)
                    if last_mover and STRENGTH.get(d) is not None:
                        score -= 500  # leave them a castle to move, so the game ends by the flag
                else:
                    score += (-100 if few_movers else 5) if res == 0 else (-300 if careful else -20)
        else:
            move = action["move"]
            fr, to = move["from"][0], move["to"][0]
            gain = abs(fr - target) - abs(to - target)
            score += 12 * gain + (60 if to == target else 0)
        if score > best_score:
            best, best_score = action, score
    return best


def quest_choice(
    view: Mapping[str, JSON],
    legal: Sequence[JSON],
    rng: random.Random,
    peek: Mapping[str, JSON] | None = None,
    *,
    tower_plan: Sequence[str] = ("flag",),
    hopeless: bool = False,
) -> JSON:
    """A Quest action for the seat of ``view``.

    :param peek: the opponent's own view: flips then pick a castle that matches the die, and tower
        attacks follow ``tower_plan`` (piece ids in the order to attack them; the first one still
        standing is chosen).
    :param hopeless: flip a castle that does not match the die (a test opponent that never
        opens a way, so the other player's plan runs to its end).
    """
    me = view["seat"]
    opp = 1 - me
    theirs = _identities(peek, opp) if peek is not None else _identities(view, opp)
    towers = [a for a in legal if "attack_tower" in a]
    if towers:
        by_piece = _tower_pieces(peek, opp)
        for wanted in tower_plan:
            for a in towers:
                if by_piece.get(a["attack_tower"]["tower"]) == wanted:
                    return a
        if not any("roll" in a for a in legal) or peek is None:
            return towers[rng.randrange(len(towers))]
    flips = [a for a in legal if "flip" in a]
    if flips:
        die = view["die"]
        matching = [a for a in flips if theirs.get(tuple(a["flip"])) == die]
        other = [a for a in flips if a not in matching]
        if hopeless and other:
            return other[rng.randrange(len(other))]
        if matching:  # the deepest one first: it opens the way to the back row
            back = view["geometry"]["back_rows"][opp]
            return min(matching, key=lambda a: (abs(a["flip"][0] - back), rng.random()))
        unknown = [a for a in flips if theirs.get(tuple(a["flip"])) is None]
        pool = unknown or flips
        return pool[rng.randrange(len(pool))]
    if any("roll" in a for a in legal):
        return next(a for a in legal if "roll" in a)
    places = [a for a in legal if "place" in a]
    if places:
        return places[rng.randrange(len(places))]
    return legal[rng.randrange(len(legal))]
