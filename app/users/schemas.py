"""Request and response bodies of the account routes.

Name and password rules are checked by :mod:`app.users.security` (so they fail with the stable
codes ``bad_name`` / ``weak_password``); the schemas only cap sizes, so nothing huge reaches the
password hasher. Names and labels refuse control characters (:mod:`app.validation`: 422
``validation_error``); a blank account name stays ``bad_name``, a blank label means "no label".
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from app.users.models import NAME_MAX
from app.users.names import NAME_MIN, is_name_char
from app.users.security import PASSWORD_MAX, PASSWORD_MIN, REPEATED_PASSWORD
from app.validation import SchemaPattern, Text, char_class, check_text, code_point_ranges, spaces_class


@cache
def new_name_pattern() -> str:
    """The JSON Schema ``pattern`` of a new account name (:func:`app.users.names.check_name`):
    3-24 letters or combining marks of any script, decimal digits, ``_`` or ``-`` (as explicit
    code point ranges, which every regular-expression dialect reads alike), with any surrounding
    whitespace (trimmed). What it cannot say (lengths after NFKC; a name starting with a mark;
    look-alikes of existing names) is refused with ``bad_name``, one of the route's unstated rule
    codes."""
    spaces = spaces_class()
    chars = char_class(code_point_ranges(is_name_char))
    return f"^{spaces}*{chars}{{{NAME_MIN},{NAME_MAX}}}{spaces}*$"


def _new_password_schema(schema: dict[str, Any]) -> None:
    """The password rules of :func:`app.users.security.check_password` that JSON Schema can state."""
    schema.update(minLength=PASSWORD_MIN, maxLength=PASSWORD_MAX, **{"not": {"pattern": REPEATED_PASSWORD}})


#: an account name as sent to ``register``: :data:`~app.validation.Text` whose schema states the name rules
NewName = Annotated[str, AfterValidator(check_text), SchemaPattern(new_name_pattern)]


class Credentials(BaseModel):
    """``{"name", "password"}``: registration and login."""

    name: Text = Field(max_length=100, examples=["alice"])
    password: str = Field(max_length=PASSWORD_MAX, examples=["correct horse battery"])


class NewAccount(BaseModel):
    """``{"name", "password"}`` of a new account (``register``). The schema states the rules of
    :mod:`app.users.security`; the server checks them there, so a name or password that breaks
    one is refused with 422 ``bad_name`` or ``weak_password`` (``params.reason``), and a password
    equal to the name (ignoring letter case), the one rule a schema cannot state, with 422
    ``weak_password`` (``same_as_name``)."""

    name: NewName = Field(
        max_length=100, examples=["alice"], description="3-24 characters: A-Z, a-z, 0-9, _ and -, trimmed"
    )
    password: str = Field(
        max_length=PASSWORD_MAX,
        examples=["correct horse battery"],
        description="8-256 characters, not one character repeated, not the name",
        json_schema_extra=_new_password_schema,
    )


class TokenRequest(Credentials):
    """``{"name", "password", "label"?}``: create an API token; ``label`` says what it is for."""

    label: Text = Field("", max_length=100, examples=["my bot"])


class UserOut(BaseModel):
    """A user as others may see it: ``{"id", "name", "is_bot", "rank"}`` (``is_bot``: a bot
    account; ``rank``: ``knight``, ``master``, ``lord`` or ``leader``, :class:`app.points.ranks.Rank`)."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    name: str
    is_bot: bool = False
    rank: Literal["knight", "master", "lord", "leader"] = "knight"


class UserEnvelope(BaseModel):
    """``{"user": {"id", "name", "is_bot", "rank"}}``."""

    user: UserOut


class TokenOut(BaseModel):
    """``{"token", "token_type": "bearer"}``. The token is shown only this once."""

    token: str
    token_type: str = "bearer"


class LanguageChoice(BaseModel):
    """``{"language": "cs"}``: one of the site's locales (:data:`app.i18n.LOCALES`)."""

    language: Literal["en", "cs", "sk", "uk", "ru", "hu"]
