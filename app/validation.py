"""The one rule for text a client sends us to store: no control characters, and names not blank.

Every request model that takes a name or a label uses these annotated types, so the rule lives in
one place and fails the same way everywhere: a request body that breaks it is refused with 422
``validation_error`` (pydantic's error ``type`` is ``control_characters`` or ``blank``), before
anything reaches the database (PostgreSQL refuses U+0000 in text and JSON, which answered 500).

- :data:`Text`: any text without control characters (Unicode category ``Cc``: U+0000-U+001F,
  U+007F-U+009F, so also tab and newline) or lone surrogates (``Cs``: not valid UTF-8, which a
  JSON ``"\\ud800"`` escape can carry). Kept as sent.
- :data:`MultilineText`: :data:`Text` that may also hold line breaks (``\n``, U+000A: what a
  browser's ``<textarea>`` gives as its value), for the few fields a page shows with their lines
  (a clan's description). Any other control character is refused as in :data:`Text`.
- :data:`Name`: :data:`Text` without invisible format characters either (Unicode category ``Cf``:
  right-to-left overrides such as U+202E that make a name read differently from what it is, and
  zero-width characters such as U+200B that make a blank name look like text), trimmed of
  surrounding whitespace, and not empty after trimming.

    class DeckIn(BaseModel):
        name: Annotated[Name, Field(max_length=60)]

Passwords are not :data:`Text`: they are hashed, never stored or shown, so any character may be
part of one.
"""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Callable
from functools import cache
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, GetJsonSchemaHandler, Strict
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import PydanticCustomError, core_schema

#: Unicode categories refused in text: control characters and (lone) surrogates
REFUSED_CATEGORIES = frozenset({"Cc", "Cs"})


def check_text(value: str, allowed: str = "") -> str:
    """``value`` unchanged when it has no control character or lone surrogate.

    :param allowed: control characters let through all the same (``"\n"``: :data:`MultilineText`).
    :raises PydanticCustomError: ``control_characters`` (``ctx``: ``{"position": index}`` of the
        first refused character, counted in characters from 0); pydantic turns it into a
        validation error, which the API answers with 422 ``validation_error``.
    """
    for i, ch in enumerate(value):
        if unicodedata.category(ch) in REFUSED_CATEGORIES and ch not in allowed:
            raise PydanticCustomError(
                "control_characters",
                "text may not contain control characters (found one at {position})",
                {"position": i},
            )
    return value


def check_multiline(value: str) -> str:
    """``value`` unchanged when its only control characters are line breaks (``\n``).

    :raises PydanticCustomError: ``control_characters``, as :func:`check_text`.
    """
    return check_text(value, "\n")


def check_name(value: str) -> str:
    """``value`` trimmed of surrounding whitespace, after :func:`check_text`.

    :raises PydanticCustomError: ``control_characters`` (see :func:`check_text`),
        ``format_characters`` (an invisible format character, category ``Cf``), or ``blank`` when
        nothing is left after trimming.
    """
    value = check_text(value).strip()
    for i, ch in enumerate(value):
        if unicodedata.category(ch) == "Cf":
            raise PydanticCustomError(
                "format_characters",
                "a name may not contain invisible format characters (found one at {position})",
                {"position": i},
            )
    if not value:
        raise PydanticCustomError("blank", "a name may not be blank")
    return value


# --- the same rules as JSON Schema patterns (the OpenAPI document states what the server accepts) ---


def code_point_ranges(accept: Callable[[str], bool]) -> tuple[tuple[int, int], ...]:
    """The code points ``c`` with ``accept(chr(c))``, as inclusive ``(first, last)`` ranges."""
    out: list[tuple[int, int]] = []
    start: int | None = None
    for cp in range(sys.maxunicode + 1):
        if accept(chr(cp)):
            if start is None:
                start = cp
        elif start is not None:
            out.append((start, cp - 1))
            start = None
    if start is not None:
        out.append((start, sys.maxunicode))
    return tuple(out)


def char_class(ranges: tuple[tuple[int, int], ...], negate: bool = False) -> str:
    """A regular-expression character class of ``ranges`` (``[^...]`` with ``negate``); code points
    are written ``\\uXXXX`` in the Basic Multilingual Plane and as themselves above it."""

    def one(cp: int) -> str:
        return f"\\u{cp:04x}" if cp <= 0xFFFF else chr(cp)

    body = "".join(one(a) if a == b else f"{one(a)}-{one(b)}" for a, b in ranges)
    return f"[{'^' if negate else ''}{body}]"


@cache
def refused_in_text() -> tuple[tuple[int, int], ...]:
    """The code points :func:`check_text` refuses that a pattern can name: the control characters
    (``Cc``). Lone surrogates (``Cs``) are refused too, but they are not Unicode text at all (no
    valid UTF-8 or JSON string holds one; only an escape such as ``"\\ud800"`` can), and
    regular-expression engines cannot name them, so the patterns leave them out."""
    return code_point_ranges(lambda ch: unicodedata.category(ch) == "Cc")


@cache
def text_pattern() -> str:
    """The JSON Schema ``pattern`` of :data:`Text`: no refused character anywhere."""
    return f"^{char_class(refused_in_text(), negate=True)}*$"


@cache
def multiline_pattern() -> str:
    """The JSON Schema ``pattern`` of :data:`MultilineText`: no refused character but ``\n``."""
    refused = code_point_ranges(lambda ch: unicodedata.category(ch) == "Cc" and ch != "\n")
    return f"^{char_class(refused, negate=True)}*$"


@cache
def name_pattern() -> str:
    """The JSON Schema ``pattern`` of :data:`Name`: no control or format character, and at least
    one character that is not whitespace (``str.isspace``), so that trimming leaves something
    (lone surrogates: see :func:`refused_in_text`)."""
    allowed = char_class(code_point_ranges(lambda ch: unicodedata.category(ch) in ("Cc", "Cf")), negate=True)
    visible = char_class(
        code_point_ranges(lambda ch: unicodedata.category(ch) in ("Cc", "Cf") or ch.isspace()), negate=True
    )
    return f"^{allowed}*{visible}{allowed}*$"


@cache
def spaces_class() -> str:
    """A character class of the whitespace :func:`check_text` lets through (``str.isspace``
    without control characters): what trimming removes from a name that passed."""
    return char_class(code_point_ranges(lambda ch: ch.isspace() and unicodedata.category(ch) != "Cc"))


class SchemaPattern:
    """Annotation metadata that adds a ``pattern`` (made by ``make``, when the schema is asked for)
    to a string's JSON Schema; validation stays with the validators, which give the stable
    error types above."""

    def __init__(self, make: Callable[[], str]) -> None:
        self.make = make

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        out: dict[str, Any] = handler(schema)
        out["pattern"] = self.make()
        return out


#: text without control characters (see the module docstring)
Text = Annotated[str, AfterValidator(check_text), SchemaPattern(text_pattern)]
#: text without control characters but line breaks (see the module docstring)
MultilineText = Annotated[str, AfterValidator(check_multiline), SchemaPattern(multiline_pattern)]
#: a name: :data:`Text`, then trimmed, not blank (a ``max_length`` given with ``Field`` counts the
#: name as sent)
Name = Annotated[str, AfterValidator(check_name), SchemaPattern(name_pattern)]


# --- numbers as JSON Schema counts them ----------------------------------------------------------


def json_integer(value: Any) -> Any:
    """``value`` as an int when it is a float with no fractional part (JSON Schema's ``integer``
    includes ``2.0``, and generated clients send it so); anything else unchanged, for the strict
    int check that follows (which refuses ``true``, ``"2"`` and ``2.5``)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def integral_floats(value: Any) -> Any:
    """``value`` (JSON) with every float that has no fractional part made an int, at any depth
    (game options: ``{"win_score": 50.0}`` is ``{"win_score": 50}``); booleans stay booleans."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [integral_floats(v) for v in value]
    if isinstance(value, dict):
        return {k: integral_floats(v) for k, v in value.items()}
    return value


#: a JSON integer: an int or a whole float (``2.0``), never a boolean or a string
Integer = Annotated[int, BeforeValidator(json_integer), Strict()]
