"""The one state idiom: frozen, slotted dataclasses, changed with :func:`evolve`.

Every game keeps its state as ``@dataclass(frozen=True, slots=True)`` values whose fields are
immutable (ints, strings, tuples, frozensets, other frozen dataclasses). A new state is made with
:func:`evolve`, a faster ``dataclasses.replace``: it does not run ``__init__``, and it copies the
fields through a function generated once per class (see :func:`evolve`), which matters in random
playouts and bot searches that make millions of states.

No cache lives on a state or on a ``Rules`` object: every field is part of the value (compared,
hashed, serialised or derived from what is serialised). Memoisation belongs to the caller that
needs it (a bot's search, the driver's :class:`~app.games.core.driver.LegalMemo`), keyed by the
state.

A *derived* field is allowed: one that is an ordinary part of the value (compared and hashed), kept
up to date by every transition, recomputed by the game's ``decode_state`` and left out of the JSON
of ``encode_state`` (as python-chess keeps bitboards beside the squares). Stratego Junior's
``movers`` and ``legal`` are two.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")

#: ``evolver(obj, changes)``: a copy of ``obj`` with the fields in the mapping ``changes`` replaced
Evolver = Callable[[Any, Mapping[str, Any]], Any]


class _Evolvers(dict[type, Evolver]):
    """Class -> its evolver, generated on first use (one per class, for the life of the process)."""

    def __missing__(self, cls: type) -> Evolver:
        evolver = self[cls] = _compile(cls)
        return evolver


_EVOLVERS = _Evolvers()


def evolve(obj: T, /, **changes: Any) -> T:
    """A copy of the frozen dataclass ``obj`` with ``changes`` (like ``dataclasses.replace``,
    without running ``__init__`` or ``__post_init__``: the caller keeps the invariants).

    The copy is made by a function generated for ``type(obj)`` on its first use: one line per
    field, ``set_<field>(new, changes["<field>"] if "<field>" in changes else obj.<field>)``, where
    ``set_<field>`` is the slot's own descriptor (``object.__setattr__`` for a class without slots).
    That is about twice as fast as looping over the fields by name, and a Victory game of Stratego
    Junior makes a state per move. Unchanged fields are shared with ``obj``, not copied; ``obj`` is
    never modified.

    :raises TypeError: a name in ``changes`` is not a field of ``obj`` (nothing is copied), or
        ``obj`` is not a dataclass instance.
    """
    new: T = _EVOLVERS[type(obj)](obj, changes)
    return new


def _compile(cls: type) -> Evolver:
    """Generate ``evolve_<Class>(obj, changes)`` for the dataclass ``cls`` (see :func:`evolve`).

    :raises TypeError: ``cls`` is not a dataclass.
    """
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"evolve() takes a dataclass instance, not {cls.__name__}")
    names = [f.name for f in dataclasses.fields(cls)]
    scope: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_names": frozenset(names)}
    lines = [
        f"def evolve_{cls.__name__}(obj, changes):",
        "    if not _names.issuperset(changes):",
        "        unknown = sorted(changes.keys() - _names)[0]",
        "        raise TypeError(f'{_cls.__name__} has no field {unknown!r}')",
        "    new = _new(_cls)",
    ]
    for i, name in enumerate(names):
        slot = getattr(cls, name, None)
        if isinstance(slot, types.MemberDescriptorType):
            scope[f"_set{i}"] = slot.__set__
            lines.append(f"    _set{i}(new, changes[{name!r}] if {name!r} in changes else obj.{name})")
        else:  # no slot (a class without slots=True): as a frozen dataclass's __init__ does
            scope[f"_set{i}"] = object.__setattr__
            lines.append(f"    _set{i}(new, {name!r}, changes[{name!r}] if {name!r} in changes else obj.{name})")
    lines.append("    return new")
    exec("\n".join(lines), scope)  # generated from the dataclass's own field names only
    evolver: Evolver = scope[f"evolve_{cls.__name__}"]
    return evolver
