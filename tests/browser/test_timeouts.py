"""Issue 62: a browser step that never returns fails its test, with its stack, and the run
goes on — a browser test once hung a whole run for ten minutes (Playwright's new_context,
close and evaluate have no timeout of their own). Run in a pytest of its own, with a limit of
a few seconds, against this folder's fixtures."""

from __future__ import annotations

from pathlib import Path

pytest_plugins = ["pytester"]

CONFTEST = Path(__file__).with_name("conftest.py")

HANGS = """
seen = []


def test_a_promise_that_never_settles(browser):
    seen.append(browser)
    page = browser.new_context().new_page()
    page.set_content("<p>hi</p>")
    page.evaluate("() => new Promise(() => {})")


def test_the_next_test_gets_a_browser_that_answers(browser):
    assert browser is not seen[0]  # the one that hung is left behind
    context = browser.new_context()
    page = context.new_page()
    page.set_content("<p>hi</p>")
    assert page.inner_text("p") == "hi"
    context.close()
"""


def test_a_hung_browser_step_fails_its_test_with_its_stack_and_the_run_goes_on(pytester):
    pytester.makeconftest(CONFTEST.read_text())
    pytester.makepyfile(test_hangs=HANGS)
    run = pytester.runpytest_subprocess(
        "-p",
        "no:django",
        "-p",
        "no:xdist",
        "-p",
        "no:cacheprovider",
        "--timeout",
        "4",
        timeout=120,
    )
    run.assert_outcomes(passed=1, failed=1)
    out = run.stdout.str()
    assert "Timeout (>4.0s) from pytest-timeout" in out
    # The stack names the step that hung.
    assert "page.evaluate(" in out and "test_hangs.py" in out
