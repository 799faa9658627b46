"""The API docs page draws in a browser cut off from everything but this server (its Swagger UI
files are ours: app/main.py, fastapi-offline)."""

from __future__ import annotations

from playwright.sync_api import expect


def test_api_docs_draw_offline(new_page, server):
    page = new_page()
    elsewhere: list[str] = []

    def only_this_server(route):
        if route.request.url.startswith(server.base_url + "/"):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    page.route("**/*", only_this_server)
    page.goto("/docs")
    # generous: the first /api/openapi.json builds the whole document, on a shared, loaded machine
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Tabletop Arena", timeout=90000)
    expect(page.locator(".opblock-summary-path", has_text="/api/matches").first).to_be_visible(timeout=30000)
    assert elsewhere == []
