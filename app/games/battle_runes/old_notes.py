"""Resolution steps stored before steps carried codes: their English ``note`` read back as a code.

Until issue 8 item 7, a :class:`~app.games.battle_runes.resolve.Step` carried an English sentence,
``note`` ("+1 construction, +5 construction (Water was played)"), and that is what states and
``turn_resolved`` events stored by that code hold (commit 227f582 and before). Today a step carries
``code`` and ``params`` and the pages render the words. :func:`parse_old_note` maps every sentence
the old resolver could write to the ``(code, params)`` today's resolver gives for the same step, so
an old stored state decodes to the value that replaying its log gives today.

The set of sentences is finite and frozen (the old resolver's templates; see the table below). This
module only reads data stored before the change; nothing writes these sentences any more.

==========================================================  ======================  ==========================
old note (``{n}`` an integer, ``{what}`` construction or     code                    params
destruction, ``{cond}`` a text of :data:`CONDITION_TEXT`)
==========================================================  ======================  ==========================
``enables bonuses``                                          ``enables``
``turn annulled: Fire or Water was played``                  ``annulled``
``no effect: no Fire or Water played``                       ``zero_no_effect``
``no effect: the turn is annulled``                          ``swap_all_annulled``
``+{n} {what}``                                              ``points``              base, what
``+{n} {what}, +{n} {what} ({cond})``                        ``points``              base, what, bonus,
                                                                                     bonus_what, condition
``+{n} construction (own destruction)`` (and vice versa)     ``cross``               gain, what, source
``own {what} doubled to {n}``                                ``doubled``             what, value
``equal {what}: no effect``                                  ``equal``               what
``seat {n} leads in {what}: +{n}``                           ``leads``               seat, what, gain
``own construction and destruction swapped``                 ``swap_self``
``opponent's construction and destruction swapped``          ``swap_opp``
``construction swapped between the seats``                   ``swap_s``
``destruction swapped between the seats``                    ``swap_r``
``whole scores swapped: now {n} / {n}``                      ``swap_all``            a, b
``no effect: Fire and Water were not both played``           ``swap_all_no_effect``
==========================================================  ======================  ==========================

``what``, ``bonus_what`` and ``source`` are ``"S"`` (construction) or ``"R"`` (destruction);
``condition`` is the rune's condition id in ``runes.yaml``.
"""

from __future__ import annotations

import re

#: a step's parameters: (name, value) pairs sorted by name (a hashable, comparable form of a dict)
StepParams = tuple[tuple[str, int | str], ...]

_WHAT = {"construction": "S", "destruction": "R"}

#: the old resolver's words for each bonus condition (its ``_CONDITION_TEXT``), by condition id
CONDITION_TEXT = {
    "water_any": "Water was played",
    "water_self": "own Water",
    "water_opp": "opponent's Water",
    "fire_any": "Fire was played",
    "fire_self": "own Fire",
    "fire_opp": "opponent's Fire",
    "opp_no_modifier": "opponent played no modifier",
    "opp_base_destruction_zero": "opponent played no destruction",
    "opp_base_construction_zero": "opponent played no construction",
}
_CONDITION_BY_TEXT = {text: cid for cid, text in CONDITION_TEXT.items()}

_FIXED = {
    "enables bonuses": "enables",
    "turn annulled: Fire or Water was played": "annulled",
    "no effect: no Fire or Water played": "zero_no_effect",
    "no effect: the turn is annulled": "swap_all_annulled",
    "own construction and destruction swapped": "swap_self",
    "opponent's construction and destruction swapped": "swap_opp",
    "construction swapped between the seats": "swap_s",
    "destruction swapped between the seats": "swap_r",
    "no effect: Fire and Water were not both played": "swap_all_no_effect",
}

_N = r"(-?\d+)"
_W = r"(construction|destruction)"
_POINTS = re.compile(rf"\+{_N} {_W}(?:, \+{_N} {_W} \((.+)\))?")
_CROSS = re.compile(rf"\+{_N} {_W} \(own {_W}\)")
_DOUBLED = re.compile(rf"own {_W} doubled to {_N}")
_EQUAL = re.compile(rf"equal {_W}: no effect")
_LEADS = re.compile(rf"seat ([01]) leads in {_W}: \+{_N}")
_SWAP_ALL = re.compile(rf"whole scores swapped: now {_N} / {_N}")


def parse_old_note(note: str) -> tuple[str, StepParams]:
    """The ``(code, params)`` of a step stored with only an English ``note`` (see the module text).

    :raises ValueError: a sentence the old resolver never wrote.
    """
    params: dict[str, int | str]
    if note in _FIXED:
        return _FIXED[note], ()
    if m := _CROSS.fullmatch(note):
        code, params = "cross", {"gain": int(m[1]), "what": _WHAT[m[2]], "source": _WHAT[m[3]]}
    elif m := _POINTS.fullmatch(note):
        code, params = "points", {"base": int(m[1]), "what": _WHAT[m[2]]}
        if m[3] is not None:
            if m[5] not in _CONDITION_BY_TEXT:
                raise ValueError(f"battle_runes: unknown condition in an old step note: {note!r}")
            params.update(bonus=int(m[3]), bonus_what=_WHAT[m[4]], condition=_CONDITION_BY_TEXT[m[5]])
    elif m := _DOUBLED.fullmatch(note):
        code, params = "doubled", {"what": _WHAT[m[1]], "value": int(m[2])}
    elif m := _EQUAL.fullmatch(note):
        code, params = "equal", {"what": _WHAT[m[1]]}
    elif m := _LEADS.fullmatch(note):
        code, params = "leads", {"seat": int(m[1]), "what": _WHAT[m[2]], "gain": int(m[3])}
    elif m := _SWAP_ALL.fullmatch(note):
        code, params = "swap_all", {"a": int(m[1]), "b": int(m[2])}
    else:
        raise ValueError(f"battle_runes: not a step note of the old resolver: {note!r}")
    return code, tuple(sorted(params.items()))
