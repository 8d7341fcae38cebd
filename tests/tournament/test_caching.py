"""The shared cache's one-maker rule: readers who miss the same value together wait for the
first one's instead of making it again (tournament/selectors/cache.py)."""

from __future__ import annotations

import threading

import pytest
from django.core.cache import cache

from tournament.selectors import cache as caching
from tournament.selectors.cache import clear_all


def test_readers_who_miss_together_wait_for_the_first_ones_value():
    clear_all()
    started, release = threading.Event(), threading.Event()
    made: list[str] = []

    def slow() -> str:
        made.append("made")
        started.set()
        release.wait(5)
        return "the table"

    answers: list[str] = []
    first = threading.Thread(target=lambda: answers.append(caching.shared("t", "1.0.1", 0, slow)))
    first.start()
    assert started.wait(5)
    second = threading.Thread(
        target=lambda: answers.append(caching.shared("t", "1.0.1", 0, lambda: "made twice"))
    )
    second.start()
    second.join(0.2)
    assert second.is_alive()  # waiting for the first reader, not making its own
    release.set()
    first.join(5)
    second.join(5)
    assert answers == ["the table", "the table"] and made == ["made"]


def test_parts_are_made_once_for_every_part_and_each_reader_gets_its_own():
    clear_all()
    calls: list[int] = []

    def make_parts() -> dict[int, dict[str, int]]:
        calls.append(1)
        return {0: {"a": 1}, 1: {"b": 2}}

    assert caching.shared_part("p", "1.0.1", 1, make_parts) == {"b": 2}
    assert caching.shared_part("p", "1.0.1", 0, make_parts) == {"a": 1}
    assert calls == [1]
    assert caching.shared_part("p", "1.0.2", 0, make_parts) == {"a": 1} and calls == [1, 1]


def test_a_maker_that_fails_leaves_no_mark_behind():
    clear_all()

    def broken() -> str:
        raise RuntimeError("the database went away")

    with pytest.raises(RuntimeError):
        caching.shared("t", "2.0.1", 0, broken)
    # Nobody holds the mark: the next reader makes it at once.
    assert cache.get(caching.shared_key("t", "2.0.1", 0) + ":making") is None
    assert caching.shared("t", "2.0.1", 0, lambda: "made") == "made"


def test_a_reader_waits_no_longer_than_a_dead_makers_mark_allows(monkeypatch):
    clear_all()
    monkeypatch.setattr(caching, "WAIT_SECONDS", 0.2)
    key = caching.shared_key("t", "3.0.1", 0)
    cache.add(f"{key}:making", 1, 30)  # a maker that died holding the mark
    assert caching.shared("t", "3.0.1", 0, lambda: "made here") == "made here"


def test_the_latest_value_is_made_once_and_a_waiter_takes_only_its_stamp_s(monkeypatch):
    clear_all()
    monkeypatch.setattr(caching, "WAIT_SECONDS", 0.3)
    made: list[str] = []

    def make(value):
        return lambda: made.append(value) or value

    assert caching.keep_latest("w", "page 1", "v1", make("one")) == "one"
    assert (
        caching.latest("w", "page 1", "v1") == "one" and caching.latest("w", "page 1", "v2") is None
    )
    # Another process makes v2 (its mark held): a reader waits, never takes v1, takes v2 once
    # kept.
    key = caching.shared_key("w", "latest", "page 1")
    cache.add(f"{key}:v2:making", 1, 30)
    keeper = threading.Timer(0.05, lambda: cache.set(key, ("v2", "two"), 30))
    keeper.start()
    assert caching.keep_latest("w", "page 1", "v2", make("mine")) == "two"
    keeper.join()
    assert made == ["one"]
    # Nothing to keep (a page only its reader may see): made, nothing held, the next makes again.
    assert caching.keep_latest("w", "page 2", "v1", lambda: None) is None
    assert caching.latest("w", "page 2", "v1") is None


def test_views_never_touch_the_cache():
    """Issue 45: one cache for reads, used inside selectors only. A view may name a fragment's
    key (`event_stamp`) for its template's `{% cache %}`; a whole public page is handed to and
    asked of selectors/cache.py by http_caching.py `whole_page` (`keep_latest`, `latest`), under
    the page's tag — no view reads or writes the cache itself."""
    import ast
    from pathlib import Path

    import tournament

    views = Path(tournament.__file__).parent / "views"
    allowed = {
        "tournament.selectors.cache": {"event_stamp"},
        # HTTP caching (ETags, whole anonymous pages): its own module, beside the views.
        "tournament.http_caching": None,
        "django.views.decorators.cache": None,  # never_cache: headers, not a cache
        "functools": None,  # cached_property
    }
    found = []
    for path in sorted(views.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = {alias.name for alias in node.names}
                if node.module in allowed:
                    if not names <= (allowed[node.module] or names):
                        found.append(f"{path.name}: from {node.module} import {sorted(names)}")
                elif any("cach" in n for n in [node.module, *names]):
                    found.append(f"{path.name}: from {node.module} import {sorted(names)}")
            elif isinstance(node, ast.Import):
                found += [f"{path.name}: import {a.name}" for a in node.names if "cach" in a.name]
    assert found == []


def test_the_latest_value_is_read_from_the_process_for_its_stamp_alone(monkeypatch):
    """A whole page read again for the stamp it was kept for is answered by the process, with
    no round trip to the shared cache; another stamp's is not (selectors/cache.py
    LATEST_HERE)."""
    clear_all()
    caching.keep_latest("t", 1, "1.0.1", lambda: "the page at 1")
    asked: list[str] = []
    real = caching.cache.get

    def get(key, *args, **kwargs):
        asked.append(key)
        return real(key, *args, **kwargs)

    monkeypatch.setattr(caching, "cache", type("Spy", (), {"get": staticmethod(get)})())
    assert caching.latest("t", 1, "1.0.1") == "the page at 1" and asked == []
    assert caching.latest("t", 1, "1.0.2") is None and len(asked) == 1
    # Another process kept the newer one: read from the shared cache, then from here.
    monkeypatch.undo()
    caching.cache.set(caching.shared_key("t", "latest", 1), ("1.0.2", "the page at 2"), 60)
    assert caching.latest("t", 1, "1.0.2") == "the page at 2"
    caching.cache.delete(caching.shared_key("t", "latest", 1))
    assert caching.latest("t", 1, "1.0.2") == "the page at 2"  # held here for its stamp
    assert caching.latest("t", 1, "1.0.1") is None  # an older stamp is not answered
