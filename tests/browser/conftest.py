"""Browser tests: Playwright driving the machine's Chromium (`make test` installs the Debian
package; no browser is ever downloaded). Headless, phone-sized, failing on any console error."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")

# Playwright's sync API runs an event loop in this thread; the tests still touch the database
# from it (to set up data and check results), which Django would otherwise refuse.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail("no /usr/bin/chromium: `make test` installs it (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            # This machine's network is closed: no background calls to Google's hosts.
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A 375-px-wide page that records console errors and failed requests in `page.problems`."""
    context = browser.new_context(viewport={"width": 375, "height": 740}, locale="en-GB")
    page = context.new_page()
    page.problems = []

    def console(message: Any) -> None:
        # A form sent back with its errors is answered 400 on purpose (the test checks the
        # page); Chromium logs that as "Failed to load resource". Sub-resources are checked
        # below, with their address.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            page.problems.append(message.text)

    def response(r: Any) -> None:
        if r.status >= 400 and r.request.resource_type != "document":
            page.problems.append(f"{r.status} {r.url}")

    page.on("console", console)
    page.on("response", response)
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    yield page
    context.close()
