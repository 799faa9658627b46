"""Request and response bodies of the account routes.

Name and password rules are checked by :mod:`app.users.security` (so they fail with the stable
codes ``bad_name`` / ``weak_password``); the schemas only cap sizes, so nothing huge reaches the
password hasher. Names and labels refuse control characters (:mod:`app.validation`: 422
``validation_error``); a blank account name stays ``bad_name``, a blank label means "no label".
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from app.users.security import PASSWORD_MAX
from app.validation import Text


class Credentials(BaseModel):
    """``{"name", "password"}``: registration and login."""

    name: Text = Field(max_length=100, examples=["alice"])
    password: str = Field(max_length=PASSWORD_MAX, examples=["correct horse battery"])


class TokenRequest(Credentials):
    """``{"name", "password", "label"?}``: create an API token; ``label`` says what it is for."""

    label: Text = Field("", max_length=100, examples=["my bot"])


class UserOut(BaseModel):
    """A user as others may see it: ``{"id", "name"}``."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    name: str


class UserEnvelope(BaseModel):
    """``{"user": {"id", "name"}}``."""

    user: UserOut


class TokenOut(BaseModel):
    """``{"token", "token_type": "bearer"}``. The token is shown only this once."""

    token: str
    token_type: str = "bearer"
