"""Stratego Junior computer players (core :class:`~app.games.core.rules.Bot`), easiest first.

Every bot decides from what ``StrategoRules.bot_observation`` gives its seat (its own castles,
the positions of the opponent's, the identities it has seen revealed, which castles have moved)
and its legal actions; randomness comes only from the injected ``rng``. Bots cannot time
themselves (``app/games`` does not import ``time``), so ``budget_ms`` sets an amount of work: the
number of sampled worlds of :class:`SearchBot`, calibrated to stay well inside the budget.

* :class:`RandomBot`: a uniformly random legal action; for the setup a uniformly random placement.
* :class:`QuestBot` (Quest): remembers every flip; flips a castle known to match the die, otherwise
  the unknown castle on the cheapest path to the back row (known dragons are walls, known
  non-matching castles cost a turn); attacks a tower as soon as it has access.
* :class:`SearchBot` (Victory): samples the opponent's hidden castles consistently with what it has
  seen (the side's counts minus the identities revealed, alive or removed; castles that moved are
  not dragons), then searches two plies in each sampled world: each of its actions, then the
  opponent's most damaging attack or tower attack (or a quiet move). Tower attacks are valued
  exactly over what the towers can still hide. The leaf evaluation counts material, progress
  towards the opponent's back row and the value of standing on a back row.
* :class:`StrategoBot`: the registered strong level; Quest -> :class:`QuestBot`, Victory ->
  :class:`SearchBot`.
"""

from __future__ import annotations

import heapq
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from .actions import Attack, Flip, Move, Place, PlaceTower, StrategoAction, TowerAttack
from .data import ATTACKER, BOTH, DATA, DEFENDER
from .setup import random_setup, sensible_setup

JSON = Any
D = DATA


def _sq(pair: Sequence[int]) -> int:
    return pair[0] * D.columns + pair[1]


class RandomBot:
    """A uniformly random legal action (the easy level); a uniformly random valid setup."""

    name: ClassVar[str] = "random"

    def choose(
        self, observation: Mapping[str, JSON], legal: Sequence[StrategoAction], rng: random.Random, budget_ms: int = 50
    ) -> StrategoAction:
        """:returns: one element of ``legal`` (or any valid setup during the setup phase).
        :raises IndexError: ``legal`` is empty."""
        if observation.get("phase") == "setup":
            return random_setup(rng)
        return legal[rng.randrange(len(legal))]


# ============================================================================== Quest


class QuestBot:
    """Quest play from memory (spec section 4); see the module docstring."""

    name: ClassVar[str] = "quest"

    def choose(
        self, observation: Mapping[str, JSON], legal: Sequence[StrategoAction], rng: random.Random, budget_ms: int = 50
    ) -> StrategoAction:
        """:returns: one element of ``legal`` (or a sensible setup during the setup phase)."""
        if observation.get("phase") == "setup":
            return sensible_setup(rng)
        if len(legal) == 1:
            return legal[0]
        towers = [a for a in legal if isinstance(a, TowerAttack)]
        if towers:  # access: a tower attack wins a third of the time at worst, and a roll gains nothing
            return towers[rng.randrange(len(towers))]
        flips = [a for a in legal if isinstance(a, Flip)]
        if flips:
            return self._flip(observation, flips, rng)
        places = [a for a in legal if isinstance(a, Place | PlaceTower)]
        if places:  # returned castles: the squares are all equivalent for the die
            return places[rng.randrange(len(places))]
        return legal[rng.randrange(len(legal))]

    def _flip(self, observation: Mapping[str, JSON], flips: Sequence[Flip], rng: random.Random) -> Flip:
        me = observation["seat"]
        opp = 1 - me
        die = observation.get("die")
        known: dict[int, str] = {}
        occupied: set[int] = set()
        for p in observation["castles"]:
            if p["owner"] == opp:
                sq = _sq(p["sq"])
                occupied.add(sq)
                if "piece" in p:
                    known[sq] = p["piece"]
        cost = _quest_costs(opp, occupied, known)
        matching = [a for a in flips if known.get(a.square) == die]
        if matching:
            return min(matching, key=lambda a: (cost.get(a.square, 99), rng.random()))
        unknown = [a for a in flips if a.square not in known]
        if unknown:
            return min(unknown, key=lambda a: (cost.get(a.square, 99), rng.random()))
        not_dragons = [a for a in flips if D.movable[D.index[known[a.square]]]]
        pool = not_dragons or list(flips)
        return pool[rng.randrange(len(pool))]


def _quest_costs(opp: int, occupied: set[int], known: Mapping[int, str]) -> dict[int, int]:
    """For each square of ``opp``'s formation: the fewest castles still to remove, after this one,
    to reach ``opp``'s back row from it (known dragons are walls). Dijkstra from the back row."""
    formation = D.formation_squares[opp]
    dragon = {sq for sq, k in known.items() if not D.movable[D.index[k]]}

    def enter(sq: int) -> int:
        return 1 if sq in occupied else 0

    dist: dict[int, int] = {}
    heap = [(0, sq) for sq in D.back_row[opp] if sq not in dragon]
    heapq.heapify(heap)
    while heap:
        d, sq = heapq.heappop(heap)
        if sq in dist:
            continue
        dist[sq] = d
        for n in D.adj[sq]:
            if n in formation and n not in dist and n not in dragon:
                heapq.heappush(heap, (d + enter(sq), n))
    return dist


# ============================================================================== Victory

WIN = 100.0
#: How much of the expected tower-attack value a castle standing on a back row is worth now (the
#: opponent moves before it can attack).
BACK_ROW_SHARE = 0.7
#: A jester leaves the attacker in place for another attack next turn, worth this share of it.
JESTER_SHARE = 0.8
PROGRESS = 0.3  #: per row a movable castle has advanced
NEAR_BACK_ROW = 2.0  #: a movable castle next to the opponent's back row
BEATS_BONUS = 2.0  #: a specialist whose victims are still on the board
#: The opponent model: its most damaging reply with this weight, otherwise any of its actions.
REPLY_WORST = 0.5
#: Weight of log(1 + movable castles): the last castles that can still move are worth more, since
#: a side that cannot move loses (AMBIGUITY 8); even trades favour the side with more of them.
ARMY = 10.0
_LOG = tuple(math.log1p(n) for n in range(DATA.squares + 1))


def _base_values() -> tuple[float, ...]:
    out = []
    for k in range(len(D.kinds)):
        s = D.strength[k]
        if k in D.big:
            out.append(0.0)
        elif s is None:
            out.append(3.0)  # a dragon: a wall that only dwarves remove
        else:
            out.append(2.0 + s)
    return tuple(out)


VALUES = _base_values()


class _World:
    """One sampled world for :class:`SearchBot`: per square its owner (-1 empty) and kind."""

    __slots__ = ("kind", "owner")

    def __init__(self, owner: list[int], kind: list[int]) -> None:
        self.owner = owner
        self.kind = kind


class SearchBot:
    """Victory: determinized two-ply search (see the module docstring).

    :param samples: sampled worlds per decision; ``None``: from ``budget_ms`` (50 ms -> 8).
    """

    name: ClassVar[str] = "search"

    def __init__(self, samples: int | None = None) -> None:
        self.samples = samples

    def choose(
        self, observation: Mapping[str, JSON], legal: Sequence[StrategoAction], rng: random.Random, budget_ms: int = 50
    ) -> StrategoAction:
        """:returns: one element of ``legal`` (or a sensible setup during the setup phase)."""
        if observation.get("phase") == "setup":
            return sensible_setup(rng)
        if len(legal) == 1:
            return legal[0]
        samples = self.samples or max(2, min(16, budget_ms // 6))
        view = _View(observation)
        worlds = [view.sample(rng) for _ in range(samples)]
        best: list[StrategoAction] = []
        best_value = -1e18
        for action in legal:
            value = view.action_value(action, worlds)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif value > best_value - 1e-9:
                best.append(action)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


class _View:
    """What the bot knows, parsed from its observation, plus the search itself."""

    def __init__(self, obs: Mapping[str, JSON]) -> None:
        me = obs["seat"]
        opp = 1 - me
        self.me, self.opp = me, opp
        n = D.squares
        owner = [-1] * n
        kind = [-1] * n
        moved: set[int] = set()
        seen: Counter[int] = Counter()  # the opponent's identities seen, alive or removed
        for p in obs["castles"]:
            sq = _sq(p["sq"])
            owner[sq] = p["owner"]
            if "piece" in p:
                kind[sq] = D.index[p["piece"]]
                if p["owner"] == opp:
                    seen[kind[sq]] += 1
            if p.get("moved"):
                moved.add(sq)
        opp_big_out = []
        for p in obs["removed"][opp]:
            if "piece" not in p:  # removed unseen (a Black Knight's victim): still in the pool
                continue
            k = D.index[p["piece"]]
            if k in D.big:
                opp_big_out.append(k)
            else:
                seen[k] += 1
        # What the unseen castles can be: the side's counts minus every identity seen. The pool
        # also covers castles removed unseen, so sampling draws without replacement from it.
        pool = []
        for k in D.small:
            pool += [k] * max(0, D.counts[k] - seen[k])
        self.pool = pool
        self.owner, self.kind = owner, kind
        hidden = [sq for sq in range(n) if owner[sq] == opp and kind[sq] < 0]
        self.hidden_moved = [sq for sq in hidden if sq in moved]
        self.hidden_still = [sq for sq in hidden if sq not in moved]
        # Towers: mine are known; the opponent's remaining kinds are spread over its remaining slots.
        self.my_towers = {t["tower"]: D.index[t["piece"]] for t in obs["towers"][me] if "piece" in t}
        self.opp_tower_kinds = [k for k in D.big if k not in opp_big_out]
        self.my_back = D.back_row[me]
        self.opp_back = D.back_row[opp]
        self.my_back_set = frozenset(self.my_back)
        self.rows_to = (
            tuple(abs(sq // D.columns - self.opp_back[0] // D.columns) for sq in range(n)),
            tuple(abs(sq // D.columns - self.my_back[0] // D.columns) for sq in range(n)),
        )
        self.span = D.rows - 1
        my_kinds = {kind[sq] for sq in range(n) if owner[sq] == me}
        self.values = (
            self._values(set(pool) | {kind[sq] for sq in range(n) if owner[sq] == opp}),
            self._values(my_kinds),
        )

    @staticmethod
    def _values(victims: set[int]) -> list[float]:
        """Piece values for one side, given the kinds its specialists could still beat."""
        out = list(VALUES)
        for k in D.small:
            if D.beats[k] & victims:
                out[k] += BEATS_BONUS
        return out

    # ---------------------------------------------------------------- sampling

    def sample(self, rng: random.Random) -> _World:
        """Give every hidden opposing castle a kind from the pool (moved ones are not dragons)."""
        pool = self.pool[:]
        rng.shuffle(pool)
        kind = self.kind[:]
        for sq in self.hidden_moved:
            pick = next((i for i, k in enumerate(pool) if D.movable[k]), None)
            kind[sq] = pool.pop(pick if pick is not None else 0) if pool else D.small[0]
        for sq in self.hidden_still:
            kind[sq] = pool.pop() if pool else D.small[0]
        return _World(self.owner[:], kind)

    # ---------------------------------------------------------------- search

    def action_value(self, action: StrategoAction, worlds: Sequence[_World]) -> float:
        """Mean over ``worlds`` of the value after ``action`` (a move, an attack or a back-row
        attack) and the opponent's best reply."""
        if isinstance(action, TowerAttack):
            return self._tower_value(action.from_square, worlds)
        if not isinstance(action, Move | Attack):
            raise TypeError(f"not a Victory action: {action!r}")
        a, b = action.from_square, action.to_square
        attack = isinstance(action, Attack)
        total = 0.0
        for w in worlds:
            owner, kinds = w.owner[:], w.kind[:]
            _play(owner, kinds, a, b, attack)
            total += self._reply_value(owner, kinds)
        return total / len(worlds)

    def _tower_value(self, a: int, worlds: Sequence[_World]) -> float:
        """Spec 5.3 over what the attacked slot can hide, each kind equally likely."""
        kinds = self.opp_tower_kinds
        value = 0.0
        for k in kinds:
            if k == D.flag:
                value += WIN
                continue
            left = [x for x in kinds if x != k]
            total = 0.0
            for w in worlds:
                owner, kd = w.owner, w.kind
                if k == D.black_knight:
                    owner, kd = owner[:], kd[:]
                    owner[a] = -1
                    kd[a] = -1
                total += self._evaluate(owner, kd, left)
            value += total / len(worlds)
        return value / len(kinds)

    def _reply_value(self, owner: list[int], kind: list[int]) -> float:
        """The opponent's reply: with weight :data:`REPLY_WORST` the one worst for me (an attack,
        a tower attack valued over my towers, which it cannot see, or a quiet move), otherwise any
        of its actions alike, quiet moves valued as the position as it stands."""
        me, opp = self.me, self.opp
        combat, movable, adj = D.combat, D.movable, D.adj
        quiet_value = self._evaluate(owner, kind, self.opp_tower_kinds)
        worst = quiet_value
        total = 0.0
        count = 0
        quiet = 0
        for a in range(D.squares):
            if owner[a] != opp or not movable[kind[a]]:
                continue
            for b in adj[a]:
                ob = owner[b]
                if ob < 0:
                    quiet += 1
                    continue
                if ob != me:
                    continue
                o2, k2 = owner[:], kind[:]
                _resolve(o2, k2, a, b, combat[k2[a]][k2[b]])
                v = self._evaluate(o2, k2, self.opp_tower_kinds)
                total += v
                count += 1
                if v < worst:
                    worst = v
            if a in self.my_back_set and self.my_towers:
                v = self._their_tower_value(owner, kind, a)
                n = len(self.my_towers)
                total += v * n
                count += n
                if v < worst:
                    worst = v
        total += quiet * quiet_value
        count += quiet
        mean = total / count if count else quiet_value
        return REPLY_WORST * worst + (1.0 - REPLY_WORST) * mean

    def _their_tower_value(self, owner: list[int], kind: list[int], a: int) -> float:
        slots = list(self.my_towers.values())
        total = 0.0
        for k in slots:
            if k == D.flag:
                total -= WIN
            elif k == D.black_knight:
                o2, k2 = owner[:], kind[:]
                o2[a] = -1
                k2[a] = -1
                total += self._evaluate(o2, k2, self.opp_tower_kinds)
            else:
                total += self._evaluate(owner, kind, self.opp_tower_kinds)
        return total / len(slots)

    def _evaluate(self, owner: list[int], kind: list[int], opp_towers: Sequence[int]) -> float:
        """Static value for me: material, progress, and the threat of castles on the back rows."""
        me = self.me
        movable = D.movable
        my_values, their_values = self.values[1], self.values[0]
        rows_to_opp, rows_to_me = self.rows_to
        span = self.span
        score = 0.0
        my_best_back = their_best_back = 0.0
        my_moving = their_moving = 0
        for sq in range(D.squares):
            o = owner[sq]
            if o < 0:
                continue
            k = kind[sq]
            if o == me:
                v = my_values[k]
                score += v
                if movable[k]:
                    my_moving += 1
                    d = rows_to_opp[sq]
                    score += PROGRESS * (span - d)
                    if d == 0:
                        ev = _tower_ev(opp_towers, v)
                        if ev > my_best_back:
                            my_best_back = ev
                    elif d == 1:
                        score += NEAR_BACK_ROW
            else:
                v = their_values[k]
                score -= v
                if movable[k]:
                    their_moving += 1
                    d = rows_to_me[sq]
                    score -= PROGRESS * (span - d)
                    if d == 0:
                        ev = _tower_ev(list(self.my_towers.values()) or [D.flag], v)
                        if ev > their_best_back:
                            their_best_back = ev
                    elif d == 1:
                        score -= NEAR_BACK_ROW
        if not my_moving:
            return -WIN
        if not their_moving:
            return WIN
        return score + BACK_ROW_SHARE * (my_best_back - their_best_back) + ARMY * (_LOG[my_moving] - _LOG[their_moving])


def _tower_ev(kinds: Sequence[int], value: float) -> float:
    """Expected result of attacking one of the towers holding ``kinds`` (spec 5.3) with a castle
    worth ``value``: the flag wins, the Black Knight costs the castle, the jester gives another go."""
    if not kinds:
        return 0.0
    total = 0.0
    for k in kinds:
        if k == D.flag:
            total += WIN
        elif k == D.black_knight:
            total -= value
        else:
            total += JESTER_SHARE * _tower_ev([x for x in kinds if x != k], value)
    return total / len(kinds)


def _resolve(owner: list[int], kind: list[int], a: int, b: int, res: int) -> None:
    if res == ATTACKER:
        owner[b], kind[b] = owner[a], kind[a]
        owner[a], kind[a] = -1, -1
    elif res == DEFENDER:
        owner[a], kind[a] = -1, -1
    elif res == BOTH:
        owner[a] = owner[b] = kind[a] = kind[b] = -1


def _play(owner: list[int], kind: list[int], a: int, b: int, attack: bool) -> None:
    if attack:
        _resolve(owner, kind, a, b, D.combat[kind[a]][kind[b]])
    else:
        owner[b], kind[b] = owner[a], kind[a]
        owner[a], kind[a] = -1, -1


class StrategoBot:
    """The strong level: :class:`QuestBot` in Quest, :class:`SearchBot` in Victory."""

    name: ClassVar[str] = "expert"

    def __init__(self) -> None:
        self.quest = QuestBot()
        self.victory = SearchBot()

    def choose(
        self, observation: Mapping[str, JSON], legal: Sequence[StrategoAction], rng: random.Random, budget_ms: int = 50
    ) -> StrategoAction:
        """:returns: one element of ``legal`` (or a setup during the setup phase)."""
        bot = self.quest if observation.get("variant") == "quest" else self.victory
        return bot.choose(observation, legal, rng, budget_ms)
