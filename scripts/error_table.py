"""Write docs/errors.md, the table of every error code a client can receive, from the one list
(:class:`app.errors.ErrorCode`: each member's ``#:`` comment) and the HTTP status of each
(:data:`app.api.errors.HTTP_STATUS`). ``tests/test_error_docs.py`` checks the page is current.

    .venv/bin/python scripts/error_table.py          # rewrite docs/errors.md
    .venv/bin/python scripts/error_table.py --check  # exit 1 when docs/errors.md is out of date
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "errors.md"

INTRO = """# Error codes

Every refusal, over HTTP and over the websocket, carries one of these codes. Over HTTP the body is
`{"error": {"code", "message", "params"}}` with the status below; on the websocket it is the frame
`{"type": "error", "code", "message", "params", "ack"}` and the connection stays open. Nothing
changed when a request is refused. Read `code` and `params` (the values the words need, e.g.
`{"retry_after": 7}`); `message` is English for developers. The page's words for each code are in
`static/js/messages.js`.

The list is `ErrorCode` in `app/errors.py` and the statuses are `HTTP_STATUS` in
`app/api/errors.py`; this page is written from them by `scripts/error_table.py` (do not edit it
by hand).
"""

_SECTION = re.compile(r"^\s*# --- (.+?) -+\s*$")
_COMMENT = re.compile(r"^\s*#: ?(.*)$")
_ROLE = re.compile(r":[a-z]+:(?=`)")  # Sphinx roles (:mod:) read as plain code here
_MEMBER = re.compile(r'^\s*([A-Z_]+) = "([a-z_]+)"\s*$')


def table() -> str:
    """The page: the introduction, then one table per section of ``ErrorCode``."""
    sys.path.insert(0, str(ROOT))
    from app.api.errors import HTTP_STATUS
    from app.errors import ErrorCode

    lines = [INTRO.rstrip("\n")]
    comment: list[str] = []
    for line in (ROOT / "app" / "errors.py").read_text().splitlines():
        if m := _SECTION.match(line):
            lines += ["", f"## {m.group(1)[0].upper()}{m.group(1)[1:]}", "", "| code | HTTP | when |", "|---|---|---|"]
        elif m := _COMMENT.match(line):
            comment.append(m.group(1))
        elif (m := _MEMBER.match(line)) and comment:
            code = ErrorCode(m.group(2))
            text = _ROLE.sub("", " ".join(comment)).replace("``", "`").replace("|", "\\|")
            lines.append(f"| `{code.value}` | {HTTP_STATUS[code]} | {text} |")
            comment = []
        else:
            comment = []
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Rewrite docs/errors.md, or (``--check``) say whether it is current. :returns: the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check that docs/errors.md is current")
    args = parser.parse_args(argv)
    text = table()
    if args.check:
        current = PAGE.exists() and PAGE.read_text() == text
        print("docs/errors.md is current" if current else "docs/errors.md is out of date: run scripts/error_table.py")
        return 0 if current else 1
    PAGE.write_text(text)
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
