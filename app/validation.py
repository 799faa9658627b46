"""The one rule for text a client sends us to store: no control characters, and names not blank.

Every request model that takes a name or a label uses these annotated types, so the rule lives in
one place and fails the same way everywhere: a request body that breaks it is refused with 422
``validation_error`` (pydantic's error ``type`` is ``control_characters`` or ``blank``), before
anything reaches the database (PostgreSQL refuses U+0000 in text and JSON, which answered 500).

- :data:`Text`: any text without control characters (Unicode category ``Cc``: U+0000-U+001F,
  U+007F-U+009F, so also tab and newline) or lone surrogates (``Cs``: not valid UTF-8, which a
  JSON ``"\\ud800"`` escape can carry). Kept as sent.
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

import unicodedata
from typing import Annotated

from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

#: Unicode categories refused in text: control characters and (lone) surrogates
REFUSED_CATEGORIES = frozenset({"Cc", "Cs"})


def check_text(value: str) -> str:
    """``value`` unchanged when it has no control character or lone surrogate.

    :raises PydanticCustomError: ``control_characters`` (``ctx``: ``{"position": index}`` of the
        first refused character, counted in characters from 0); pydantic turns it into a
        validation error, which the API answers with 422 ``validation_error``.
    """
    for i, ch in enumerate(value):
        if unicodedata.category(ch) in REFUSED_CATEGORIES:
            raise PydanticCustomError(
                "control_characters",
                "text may not contain control characters (found one at {position})",
                {"position": i},
            )
    return value


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


#: text without control characters (see the module docstring)
Text = Annotated[str, AfterValidator(check_text)]
#: a name: :data:`Text`, then trimmed, not blank (a ``max_length`` given with ``Field`` counts the
#: name as sent)
Name = Annotated[str, AfterValidator(check_name)]
