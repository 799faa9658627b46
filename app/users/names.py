"""Names in any script (issue 15, item 3): account names, and the case-insensitive keys and
look-alike skeletons that clan and deck names share.

A name is compared and stored in three forms:

- **as shown** (:func:`clean_name`): NFKC-normalised (so a full-width ``Ａ`` or a decomposed ``č``
  becomes the one ordinary character), surrounding whitespace removed;
- **its key** (:func:`name_key`): NFKC of the case-folded NFKC form (Unicode's ``NFKC_Casefold``
  in practice), unique per kind of name: ``Anička``, ``ANIČKA`` and ``anic\u030cka`` share one key,
  and so do ``Straße`` and ``STRASSE``;
- **its skeleton** (:func:`skeleton`): the key with every character replaced by one chosen member
  of its class of look-alikes (Unicode's confusables data, UTS #39, as the ``confusable_homoglyphs``
  package ships it, with its pairs joined into classes). Two names with one skeleton look alike.
  Only look-alikes across scripts are refused (:func:`is_mixed_script`): ``Аlice`` with a
  Cyrillic ``А`` beside an ``Alice``; two Latin names such as ``Al1ce`` and ``Alice`` may both
  exist, as they always could.

An account name (:func:`check_name`) has 3-24 characters after NFKC, each a letter or a combining
mark of any script, a decimal digit, ``_`` or ``-``, and is not one of :data:`RESERVED_NAMES`
(:func:`is_reserved`).
"""

from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from importlib import resources

from confusable_homoglyphs import categories

from app.errors import DomainError, ErrorCode
from app.users.models import NAME_MAX

NAME_MIN = 3
#: scripts that carry no identity of their own: digits, punctuation, combining marks
NEUTRAL_SCRIPTS = frozenset({"COMMON", "INHERITED"})
#: scripts that one writing system mixes by nature (Japanese), counted as one
JAPANESE = frozenset({"HAN", "HIRAGANA", "KATAKANA"})
#: what an account may not be called: the computer as the pages name its seats in the six
#: languages (a player called "Computer" showed as "Computer · Knight" beside the real computer
#: seats) and the site's own roles; see :func:`is_reserved`. Not "bot": a bot account registers
#: like anyone (docs/bots.md) and wears the BOT mark, so "bot7" is a fair name for one.
RESERVED_NAMES = frozenset(
    {"computer", "počítač", "компьютер", "компютер", "számítógép", "gép"}
    | {"admin", "administrator", "moderator", "system", "tabletoparena"}
)


def clean_name(name: str) -> str:
    """The name as it will be stored and shown: NFKC-normalised, surrounding whitespace removed."""
    return unicodedata.normalize("NFKC", name).strip()


def name_key(name: str) -> str:
    """The case-insensitive key of a name: ``"Anička"``, ``" ANIČKA "`` and ``"anic\u030cka"`` share
    ``"anička"``; ``"Straße"`` and ``"strasse"`` share ``"strasse"``."""
    return unicodedata.normalize("NFKC", clean_name(name).casefold())


def is_name_char(char: str) -> bool:
    """A character an account name may hold: a letter or a combining mark of any script (Unicode
    categories ``L*`` and ``M*``), a decimal digit (``Nd``), ``_`` or ``-``."""
    if char in "_-":
        return True
    category = unicodedata.category(char)
    return category[0] in "LM" or category == "Nd"


def check_name(name: str) -> str:
    """Validate a new account name and return it as stored (:func:`clean_name`).

    :raises DomainError: ``bad_name`` with ``params`` ``{"reason": "length" | "characters" |
        "reserved", "min", "max"}`` (and ``"length"``, counted after NFKC, for a name of the wrong
        length; ``reserved``: :func:`is_reserved`).
    """
    name = clean_name(name)
    limits = {"min": NAME_MIN, "max": NAME_MAX}
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise DomainError(
            ErrorCode.BAD_NAME,
            f"a name has {NAME_MIN}-{NAME_MAX} characters; this one has {len(name)}",
            params={"reason": "length", "length": len(name), **limits},
        )
    if not all(is_name_char(c) for c in name) or unicodedata.category(name[0]).startswith("M"):
        raise DomainError(
            ErrorCode.BAD_NAME,
            "a name holds letters, digits, '_' and '-' only",
            params={"reason": "characters", **limits},
        )
    if is_reserved(name):
        raise DomainError(
            ErrorCode.BAD_NAME,
            "that name is kept for the site itself (the computer's seats, its administrators)",
            params={"reason": "reserved", **limits},
        )
    return name


def is_reserved(name: str) -> bool:
    """Whether ``name`` is one of :data:`RESERVED_NAMES` in any case, with digits, ``_`` or ``-``
    before or after it, or in look-alike letters (``Computer``, ``computer_2``, ``Cоmputer`` with
    a Cyrillic ``о``, ``c0mputer``): compared by :func:`skeleton`."""
    core = name_key(name)
    edge = "_-"
    while core and (core[0] in edge or unicodedata.category(core[0]) == "Nd"):
        core = core[1:]
    while core and (core[-1] in edge or unicodedata.category(core[-1]) == "Nd"):
        core = core[:-1]
    return bool(core) and skeleton(core) in _reserved_skeletons()


@lru_cache(maxsize=1)
def _reserved_skeletons() -> frozenset[str]:
    return frozenset(skeleton(word) for word in RESERVED_NAMES)


def scripts(name: str) -> frozenset[str]:
    """The scripts of a name's characters (Unicode script aliases such as ``LATIN``,
    ``CYRILLIC``), leaving out :data:`NEUTRAL_SCRIPTS` and counting :data:`JAPANESE` as one."""
    found = {categories.alias(c) for c in name} - NEUTRAL_SCRIPTS
    if found & JAPANESE:
        found = (found - JAPANESE) | {"HAN"}
    return frozenset(found)


def is_mixed_script(name: str) -> bool:
    """Whether a name's letters come from more than one script (``Аlice`` with a Cyrillic ``А``)."""
    return len(scripts(name)) > 1


def skeleton(name: str) -> str:
    """The look-alike skeleton of a name: its :func:`name_key` with each character replaced by the
    lowest code point of its class of confusable characters. Names with one skeleton look alike
    (``"Аlice"`` with a Cyrillic ``А`` and ``"alice"``); the skeleton is never shown."""
    classes = _classes()
    return "".join(classes.get(c, c) for c in name_key(name))


@lru_cache(maxsize=1)
def _classes() -> dict[str, str]:
    """Every confusable character's representative: the Unicode confusables pairs (single
    letters, marks and digits only) joined into classes by union-find, each represented by its lowest code
    point, and each member folded as :func:`name_key` folds it first."""
    data = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        parent.setdefault(c, c)
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    def union(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    for char, homoglyphs in data.items():
        for h in homoglyphs:
            other = h["c"]
            if len(char) == 1 and len(other) == 1 and _alnum(char) and _alnum(other):
                union(_fold(char), _fold(other))
    return {c: find(c) for c in parent if find(c) != c}


def _alnum(char: str) -> bool:
    """A letter, combining mark or decimal digit: the look-alikes a name can hold (punctuation
    and symbols would join unrelated letters into one class: ``l`` to ``|`` to ...)."""
    category = unicodedata.category(char)
    return category[0] in "LM" or category == "Nd"


def _fold(char: str) -> str:
    """One character as :func:`name_key` folds it, or itself when folding makes it several."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", char).casefold())
    return folded if len(folded) == 1 else char
