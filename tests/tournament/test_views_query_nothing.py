"""Issue 65: views and the API parse, call, render — every read is a selector's, every write a
service's. Held by reading their source (as test_caching.py keeps views off the cache): no
module in tournament/views/ or tournament/api*.py names a model's manager (`.objects`),
reads a row again (`refresh_from_db`), or hands a model or queryset to
`get_object_or_404`/`get_list_or_404` (a selector answers None and the view raises Http404)."""

from __future__ import annotations

import ast
from pathlib import Path

import tournament

ROOT = Path(tournament.__file__).parent
SHORTCUTS = {"get_object_or_404", "get_list_or_404"}


def _modules() -> list[Path]:
    return sorted([*(ROOT / "views").rglob("*.py"), *ROOT.glob("api*.py")])


def _called(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def queries_in(source: str) -> list[str]:
    """What in `source` reads the database itself, each as `line: what`. A manager reached
    another way (`event.rounds.exists()`) is not seen: README's rule, kept by review."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "objects":
            found.append(f"{node.lineno}: .objects")
        elif isinstance(node, ast.Call) and _called(node) in {"refresh_from_db", *SHORTCUTS}:
            found.append(f"{node.lineno}: {_called(node)}()")
        elif isinstance(node, ast.ImportFrom) and node.module == "django.shortcuts":
            named = SHORTCUTS & {alias.name for alias in node.names}
            found += [f"{node.lineno}: import {name}" for name in sorted(named)]
    return found


def test_the_rule_sees_each_way_of_querying():
    source = """
from django.shortcuts import get_object_or_404, render
from django import shortcuts
a = Round.objects.filter(number=1)
b = shortcuts.get_list_or_404(rounds, event=event)
game.refresh_from_db()
"""
    assert sorted(queries_in(source)) == [
        "2: import get_object_or_404",
        "4: .objects",
        "5: get_list_or_404()",
        "6: refresh_from_db()",
    ]
    assert queries_in("render(request, 'x.html', {'objects': rows})") == []


def test_views_and_the_api_query_nothing_themselves():
    modules = _modules()
    assert ROOT / "api.py" in modules and ROOT / "views" / "public" / "standings.py" in modules
    found = [
        f"{path.relative_to(ROOT)}:{where}"
        for path in modules
        for where in queries_in(path.read_text(encoding="utf-8"))
    ]
    assert found == []
