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


class _Evolvers(dict[tuple[type, tuple[str, ...]], Evolver]):
    """(class, changed field names in call order) -> its evolver, generated on first use.

    One entry per class and set of names a call site changes: a game has a few dozen, made once for
    the life of the process.
    """

    def __missing__(self, key: tuple[type, tuple[str, ...]]) -> Evolver:
        evolver = self[key] = _compile(*key)
        return evolver


_EVOLVERS = _Evolvers()


def evolve(obj: T, /, **changes: Any) -> T:
    """A copy of the frozen dataclass ``obj`` with ``changes`` (like ``dataclasses.replace``,
    without running ``__init__`` or ``__post_init__``: the caller keeps the invariants).

    The copy is made by a function generated for ``type(obj)`` and the names in ``changes`` on
    their first use together (see :func:`_compile`). On a 16-field state that is about five times
    as fast as ``dataclasses.replace`` and as fast as ``NamedTuple._replace`` done well; a random
    playout makes a state per action. Unchanged fields are shared with ``obj``, not copied; ``obj``
    is never modified.

    :raises TypeError: a name in ``changes`` is not a field of ``obj`` (nothing is copied), or
        ``obj`` is not a dataclass instance.
    """
    new: T = _EVOLVERS[type(obj), tuple(changes)](obj, changes)
    return new


def _compile(cls: type, changed: tuple[str, ...]) -> Evolver:
    """Generate ``evolve_<Class>(obj, changes)`` for the dataclass ``cls`` and the field names
    ``changed`` (see :func:`evolve`): one line per field, ``changes["<field>"]`` for a changed
    field and ``obj.<field>`` for the others.

    For a slotted class (the kit's idiom) the copy is filled in as an instance of a mutable *twin*
    class with the same slots (:func:`_twin`), where each store is a plain attribute store, and then
    becomes a ``cls`` by assigning ``__class__`` (allowed between classes of the same layout). That
    is twice as fast as calling each slot's setter, the way a frozen dataclass's ``__init__`` does,
    which is the fallback for any other class.

    :raises TypeError: ``cls`` is not a dataclass, or a name in ``changed`` is not one of its fields.
    """
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"evolve() takes a dataclass instance, not {cls.__name__}")
    names = [f.name for f in dataclasses.fields(cls)]
    unknown = sorted(set(changed) - set(names))
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
    twin = _twin(cls, names)
    scope: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_twin": twin}
    lines = [f"def evolve_{cls.__name__}(obj, changes):"]
    values = [f"changes[{name!r}]" if name in changed else f"obj.{name}" for name in names]
    if twin is not None:
        lines.append("    new = _new(_twin)")
        lines += [f"    new.{name} = {value}" for name, value in zip(names, values, strict=True)]
        lines.append("    new.__class__ = _cls")
    else:
        lines.append("    new = _new(_cls)")
        for i, (name, value) in enumerate(zip(names, values, strict=True)):
            slot = getattr(cls, name, None)
            if isinstance(slot, types.MemberDescriptorType):
                scope[f"_set{i}"] = slot.__set__
                lines.append(f"    _set{i}(new, {value})")
            else:  # no slot (a class without slots=True): as a frozen dataclass's __init__ does
                scope[f"_set{i}"] = object.__setattr__
                lines.append(f"    _set{i}(new, {name!r}, {value})")
    lines.append("    return new")
    exec("\n".join(lines), scope)  # generated from the dataclass's own field names only
    evolver: Evolver = scope[f"evolve_{cls.__name__}"]
    return evolver


_TWINS: dict[type, type | None] = {}


def _twin(cls: type, names: list[str]) -> type | None:
    """A plain mutable class with the same slots as ``cls`` (so an instance can become a ``cls`` by
    ``__class__`` assignment), or ``None`` when ``cls`` does not keep exactly its fields in its own
    slots or the layouts turn out not to match (checked once here, on a probe)."""
    if cls in _TWINS:
        return _TWINS[cls]
    twin: type | None = None
    slots = cls.__dict__.get("__slots__")
    if (
        isinstance(slots, tuple)
        and list(slots) == names
        and all(base.__dict__.get("__slots__", None) == () or base is object for base in cls.__mro__[1:])
    ):
        candidate = type(f"_{cls.__name__}Twin", (), {"__slots__": slots, "__module__": cls.__module__})
        probe: Any = object.__new__(candidate)
        try:
            probe.__class__ = cls
        except TypeError:
            pass
        else:
            twin = candidate
    _TWINS[cls] = twin
    return twin
