"""docs/errors.md lists every error code with its HTTP status, as scripts/error_table.py writes it
from app/errors.py and app/api/errors.py."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from app.api.errors import HTTP_STATUS
from app.errors import ErrorCode

ROOT = Path(__file__).resolve().parents[1]


def _script():
    spec = importlib.util.spec_from_file_location("error_table", ROOT / "scripts" / "error_table.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_error_page_is_current():
    page = (ROOT / "docs" / "errors.md").read_text()
    assert page == _script().table(), "docs/errors.md is out of date: run .venv/bin/python scripts/error_table.py"


def test_the_error_page_lists_every_code_with_its_status():
    page = (ROOT / "docs" / "errors.md").read_text()
    for code in ErrorCode:
        assert f"| `{code.value}` | {HTTP_STATUS[code]} |" in page, code
