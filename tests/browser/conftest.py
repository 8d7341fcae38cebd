"""Browser tests: Playwright driving the machine's Chromium (`make test` installs the Debian
package; no browser is ever downloaded). Headless, phone-sized, failing on any console error.

The headless shell (Debian's chromium-headless-shell: Chromium's "old" headless mode, the same
Blink) rather than the whole browser run headless: Playwright itself runs headless tests in
it, and here it does the suite's 106 browser tests in 130 s of two cores where the whole
browser took 180 s (https://playwright.dev/docs/browsers#chromium-headless-shell; Puppeteer's
"Headless mode" guide: "more performant for automation tasks"). CHROMIUM=/usr/bin/chromium
runs them in the whole browser."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium-headless-shell"))

# Playwright's sync API runs an event loop in this thread; the tests still touch the database
# from it (to set up data and check results), which Django would otherwise refuse.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


# This machine's network is closed: no background calls to Google's hosts.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch(playwright: Any, **options: Any) -> Any:
    """The machine's Chromium, headless."""
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=ARGS, **options
    )


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"no {CHROMIUM}: `make test` installs it (apt-get install {CHROMIUM.name})")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


class Chromium:
    """The worker's browser, shared by its tests. Every test runs under pytest-timeout's limit
    (pyproject.toml), which fails a test hanging in a Playwright call that has no timeout of
    its own (new_context, close, evaluate) with its stack. The browser it hung in may never
    answer again: the next test gets a new one, rather than hanging in turn."""

    def __init__(self, playwright: Any) -> None:
        self.playwright = playwright
        self.current = launch(playwright)
        self.wedged = False

    def get(self) -> Any:
        if self.wedged:
            # Left as it is: closing a browser that does not answer would hang too.
            self.current = launch(self.playwright)
            self.wedged = False
        return self.current


@pytest.fixture(scope="session")
def chromium(playwright: Any) -> Iterator[Chromium]:
    shared = Chromium(playwright)
    yield shared
    shared.current.close()


@pytest.fixture
def browser(chromium: Chromium) -> Any:
    return chromium.get()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.failed and "from pytest-timeout" in report.longreprtext:
        shared = item.funcargs.get("chromium") if hasattr(item, "funcargs") else None
        if isinstance(shared, Chromium):
            shared.wedged = True


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
