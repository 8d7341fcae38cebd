"""Issue 65: every `{% cache %}` fragment is kept by one key, a property of the page's record
made in tournament/selectors/ (RoundPage.tables_key, GameVersion.sheet_key, …) — never a tuple
put together in a view, a form or the template. Held by reading the source, as
test_views_query_nothing.py keeps the views off the database: no module in tournament/views/,
tournament/forms/ or tournament/api.py makes a key (a name ending in `_key` handed to a
template, or a function of that name) or imports a cache; each template's `{% cache %}` varies
on one record's attribute (`page.tables_key`), nothing beside it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.utils.text import smart_split

import tournament

ROOT = Path(tournament.__file__).parent
TEMPLATES = ROOT.parent / "templates"
CACHES = {"tournament.selectors.cache", "django.core.cache"}
# A view hands the HTTP caching module the event's stamp for a page's ETag (page_tag): a
# stamp, not a cache read or a fragment's key.
STAMPS = {"event_stamp"}
CACHE_TAG = re.compile(r"{%\s*cache\s+(.*?)\s*%}", re.S)
ONE_ATTRIBUTE = re.compile(r"^[a-z_]\w*(\.\w+)+$")


def _modules() -> list[Path]:
    return sorted(
        [*(ROOT / "views").rglob("*.py"), *(ROOT / "forms").rglob("*.py"), ROOT / "api.py"]
    )


def _is_key(name: object) -> bool:
    return isinstance(name, str) and name.endswith("_key")


def keys_in(source: str) -> list[str]:
    """What in `source` makes a cache key or reaches a cache, each as `line: what`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            found += [
                f"{k.lineno}: {k.value!r}"
                for k in node.keys
                if isinstance(k, ast.Constant) and _is_key(k.value)
            ]
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            index = node.slice
            if isinstance(index, ast.Constant) and _is_key(index.value):
                found.append(f"{node.lineno}: [{index.value!r}]")
        elif isinstance(node, ast.keyword) and _is_key(node.arg):
            found.append(f"{node.lineno}: {node.arg}=")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _is_key(node.name):
            found.append(f"{node.lineno}: def {node.name}")
        elif isinstance(node, ast.ImportFrom) and node.module in CACHES:
            names = {alias.name for alias in node.names}
            if node.module != "tournament.selectors.cache" or names - STAMPS:
                found.append(f"{node.lineno}: from {node.module} import {sorted(names)}")
        elif isinstance(node, ast.ImportFrom) and node.module in {
            "tournament.selectors",
            "django.core",
        }:
            found += [
                f"{node.lineno}: from {node.module} import cache"
                for alias in node.names
                if alias.name == "cache"
            ]
        elif isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names if a.name in CACHES]
    return found


def fragment_keys_in(template: str) -> list[str]:
    """Each `{% cache %}` in `template` whose key is not one attribute of one variable."""
    found = []
    for tag in CACHE_TAG.finditer(template):
        bits = [b for b in smart_split(tag.group(1)) if not b.startswith("using=")]
        vary_on = bits[2:]  # after the timeout and the fragment's name
        if len(vary_on) != 1 or not ONE_ATTRIBUTE.match(vary_on[0]):
            found.append(f"{{% cache {tag.group(1)} %}}")
    return found


def test_the_rules_see_each_way_of_making_a_key():
    source = """
from django.core.cache import cache
from tournament.selectors.cache import event_stamp, shared
from tournament.selectors.cache import event_stamp
import django.core.cache
context = {"tables_key": (event_stamp(event), number), "page": page}
context["rating_key"] = (player_id, step)
render(request, "x.html", dict(sheet_key=key))
def kept_key(self):
    return repr(self.rules)
"""
    assert sorted(keys_in(source)) == [
        "2: from django.core.cache import ['cache']",
        "3: from tournament.selectors.cache import ['event_stamp', 'shared']",
        "5: import django.core.cache",
        "6: 'tables_key'",
        "7: ['rating_key']",
        "8: sheet_key=",
        "9: def kept_key",
    ]
    assert keys_in("tag = page_tag(request, 'x', [event_stamp(event)])\nkey = link.key") == []
    assert fragment_keys_in(
        "{% cache 300 a page.tables_key %}{% cache 300 b key %}{% cache 300 c report of_plan %}"
        "{% cache 300 d page.key section.event_id %}{% cache 300 e page.key using='x' %}"
    ) == [
        "{% cache 300 b key %}",
        "{% cache 300 c report of_plan %}",
        "{% cache 300 d page.key section.event_id %}",
    ]


def test_views_forms_and_the_api_make_no_fragment_key_and_reach_no_cache():
    modules = _modules()
    assert (
        ROOT / "forms" / "hands.py" in modules and ROOT / "views" / "public" / "games.py" in modules
    )
    found = [
        f"{path.relative_to(ROOT)}:{where}"
        for path in modules
        for where in keys_in(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_each_fragment_is_kept_by_one_records_key():
    templates = sorted(TEMPLATES.rglob("*.html"))
    assert any("{% cache" in path.read_text(encoding="utf-8") for path in templates)
    found = [
        f"{path.relative_to(TEMPLATES)}: {tag}"
        for path in templates
        for tag in fragment_keys_in(path.read_text(encoding="utf-8"))
    ]
    assert found == []
