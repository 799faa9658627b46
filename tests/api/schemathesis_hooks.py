"""Schemathesis hooks for :mod:`tests.api.test_schemathesis` (loaded through ``SCHEMATHESIS_HOOKS``).

One check, :func:`unstated_rules_only`, stands in for ``positive_data_acceptance`` on the
operations whose OpenAPI entry lists ``x-unstated-rule-codes`` (the test turns the built-in check
off for those only): a request that fits the schema must be accepted as the built-in check
expects, except that it may be refused with one of those codes, for a rule that involves
several fields and that the operation's description states (JSON Schema cannot). A 422 with any
other code, ``validation_error`` above all, still fails: the schema promised more than the server
accepts.
"""

from __future__ import annotations

import schemathesis

#: what the built-in positive_data_acceptance expects by default, besides 2xx, 3xx and 5xx
ACCEPTED = {401, 403, 404, 409, 429}


@schemathesis.check
def unstated_rules_only(ctx, response, case):  # type: ignore[no-untyped-def]
    """Positive data is accepted, or refused only with a documented unstated rule's code."""
    meta = case.meta
    unstated = case.operation.definition.raw.get("x-unstated-rule-codes")
    if not unstated or meta is None or not meta.generation.mode.is_positive:
        return None
    status = response.status_code
    if 200 <= status < 400 or status >= 500 or status in ACCEPTED:
        return None
    try:
        code = response.json()["error"]["code"]
    except Exception:  # not an error body: the schema check reports that
        code = None
    if 400 <= status < 500 and code in unstated:
        return None
    raise AssertionError(f"Valid data refused with {status} {code!r}, not one of the unstated rules' codes {unstated}")
