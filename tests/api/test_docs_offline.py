"""The API docs page at ``/docs`` works offline: every script, style sheet and icon it names is
served by this server (fastapi-offline's Swagger UI files), none by a CDN."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient

from app.main import DOCS_ASSETS, create_app
from tests.conftest import make_settings


class _Links(HTMLParser):
    """The ``src`` and ``href`` of every tag, and the text of inline scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.links += [v for k, v in attrs if k in ("src", "href") and v]
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts.append(data)


@pytest.fixture
def docs_client(sqlite_url):
    with TestClient(create_app(make_settings(sqlite_url), start_workers=False)) as c:
        yield c


def test_docs_page_uses_only_its_own_assets(docs_client):
    page = docs_client.get("/docs")
    assert page.status_code == 200 and "SwaggerUIBundle" in page.text
    parsed = _Links()
    parsed.feed(page.text)
    assert len(parsed.links) >= 3  # the bundle, its style sheet, the icon
    for link in parsed.links:
        parts = urlsplit(link)
        assert not parts.scheme and not parts.netloc, f"/docs loads {link} from elsewhere"
        assert link.startswith(DOCS_ASSETS + "/"), link
    assert "http://" not in page.text and "https://" not in page.text  # no CDN anywhere on the page
    assert "'/api/openapi.json'" in "".join(parsed.scripts)
    kinds = {}
    for link in parsed.links:
        asset = docs_client.get(link)
        assert asset.status_code == 200, link
        assert len(asset.content) > 1000, link
        kinds[link.rsplit(".", 1)[1]] = asset.headers["content-type"]
    assert "javascript" in kinds["js"] and kinds["css"].startswith("text/css")
    assert docs_client.get("/api/openapi.json").json()["openapi"].startswith("3.1")


def test_the_bundle_can_draw_openapi_3_1(docs_client):
    """Swagger UI draws OpenAPI 3.1 (FastAPI's) from version 5 on; 4.x says the document has no
    valid version field."""
    bundle = docs_client.get(f"{DOCS_ASSETS}/swagger-ui-bundle.js").text
    assert "OpenAPI 3.1" in bundle or "openapi31" in bundle.lower()
