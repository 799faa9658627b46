"""The layers of DESIGN.md section 1, checked on the source (no import is executed):

- nothing under ``app/games`` imports from the rest of ``app`` (the engines are pure);
- no service module of ``app/matches``, ``app/users``, ``app/decks`` (anything but their
  ``routes.py``, request ``schemas.py`` and ``deps.py``) imports FastAPI, Starlette or the HTTP
  edge (``app.api``, ``app.gateway``, ``app.web``, ``app.main``, a ``routes`` or ``deps`` module).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app"

#: modules of these packages must stay free of the web framework
DOMAIN_PACKAGES = ("matches", "users", "decks", "clans")
#: the files of a domain package that belong to the HTTP edge
EDGE_FILES = {"routes.py", "schemas.py", "deps.py"}
FRAMEWORKS = ("fastapi", "starlette")
EDGE_PACKAGES = ("app.api", "app.gateway", "app.web", "app.main")


def module_name(path: Path) -> str:
    """``app/matches/service.py`` -> ``app.matches.service``; a package's ``__init__`` is the package."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> Iterator[tuple[int, str]]:
    """``(line, module)`` for every import in ``path``, relative imports resolved, including
    imports inside functions and ``TYPE_CHECKING`` blocks; ``from m import n`` yields ``m`` and ``m.n``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            yield node.lineno, module
            for alias in node.names:
                yield node.lineno, f"{module}.{alias.name}"


def is_within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def is_edge(module: str) -> bool:
    """True for the web framework and for the HTTP/websocket edge of the app."""
    if any(is_within(module, p) for p in (*FRAMEWORKS, *EDGE_PACKAGES)):
        return True
    parts = module.split(".")
    return parts[0] == "app" and len(parts) >= 3 and parts[1] in DOMAIN_PACKAGES and parts[2] in {"routes", "deps"}


def service_modules() -> list[Path]:
    files = [p for pkg in DOMAIN_PACKAGES for p in sorted((APP / pkg).rglob("*.py")) if p.name not in EDGE_FILES]
    assert len(files) >= 8, files  # the scan sees the packages (models, services, errors, ...)
    return files


def edge_imports_of(path: Path) -> list[str]:
    return [f"{path.relative_to(ROOT)}:{line} imports {m}" for line, m in imports(path) if is_edge(m)]


def outside_imports_of(path: Path) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line} imports {m}"
        for line, m in imports(path)
        if is_within(m, "app") and not is_within(m, "app.games")
    ]


def test_service_modules_do_not_import_the_web_framework_or_the_edge():
    problems = [p for path in service_modules() for p in edge_imports_of(path)]
    assert not problems, "\n".join(problems)


def test_games_import_nothing_from_the_rest_of_the_app():
    files = sorted((APP / "games").rglob("*.py"))
    assert len(files) >= 10, files
    problems = [p for path in files for p in outside_imports_of(path)]
    assert not problems, "\n".join(problems)


# --- the checks catch what they are meant to catch -------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "from fastapi import HTTPException",
        "import starlette.requests",
        "from app.api.errors import ApiError",
        "from app.gateway import frames",
        "from app import web",
        "from app.users.deps import CurrentUser",
        "from ..api.errors import http_status",
        "from . import routes",
        "def f():\n    from fastapi import status\n",
    ],
)
def test_edge_import_in_a_service_module_is_caught(tmp_path, monkeypatch, line):
    package = tmp_path / "app" / "decks"
    package.mkdir(parents=True)
    module = package / "service.py"
    module.write_text(f"from __future__ import annotations\n\nimport json\n{line}\n", encoding="utf-8")
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    assert edge_imports_of(module)


@pytest.mark.parametrize(
    "line",
    [
        "import json",
        "from sqlalchemy import select",
        "from app.errors import DomainError",
        "from .models import Deck",
        "from app.decks.schemas import DeckIn",
        "from app.games.core import GameError",
    ],
)
def test_domain_imports_in_a_service_module_pass(tmp_path, monkeypatch, line):
    package = tmp_path / "app" / "decks"
    package.mkdir(parents=True)
    module = package / "service.py"
    module.write_text(f"{line}\n", encoding="utf-8")
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    assert not edge_imports_of(module)


@pytest.mark.parametrize(
    ("line", "caught"),
    [
        ("from app.errors import DomainError", True),
        ("from ...matches import service", True),
        ("import app.settings", True),
        ("from app import logging", True),
        ("from ..core import Rules", False),
        ("from app.games.core.errors import GameError", False),
        ("from .state import State", False),
    ],
)
def test_game_import_of_the_app_is_caught(tmp_path, monkeypatch, line, caught):
    package = tmp_path / "app" / "games" / "chess"
    package.mkdir(parents=True)
    module = package / "rules.py"
    module.write_text(f"{line}\n", encoding="utf-8")
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    assert bool(outside_imports_of(module)) == caught
