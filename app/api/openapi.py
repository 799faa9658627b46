"""The OpenAPI document at ``/api/openapi.json``: what the server really answers, per operation.

FastAPI writes the document from the routes and their pydantic models; this module makes it
exact where the models alone cannot:

- **Errors.** Each route names the domain error codes its service may raise with
  :func:`errors` (``openapi_extra={"x-error-codes": [...]}``); :func:`route_codes` adds the
  codes the edges themselves send (``validation_error`` for a route with parameters or a body,
  ``bad_request`` for an unreadable body, ``unauthorized`` for a route that needs a user,
  ``forbidden`` and ``unsupported_media_type`` from :mod:`app.api.origin` for a change,
  ``internal_error``) and documents one response per HTTP status (:data:`app.api.errors.HTTP_STATUS`)
  with the one error schema, :class:`ErrorBody`, whose ``code`` is the enum
  :class:`app.errors.ErrorCode`. ``x-error-codes`` stays in the document: the codes one
  operation can send.
- **Rules a schema cannot state.** An operation whose request may be well formed and still be
  refused by a rule involving several fields (a computer seat beyond the number of players, a
  start score above the win score, a Stratego Junior setup that is not one side's pieces) lists
  the code it is refused with under ``x-unstated-rule-codes`` and says the rule in its
  description; nothing else refuses a request that fits the schema.
- **Games.** The game id is an enum of the registered games wherever a request names one, and
  ``POST /api/matches`` is one schema per game (``oneOf`` on ``game``): its player count, seats,
  computer levels and its own options (:meth:`app.games.core.base.BaseRules.options_schema`)
  beside the service's (the clock: ``clock``, ``turn_seconds``, ``bank_seconds``,
  ``increment_seconds``; ``spectators``, ``rated``).
- **Credentials.** ``bearer`` (``Authorization: Bearer <token>``) and ``session`` (the browser's
  cookie) security schemes, required by every operation that needs a user.

:func:`install_openapi` puts it together on an app; the document is built on first request.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute, iter_route_contexts
from pydantic import BaseModel, Field
from starlette.routing import compile_path

from app.api.errors import HTTP_STATUS
from app.errors import ErrorCode, JsonValue

#: HTTP methods that change something (the same-origin rules of :mod:`app.api.origin` apply)
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: the vendor extension naming the error codes of one operation
CODES_KEY = "x-error-codes"
#: the vendor extension naming the codes of rules the request schema cannot state
UNSTATED_KEY = "x-unstated-rule-codes"
#: the security requirement of an operation that needs a user
NEEDS_USER: list[dict[str, list[str]]] = [{"bearer": []}, {"session": []}]


class ErrorDetail(BaseModel):
    """``{"code", "message", "params"}``: what went wrong, as a stable code, an English sentence
    for developers, and the values a client needs to say it in its own words."""

    code: ErrorCode = Field(description="the stable code; clients read this and `params`, not `message`")
    message: str = Field(description="English, for developers and logs")
    params: dict[str, JsonValue] = Field(description='values the words need, e.g. `{"retry_after": 7}`')


class ErrorBody(BaseModel):
    """Every error answer of ``/api``: ``{"error": {"code", "message", "params"}}``."""

    error: ErrorDetail


def errors(*codes: str, database: bool = True, unstated: Iterable[str] = ()) -> dict[str, Any]:
    """The ``openapi_extra`` of a route whose service may refuse with ``codes``.

    :param database: the route uses the database, so it may answer 503 ``busy`` when every
        connection is taken (``settings.db_pool_timeout_seconds``).
    :param unstated: the codes among ``codes`` that refuse a request fitting the schema, for a
        rule the operation's description says and JSON Schema cannot state.
    :raises ValueError: a code that is not in :class:`app.errors.ErrorCode`.
    """
    names = [ErrorCode(c).value for c in codes]
    if database:
        names.append(ErrorCode.BUSY.value)
    extra: dict[str, Any] = {CODES_KEY: names}
    unstated = [ErrorCode(c).value for c in unstated]
    if unstated:
        if not set(unstated) <= set(names):
            raise ValueError(f"unstated codes {unstated} must be among the route's codes {names}")
        extra[UNSTATED_KEY] = unstated
    return extra


def _needs_user(dependant: Dependant) -> bool:
    """Whether the route depends on :func:`app.users.deps.current_user` (directly or not)."""
    from app.users.deps import current_user

    return any(d.call is current_user or _needs_user(d) for d in dependant.dependencies)


def _all_params(dependant: Dependant) -> bool:
    """Whether the route reads a path, query, header or cookie parameter, or a body."""
    if dependant.path_params or dependant.query_params or dependant.body_params:
        return True
    return any(_all_params(d) for d in dependant.dependencies)


def _api_routes(app: FastAPI) -> Iterator[tuple[str, set[str], APIRoute]]:
    """``(path, methods, route)`` of every JSON route of ``app``, routers' prefixes included."""
    for context in iter_route_contexts(app.routes):
        route = context.original_route
        if isinstance(route, APIRoute) and context.path_format:
            yield context.path_format, set(context.methods or ()), route


def route_codes(path: str, methods: set[str], route: APIRoute) -> list[str]:
    """Every error code ``route`` (served at ``path`` for ``methods``) may answer with: its own
    (:func:`errors`) and the edges'."""
    codes = set((route.openapi_extra or {}).get(CODES_KEY, ()))
    codes.add(ErrorCode.INTERNAL_ERROR.value)
    if _all_params(route.dependant):
        codes.add(ErrorCode.VALIDATION_ERROR.value)
    if route.dependant.body_params:
        codes.add(ErrorCode.BAD_REQUEST.value)
    if _needs_user(route.dependant):
        codes.add(ErrorCode.UNAUTHORIZED.value)
    if methods & UNSAFE_METHODS and path.startswith("/api/"):
        codes.update((ErrorCode.FORBIDDEN.value, ErrorCode.UNSUPPORTED_MEDIA_TYPE.value))
    return sorted(codes)


_ERROR_REF = {"$ref": "#/components/schemas/ErrorBody"}
_RETRY_AFTER = {
    "Retry-After": {
        "description": "whole seconds to wait before trying again (with `rate_limited` and `busy`)",
        "schema": {"type": "integer", "minimum": 0},
    }
}


def error_responses(codes: Iterable[str]) -> dict[str, dict[str, Any]]:
    """One OpenAPI response per HTTP status of ``codes`` (:data:`app.api.errors.HTTP_STATUS`),
    each the :class:`ErrorBody` schema, its description naming the codes."""
    by_status: dict[int, list[str]] = {}
    for code in codes:
        by_status.setdefault(HTTP_STATUS[ErrorCode(code)], []).append(code)
    out: dict[str, dict[str, Any]] = {}
    for status, names in sorted(by_status.items()):
        response: dict[str, Any] = {
            "description": "error: " + ", ".join(f"`{n}`" for n in names),
            "content": {"application/json": {"schema": _ERROR_REF}},
        }
        if status in (429, 503):
            response["headers"] = _RETRY_AFTER
        out[str(status)] = response
    return out


def document_errors(app: FastAPI, schema: dict[str, Any]) -> None:
    """In the OpenAPI ``schema`` of ``app``: every ``/api`` operation's error responses
    (:func:`error_responses` of :func:`route_codes`, replacing FastAPI's generic 422), the full
    ``x-error-codes``, and the security requirement of those that need a user."""
    for path, methods, route in _api_routes(app):
        if not path.startswith("/api"):
            continue
        codes = route_codes(path, methods, route)
        for method in methods:
            operation = schema.get("paths", {}).get(path, {}).get(method.lower())
            if operation is None:
                continue
            responses = {k: v for k, v in operation["responses"].items() if not k.startswith(("4", "5"))}
            operation["responses"] = {**responses, **error_responses(codes)}
            operation[CODES_KEY] = codes
            if _needs_user(route.dependant):
                operation["security"] = NEEDS_USER


# --- games ---------------------------------------------------------------------------------------


def _games() -> dict[str, Any]:
    from app.games.core import all_games

    return dict(sorted(all_games().items()))


def deck_games() -> dict[str, dict[str, Any]]:
    """The games that keep saved decks, by id, each with the JSON Schema of its deck (the rules'
    ``deck_schema()``, beside their ``validate_deck``)."""
    return {n: r.deck_schema() for n, r in _games().items() if callable(getattr(r, "deck_schema", None))}


def service_options_schema() -> dict[str, Any]:
    """The JSON Schema of the options the match service reads (:data:`app.matches.write.SERVICE_OPTIONS`)."""
    from app.matches import time_control as tc

    turn = {
        "description": "seconds per turn of the per-turn clock; 0 = untimed (only without computer seats)",
        "anyOf": [
            {"type": "integer", "const": 0},
            {"type": "integer", "minimum": tc.MIN_TURN_SECONDS, "maximum": tc.MAX_TURN_SECONDS},
        ],
    }
    return {
        "clock": {
            "type": "string",
            "enum": list(tc.CLOCKS),
            "description": "`turn` (default): `turn_seconds` per turn; `bank`: a time bank of `bank_seconds` per "
            "seat plus `increment_seconds` after each of its actions",
        },
        "turn_seconds": turn,
        "bank_seconds": {
            "type": "integer",
            "minimum": tc.MIN_BANK_SECONDS,
            "maximum": tc.MAX_BANK_SECONDS,
            "description": f"each seat's starting time bank (clock `bank` only; default {tc.DEFAULT_BANK_SECONDS})",
        },
        "increment_seconds": {
            "type": "integer",
            "minimum": 0,
            "maximum": tc.MAX_INCREMENT_SECONDS,
            "description": "seconds added to a seat's bank after each of its actions (clock `bank` only; "
            f"default {tc.DEFAULT_INCREMENT_SECONDS})",
        },
        "spectators": {"type": "boolean", "description": "whether anybody may watch"},
        "rated": {
            "type": "boolean",
            "description": "a rated match; between a bot account and a person only when both agree (see docs/bots.md)",
        },
    }


def create_match_schema(game: str, rules: Any) -> dict[str, Any]:
    """The request body of ``POST /api/matches`` for ``game``."""
    from app.games.core import bot_levels
    from app.games.core.levels import DIFFICULTIES

    options = rules.options_schema()
    options = {**options, "properties": {**service_options_schema(), **options["properties"]}}
    seat = {"type": "integer", "minimum": 0, "maximum": rules.max_players - 1}
    levels = bot_levels(game)
    named = [*levels, *DIFFICULTIES] if len(levels) == len(DIFFICULTIES) else levels
    level: dict[str, Any] = {"anyOf": [{"type": "string", "enum": named}, {"type": "null"}]}
    return {
        "title": f"CreateMatch_{game}",
        "type": "object",
        "required": ["game"],
        "properties": {
            "game": {"type": "string", "const": game},
            "options": options,
            "players": {
                "anyOf": [
                    {"type": "integer", "minimum": rules.min_players, "maximum": rules.max_players},
                    {"type": "null"},
                ],
                "description": f"seats, {rules.min_players}-{rules.max_players} (default {rules.min_players})",
            },
            "computer": {
                "type": "array",
                "maxItems": rules.max_players - 1,
                "items": {
                    "type": "object",
                    "required": ["seat"],
                    "properties": {"seat": seat, "level": level},
                    "additionalProperties": False,
                },
                "description": "computer seats: each below `players`, each once, never your own seat",
            },
            "seat": {"anyOf": [seat, {"type": "null"}], "description": "your seat (default: the first free one)"},
        },
        "additionalProperties": False,  # (CreateMatch refuses a field it does not know)
    }


def per_game_options(body: dict[str, Any], games: dict[str, Any]) -> dict[str, Any]:
    """A request body with ``game`` and ``options`` (the game's own options) as one schema per
    game, each with ``options`` as exactly that game's :meth:`options_schema` (a tournament names
    its game and the options its matches get, as a match's creator does)."""
    variants = []
    for game, rules in games.items():
        properties = {
            **body["properties"],
            "game": {"type": "string", "const": game},
            "options": rules.options_schema(),
        }
        variants.append({**body, "title": f"{body.get('title', 'Body')}_{game}", "properties": properties})
    return {
        "title": body.get("title", "Body"),
        "description": body.get("description", ""),
        "oneOf": variants,
        "discriminator": {"propertyName": "game"},
    }


def _refine(schema: dict[str, Any]) -> None:
    """Game enums, ``CreateMatch`` per game, the error schema and security, in place."""
    components = schema.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    error_schema = ErrorBody.model_json_schema(ref_template="#/components/schemas/{model}")
    schemas.update(error_schema.pop("$defs", {}))
    schemas["ErrorBody"] = error_schema
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
    components["securitySchemes"] = {
        "bearer": {"type": "http", "scheme": "bearer", "description": "a token from `POST /api/auth/token`"},
        "session": {"type": "apiKey", "in": "cookie", "name": "arena_session", "description": "a browser's log-in"},
    }
    games = _games()
    game_enum = list(games)
    if "CreateMatch" in schemas:
        schemas["CreateMatch"] = {
            "title": "CreateMatch",
            "description": schemas["CreateMatch"].get("description", ""),
            "oneOf": [create_match_schema(g, r) for g, r in games.items()],
            "discriminator": {"propertyName": "game"},
        }
    decks = deck_games()
    if "DeckIn" in schemas:
        deck_in = schemas["DeckIn"]
        schemas["DeckIn"] = {
            "title": "DeckIn",
            "description": deck_in.get("description", ""),
            "oneOf": [
                {
                    "title": f"DeckIn_{game}",
                    "type": "object",
                    "required": ["game", "name", "data"],
                    "properties": {
                        "game": {"type": "string", "const": game},
                        "name": deck_in["properties"]["name"],
                        "data": deck,
                    },
                }
                for game, deck in decks.items()
            ],
            "discriminator": {"propertyName": "game"},
        }
    if "DeckUpdate" in schemas:
        schemas["DeckUpdate"]["properties"]["data"] = {"anyOf": [*decks.values(), {"type": "null"}]}
    if "TournamentIn" in schemas:
        schemas["TournamentIn"] = per_game_options(schemas["TournamentIn"], games)
    _link(schema)
    for item in schema.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for param in operation.get("parameters", []):
                if param.get("name") == "game":
                    _set_enum(param["schema"], game_enum)


#: ``(creating path, its id field, the path parameter it fills)``: the links of the document, from
#: the operation that creates a resource to every operation on it (schemathesis's stateful phase
#: follows them; so can a client generator)
LINKS = (("/api/decks", "deck_id"), ("/api/matches", "match_id"))


def _link(schema: dict[str, Any]) -> None:
    """Add an OpenAPI link from each creating ``POST`` (:data:`LINKS`) to each operation on the
    created resource, its path parameter taken from the ``id`` of the response body."""
    paths = schema.get("paths", {})
    for base, param in LINKS:
        created = paths.get(base, {}).get("post")
        if created is None:
            continue
        links: dict[str, Any] = {}
        for path, item in paths.items():
            if not path.startswith(f"{base}/{{{param}}}"):
                continue
            for operation in item.values():
                name = operation["operationId"]
                links[name] = {"operationId": name, "parameters": {param: "$response.body#/id"}}
        created["responses"]["201"]["links"] = links


def _set_enum(schema: dict[str, Any], values: list[str]) -> None:
    """Put ``enum`` on the string branch of ``schema`` (a plain string or ``anyOf`` with null)."""
    if "anyOf" in schema:
        for branch in schema["anyOf"]:
            if branch.get("type") == "string":
                branch["enum"] = values
    else:
        schema["enum"] = values


def install_openapi(app: FastAPI) -> None:
    """Serve the exact document (:func:`document_errors`, :func:`_refine`) as ``app.openapi``,
    built once per app, on first request."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
        document_errors(app, schema)
        _refine(schema)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def allowed_methods(app: FastAPI, path: str) -> list[str]:
    """The methods the routes of ``path`` serve, and ``OPTIONS``, for an ``Allow`` header; empty
    when no route serves ``path``."""
    methods: set[str] = set()
    for route_path, route_methods, _ in _api_routes(app):
        if compile_path(route_path)[0].match(path):
            methods |= route_methods
    return sorted(methods | {"OPTIONS"}) if methods else []
