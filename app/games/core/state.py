"""The one state idiom: frozen, slotted dataclasses, changed with :func:`evolve`.

Every game keeps its state as ``@dataclass(frozen=True, slots=True)`` values whose fields are
immutable (ints, strings, tuples, frozensets, other frozen dataclasses). A new state is made with
:func:`evolve`, a faster ``dataclasses.replace`` (it copies the fields directly instead of running
``__init__``, which matters in random playouts and bot searches that make millions of states).

No cache lives on a state or on a ``Rules`` object: every field is part of the value (compared,
hashed, serialised). Memoisation belongs to the caller that needs it (a bot's search, the driver's
:class:`~app.games.core.driver.LegalMemo`), keyed by the state.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")

_FIELDS: dict[type, tuple[tuple[str, ...], frozenset[str]]] = {}


def evolve(obj: T, **changes: Any) -> T:
    """A copy of the frozen dataclass ``obj`` with ``changes`` (like ``dataclasses.replace``,
    without running ``__init__`` or ``__post_init__``: the caller keeps the invariants).

    :raises TypeError: a name in ``changes`` is not a field of ``obj``.
    """
    cls = type(obj)
    known = _FIELDS.get(cls)
    if known is None:
        fields = tuple(f.name for f in dataclasses.fields(obj))  # type: ignore[arg-type]
        known = _FIELDS[cls] = (fields, frozenset(fields))
    names, name_set = known
    if not name_set.issuperset(changes):
        unknown = changes.keys() - name_set
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    new = object.__new__(cls)
    setter = object.__setattr__
    for name in names:
        setter(new, name, changes[name] if name in changes else getattr(obj, name))
    return new
