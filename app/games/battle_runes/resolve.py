"""Battle Runes turn resolution: the pure function of spec section 5.

Given both seats' played runes and the scores before the turn, :func:`resolve_turn` returns the new
scores and a :class:`Resolution` breakdown (every step, with S and R of both seats after it), which
the engine stores and the clients animate. :func:`settle_scores` is the same computation without the
breakdown, for the bots' look-ahead.

Vocabulary: S = construction points of a seat this turn (added to its own score), R = destruction
points (subtracted from the opponent's score); seat 0 is the spec's player A, seat 1 player B.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .data import FIRE, RUNES, WATER
from .old_notes import StepParams, parse_old_note

JSON = Any

# ---------------------------------------------------------------------------------------------
# Precomputed rune tables (import time): plain ints/tuples so the hot loop does no attribute work.

_BUILD, _DESTROY, _MODIFIER = 0, 1, 2
_KIND = {"build": _BUILD, "destroy": _DESTROY, "modifier": _MODIFIER}

# conditions
(
    _ALWAYS,
    _WATER_ANY,
    _WATER_SELF,
    _WATER_OPP,
    _FIRE_ANY,
    _FIRE_SELF,
    _FIRE_OPP,
    _OPP_NO_MOD,
    _OPP_NO_DES,
    _OPP_NO_CON,
) = range(10)
_CONDITION = {
    "always": _ALWAYS,
    "water_any": _WATER_ANY,
    "water_self": _WATER_SELF,
    "water_opp": _WATER_OPP,
    "fire_any": _FIRE_ANY,
    "fire_self": _FIRE_SELF,
    "fire_opp": _FIRE_OPP,
    "opp_no_modifier": _OPP_NO_MOD,
    "opp_base_destruction_zero": _OPP_NO_DES,
    "opp_base_construction_zero": _OPP_NO_CON,
}
#: condition number -> its id in ``runes.yaml`` (a step's ``condition`` param)
_CONDITION_ID = {number: cid for cid, number in _CONDITION.items()}

# modifier effects
(
    _NONE,
    _ENABLER,
    _ANNUL,
    _DOUBLE_S,
    _DOUBLE_R,
    _DIFF_S,
    _DIFF_R,
    _SWAP_SELF,
    _SWAP_OPP,
    _SWAP_S,
    _SWAP_R,
    _SWAP_ALL,
) = range(12)
_EFFECT = {
    None: _NONE,
    "none_enabler": _ENABLER,
    "annul_turn_if_fire_or_water_any": _ANNUL,
    "double_own_S": _DOUBLE_S,
    "double_own_R": _DOUBLE_R,
    "add_2x_abs_diff_S_to_leader": _DIFF_S,
    "add_2x_abs_diff_R_to_leader": _DIFF_R,
    "swap_own_S_R": _SWAP_SELF,
    "swap_opp_S_R": _SWAP_OPP,
    "swap_S_between_players": _SWAP_S,
    "swap_R_between_players": _SWAP_R,
    "swap_total_scores_if_fire_and_water_any": _SWAP_ALL,
}
_POINTS = {"build": 0, "destroy": 1}  # index into (S, R)
_CROSS_NONE, _CROSS_ADD_R, _CROSS_ADD_S = 0, 1, 2


@dataclass(frozen=True, slots=True)
class _RuneRow:
    kind: int
    order: int | None
    base: int
    condition: int
    bonus: int  # 0 for cross-term runes
    bonus_to: int  # 0 = S, 1 = R (default reading)
    bonus_to_printed: int  # where the card's literal text puts it (AMBIGUITY 3)
    cross: int
    effect: int


def _row(rune: Any) -> _RuneRow:
    default_to = _POINTS.get(rune.bonus_kind or rune.kind, 0)
    printed = rune.bonus_kind_as_printed
    return _RuneRow(
        kind=_KIND[rune.kind],
        order=rune.order,
        base=rune.base,
        condition=_CONDITION.get(rune.condition or "always", _ALWAYS),
        bonus=rune.bonus if isinstance(rune.bonus, int) else 0,
        bonus_to=default_to,
        bonus_to_printed=_POINTS[printed] if printed else default_to,
        cross=(
            _CROSS_ADD_R
            if rune.bonus == "own_base_destruction"
            else _CROSS_ADD_S
            if rune.bonus == "own_base_construction"
            else _CROSS_NONE
        ),
        effect=_EFFECT[rune.effect],
    )


_ROWS: dict[str, _RuneRow] = {rid: _row(r) for rid, r in RUNES.items()}
#: effects applied at orders 3-6 on turn points (Swap-All acts on totals, after settlement)
_POINT_MODIFIERS = frozenset({_DOUBLE_S, _DOUBLE_R, _DIFF_S, _DIFF_R, _SWAP_SELF, _SWAP_OPP, _SWAP_S, _SWAP_R})


# ---------------------------------------------------------------------------------------------
# Public values


@dataclass(frozen=True, slots=True)
class ResolveOptions:
    """The match options that change resolution.

    :param r2p5_bonus_kind: ``"destruction"`` (default, AMBIGUITY 3) or ``"construction"`` (the
        card's literal text): where R2+5's +5 bonus goes.
    :param zero_blocks_swap_all: whether an annulled turn also stops Swap-All (AMBIGUITY 5).
    """

    r2p5_bonus_kind: str = "destruction"
    zero_blocks_swap_all: bool = True

    @classmethod
    def of(cls, options: ResolveOptions | Mapping[str, JSON] | None) -> ResolveOptions:
        """Build from a match-options mapping (other keys ignored), or pass through.

        :raises ValueError: ``r2p5_bonus_kind`` not ``"destruction"``/``"construction"``.
        """
        if isinstance(options, ResolveOptions):
            return options
        options = options or {}
        kind = options.get("r2p5_bonus_kind", "destruction")
        if kind not in ("destruction", "construction"):
            raise ValueError(f"r2p5_bonus_kind must be 'destruction' or 'construction', got {kind!r}")
        return cls(kind, bool(options.get("zero_blocks_swap_all", True)))


class Step(NamedTuple):
    """One application of a played rune during resolution (a named tuple, not a dataclass: a turn
    records up to a dozen steps and random playouts make millions, and a tuple is built three times
    faster than a frozen dataclass).

    :param rune: the rune id; :param seat: who played it (0 = A, 1 = B);
    :param order: its order number (``None`` for Fire, Water, Zero);
    :param S: construction of seats (0, 1) after this step; :param R: destruction likewise;
    :param code: what the step did, for the pages to put into words (``static/js/messages.js``,
        ``br.step.<code>``); :param params: its parameters, (name, value) pairs sorted by name.
        ``what``, ``bonus_what`` and ``source`` are ``"S"`` (construction) or ``"R"``
        (destruction); ``seat`` is a seat index; ``condition`` a condition id of ``runes.yaml``:

        - ``enables`` (Fire, Water); ``annulled`` / ``zero_no_effect`` (Zero, with or without
          Fire or Water in the turn);
        - ``points`` (base, what; with bonus, bonus_what, condition when the bonus applies): a
          construction or destruction rune;
        - ``cross`` (gain, what, source): the cross term of S1+r (what S, source R) or R1+s;
        - ``doubled`` (what, value); ``equal`` (what) / ``leads`` (seat, what, gain): Difference;
        - ``swap_self``, ``swap_opp``, ``swap_s``, ``swap_r``;
        - ``swap_all`` (a, b: the scores after the swap), ``swap_all_no_effect`` (Fire and Water
          not both played), ``swap_all_annulled`` (the turn is annulled).
    """

    rune: str
    seat: int
    order: int | None
    S: tuple[int, int]
    R: tuple[int, int]
    code: str
    params: StepParams = ()

    def to_json(self) -> dict[str, JSON]:
        """``{"rune", "seat", "order", "S": [a, b], "R": [a, b], "code", "params": {name: value}}``."""
        return {
            "rune": self.rune,
            "seat": self.seat,
            "order": self.order,
            "S": list(self.S),
            "R": list(self.R),
            "code": self.code,
            "params": dict(self.params) if self.params else {},
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, JSON]) -> Step:
        """Inverse of :meth:`to_json`; a step stored before codes (an English ``note`` instead of
        ``code`` and ``params``) is read through :func:`~.old_notes.parse_old_note`.

        :raises ValueError: a note the old resolver never wrote, or a param that is not an int or str.
        """
        if "code" in obj:
            code = str(obj["code"])
            params = _params(obj.get("params") or {})
        else:
            code, params = parse_old_note(obj["note"])
        return cls(obj["rune"], int(obj["seat"]), obj["order"], _pair(obj["S"]), _pair(obj["R"]), code, params)


def _params(values: Mapping[str, JSON]) -> StepParams:
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValueError(f"battle_runes: step param {name!r} is {value!r}, not an int or a string")
    return tuple(sorted(values.items()))


def _step(rune: str, seat: int, order: int | None, S: IntPair, R: IntPair, code: str, /, **params: int | str) -> Step:
    """A :class:`Step`; every caller passes ``params`` in name order (as :meth:`Step.from_json`
    keeps them), which saves a sort per step (``test_step_params_are_in_name_order`` checks)."""
    return Step(rune, seat, order, S, R, code, tuple(params.items()))


@dataclass(frozen=True, slots=True)
class Resolution:
    """The full breakdown of one turn (spec section 5), all pairs indexed by seat (0 = A, 1 = B).

    :param picks: the runes each seat played.
    :param scores_before: scores before the turn.
    :param fire: / :param water: whether each seat played Fire / Water (step 0 flags).
    :param annulled: Zero met Fire or Water (step 1): no S, no R.
    :param base_S: / :param base_R: base construction and destruction after step 4 (the seed's
        "blue ball" and "black ball"): from construction/destruction runes only, before modifiers.
    :param steps: every rune application in resolution order.
    :param final_S: / :param final_R: S and R after all modifiers (step 8).
    :param scores_settled: scores after settlement, before Swap-All (step 9).
    :param swap_all_applied: how many Swap-All swaps were performed (0, 1 or 2).
    :param scores_after: the new scores.
    """

    picks: tuple[tuple[str, ...], tuple[str, ...]]
    scores_before: tuple[int, int]
    fire: tuple[bool, bool]
    water: tuple[bool, bool]
    annulled: bool
    base_S: tuple[int, int]
    base_R: tuple[int, int]
    steps: tuple[Step, ...]
    final_S: tuple[int, int]
    final_R: tuple[int, int]
    scores_settled: tuple[int, int]
    swap_all_applied: int
    scores_after: tuple[int, int]

    def to_json(self) -> dict[str, JSON]:
        """JSON form (lists for pairs), as carried by the ``turn_resolved`` event and observations."""
        return {
            "picks": [list(self.picks[0]), list(self.picks[1])],
            "scores_before": list(self.scores_before),
            "fire": list(self.fire),
            "water": list(self.water),
            "annulled": self.annulled,
            "base_S": list(self.base_S),
            "base_R": list(self.base_R),
            "steps": [s.to_json() for s in self.steps],
            "final_S": list(self.final_S),
            "final_R": list(self.final_R),
            "scores_settled": list(self.scores_settled),
            "swap_all_applied": self.swap_all_applied,
            "scores_after": list(self.scores_after),
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, JSON]) -> Resolution:
        """Inverse of :meth:`to_json`."""
        return cls(
            picks=(tuple(obj["picks"][0]), tuple(obj["picks"][1])),
            scores_before=_pair(obj["scores_before"]),
            fire=(bool(obj["fire"][0]), bool(obj["fire"][1])),
            water=(bool(obj["water"][0]), bool(obj["water"][1])),
            annulled=bool(obj["annulled"]),
            base_S=_pair(obj["base_S"]),
            base_R=_pair(obj["base_R"]),
            steps=tuple(Step.from_json(s) for s in obj["steps"]),
            final_S=_pair(obj["final_S"]),
            final_R=_pair(obj["final_R"]),
            scores_settled=_pair(obj["scores_settled"]),
            swap_all_applied=int(obj["swap_all_applied"]),
            scores_after=_pair(obj["scores_after"]),
        )


def _pair(values: Sequence[Any]) -> tuple[int, int]:
    return (int(values[0]), int(values[1]))


# ---------------------------------------------------------------------------------------------
# The algorithm


def resolve_turn(
    picks: tuple[Sequence[str], Sequence[str]],
    scores: tuple[int, int],
    options: ResolveOptions | Mapping[str, JSON] | None = None,
) -> Resolution:
    """Resolve one turn (spec section 5, steps 0-9; the end check of step 10 is the engine's).

    :param picks: the rune ids seat 0 (A) and seat 1 (B) played, normally 3 each (any number works,
        e.g. none for "the opponent plays nothing").
    :param scores: both scores before the turn.
    :param options: :class:`ResolveOptions` or match options (``r2p5_bonus_kind``,
        ``zero_blocks_swap_all``).
    :returns: the :class:`Resolution`; ``resolution.scores_after`` are the new scores.
    :raises KeyError: an unknown rune id.

    >>> resolve_turn((("R1P5", "WATER", "SWAP_ALL"), ("S1P5", "R1P9", "DIFF_S")), (25, 25)).scores_after
    (24, 42)
    """
    opts = ResolveOptions.of(options)
    pa, pb = tuple(picks[0]), tuple(picks[1])
    steps: list[Step] = []
    out = _resolve(
        pa, pb, scores[0], scores[1], opts.r2p5_bonus_kind == "construction", opts.zero_blocks_swap_all, steps
    )
    annulled, base_s, base_r, fin_s, fin_r, settled, swaps, after, fire, water = out
    return Resolution(
        picks=(pa, pb),
        scores_before=(scores[0], scores[1]),
        fire=fire,
        water=water,
        annulled=annulled,
        base_S=base_s,
        base_R=base_r,
        steps=tuple(steps),
        final_S=fin_s,
        final_R=fin_r,
        scores_settled=settled,
        swap_all_applied=swaps,
        scores_after=after,
    )


def settle_scores(
    pick_a: Sequence[str], pick_b: Sequence[str], scores: tuple[int, int], options: ResolveOptions
) -> tuple[int, int]:
    """The new scores only (no breakdown): the bots' fast path. Same rules as :func:`resolve_turn`."""
    return _resolve(
        pick_a,
        pick_b,
        scores[0],
        scores[1],
        options.r2p5_bonus_kind == "construction",
        options.zero_blocks_swap_all,
        None,
    )[7]


IntPair = tuple[int, int]
BoolPair = tuple[bool, bool]
#: what :func:`_resolve` returns: (annulled, base_S, base_R, final_S, final_R, scores_settled,
#: swap_all_applied, scores_after, fire, water)
_Resolved = tuple[bool, IntPair, IntPair, IntPair, IntPair, IntPair, int, IntPair, BoolPair, BoolPair]


def _resolve(
    pa: Sequence[str],
    pb: Sequence[str],
    score_a: int,
    score_b: int,
    literal_r2p5: bool,
    zero_blocks: bool,
    rec: list[Step] | None,
) -> _Resolved:
    """Spec section 5 on rune-id sequences; appends :class:`Step` to ``rec`` unless it is None.

    :returns: (annulled, base_S, base_R, final_S, final_R, scores_settled, swap_all_applied,
        scores_after, fire, water).
    """
    rows = _ROWS
    picks = (pa, pb)
    # Step 0: flags.
    fire = (FIRE in pa, FIRE in pb)
    water = (WATER in pa, WATER in pb)
    fire_any = fire[0] or fire[1]
    water_any = water[0] or water[1]
    row_lists = ([rows[r] for r in pa], [rows[r] for r in pb])
    zero_played = any(row.effect == _ANNUL for rl in row_lists for row in rl)
    # Step 1: Zero annuls the turn when Fire or Water is anywhere.
    annulled = zero_played and (fire_any or water_any)
    S = [0, 0]
    R = [0, 0]
    if rec is not None:
        for p in (0, 1):
            for rid, row in zip(picks[p], row_lists[p]):  # noqa: B905 - equal by construction
                if row.effect == _ENABLER:
                    rec.append(_step(rid, p, row.order, (0, 0), (0, 0), "enables"))
                elif row.effect == _ANNUL:
                    rec.append(_step(rid, p, row.order, (0, 0), (0, 0), "annulled" if annulled else "zero_no_effect"))
    if annulled:
        zero2 = (0, 0)
        swaps = 0
        after = (score_a, score_b)
        if not zero_blocks:
            swaps, after = _swap_all(picks, row_lists, fire_any, water_any, after, zero2, zero2, rec)
        elif rec is not None:
            for p in (0, 1):
                for rid, row in zip(picks[p], row_lists[p]):  # noqa: B905 - equal by construction
                    if row.effect == _SWAP_ALL:
                        rec.append(_step(rid, p, row.order, zero2, zero2, "swap_all_annulled"))
        return True, zero2, zero2, zero2, zero2, (score_a, score_b), swaps, after, fire, water

    # kind_counts[p][kind]: how many construction / destruction / modifier runes p played
    kind_counts = ([0, 0, 0], [0, 0, 0])
    for p in (0, 1):
        counts = kind_counts[p]
        for row in row_lists[p]:
            counts[row.kind] += 1
    n_con = (kind_counts[0][_BUILD], kind_counts[1][_BUILD])
    n_des = (kind_counts[0][_DESTROY], kind_counts[1][_DESTROY])
    n_mod = (kind_counts[0][_MODIFIER], kind_counts[1][_MODIFIER])

    # Steps 2-3: order 1 (construction) then order 2 (destruction), non-cross parts.
    for kind in (_BUILD, _DESTROY):
        pts_index = 0 if kind == _BUILD else 1
        for p in (0, 1):
            o = 1 - p
            for rid, row in zip(picks[p], row_lists[p]):  # noqa: B905 - equal by construction
                if row.kind != kind:
                    continue
                c = row.condition
                if c == _ALWAYS or row.bonus == 0:
                    hit = False
                elif c == _WATER_ANY:
                    hit = water_any
                elif c == _WATER_SELF:
                    hit = water[p]
                elif c == _WATER_OPP:
                    hit = water[o]
                elif c == _FIRE_ANY:
                    hit = fire_any
                elif c == _FIRE_SELF:
                    hit = fire[p]
                elif c == _FIRE_OPP:
                    hit = fire[o]
                elif c == _OPP_NO_MOD:
                    hit = n_mod[o] == 0
                elif c == _OPP_NO_DES:
                    hit = n_des[o] == 0
                else:  # _OPP_NO_CON
                    hit = n_con[o] == 0
                if pts_index == 0:
                    S[p] += row.base
                else:
                    R[p] += row.base
                bonus_to = -1
                if hit:
                    bonus_to = row.bonus_to_printed if literal_r2p5 else row.bonus_to
                    if bonus_to == 0:
                        S[p] += row.bonus
                    else:
                        R[p] += row.bonus
                if rec is not None:
                    what = "S" if pts_index == 0 else "R"
                    if hit:
                        rec.append(
                            _step(
                                rid,
                                p,
                                row.order,
                                (S[0], S[1]),
                                (R[0], R[1]),
                                "points",
                                base=row.base,
                                bonus=row.bonus,
                                bonus_what="S" if bonus_to == 0 else "R",
                                condition=_CONDITION_ID[c],
                                what=what,
                            )
                        )
                    else:
                        rec.append(
                            _step(rid, p, row.order, (S[0], S[1]), (R[0], R[1]), "points", base=row.base, what=what)
                        )

    # Step 4: cross terms, both reading the pre-cross values (AMBIGUITY 6).
    s0 = (S[0], S[1])
    r0 = (R[0], R[1])
    for p in (0, 1):
        for rid, row in zip(picks[p], row_lists[p]):  # noqa: B905 - equal by construction
            if row.cross == _CROSS_ADD_R:
                S[p] += r0[p]
                if rec is not None:
                    rec.append(
                        _step(rid, p, row.order, (S[0], S[1]), (R[0], R[1]), "cross", gain=r0[p], source="R", what="S")
                    )
            elif row.cross == _CROSS_ADD_S:
                R[p] += s0[p]
                if rec is not None:
                    rec.append(
                        _step(rid, p, row.order, (S[0], S[1]), (R[0], R[1]), "cross", gain=s0[p], source="S", what="R")
                    )
    base_s = (S[0], S[1])
    base_r = (R[0], R[1])

    # Steps 5-8: orders 3-6 on turn points, one after another; seat A's runes, then seat B's.
    sequence = sorted(
        (row.order, p, i) for p in (0, 1) for i, row in enumerate(row_lists[p]) if row.effect in _POINT_MODIFIERS
    )
    for _, p, i in sequence:
        row = row_lists[p][i]
        e = row.effect
        o = 1 - p
        params: dict[str, int | str] = {}
        if e == _DOUBLE_S:
            S[p] *= 2
            code, params = "doubled", {"value": S[p], "what": "S"}
        elif e == _DOUBLE_R:
            R[p] *= 2
            code, params = "doubled", {"value": R[p], "what": "R"}
        elif e in (_DIFF_S, _DIFF_R):
            v = S if e == _DIFF_S else R
            what = "S" if e == _DIFF_S else "R"
            if v[0] == v[1]:
                code, params = "equal", {"what": what}
            else:
                leader = 0 if v[0] > v[1] else 1
                gain = 2 * abs(v[0] - v[1])
                v[leader] += gain
                code, params = "leads", {"gain": gain, "seat": leader, "what": what}
        elif e == _SWAP_SELF:
            S[p], R[p] = R[p], S[p]
            code = "swap_self"
        elif e == _SWAP_OPP:
            S[o], R[o] = R[o], S[o]
            code = "swap_opp"
        elif e == _SWAP_S:
            S[0], S[1] = S[1], S[0]
            code = "swap_s"
        else:  # _SWAP_R
            R[0], R[1] = R[1], R[0]
            code = "swap_r"
        if rec is not None:
            rec.append(_step(picks[p][i], p, row.order, (S[0], S[1]), (R[0], R[1]), code, **params))

    # Step 9: settlement, then Swap-All on the whole totals (AMBIGUITY 8).
    settled = (score_a + S[0] - R[1], score_b + S[1] - R[0])
    fin_s = (S[0], S[1])
    fin_r = (R[0], R[1])
    swaps, after = _swap_all(picks, row_lists, fire_any, water_any, settled, fin_s, fin_r, rec)
    return False, base_s, base_r, fin_s, fin_r, settled, swaps, after, fire, water


def _swap_all(
    picks: tuple[Sequence[str], Sequence[str]],
    row_lists: tuple[list[_RuneRow], list[_RuneRow]],
    fire_any: bool,
    water_any: bool,
    totals: IntPair,
    fin_s: IntPair,
    fin_r: IntPair,
    rec: list[Step] | None,
) -> tuple[int, IntPair]:
    """Apply every Swap-All played (seat A's, then B's) when Fire and Water were both played."""
    swaps = 0
    a, b = totals
    for p in (0, 1):
        for rid, row in zip(picks[p], row_lists[p]):  # noqa: B905 - equal by construction
            if row.effect != _SWAP_ALL:
                continue
            if fire_any and water_any:
                a, b = b, a
                swaps += 1
                if rec is not None:
                    rec.append(_step(rid, p, row.order, fin_s, fin_r, "swap_all", a=a, b=b))
            elif rec is not None:
                rec.append(_step(rid, p, row.order, fin_s, fin_r, "swap_all_no_effect"))
    return swaps, (a, b)
