"""Imports run one way (issue 65), read from the code: the services and tasks.py never import
each other in a circle (a task imports its service inside its body; a service queues a task by
name through services/queue.py); no selector imports a service (reads never call writes); no
module imports another's private name; a migration runs only what it holds, never the app's
code of today."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django_tasks.base import Task

import tournament.tasks
from tournament.services.queue import TASK_NAMES

ROOT = Path(__file__).resolve().parents[2]
TASKS = "tournament.tasks"
QUEUE = "tournament/services/queue.py"


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _trees(*folders: str) -> dict[str, ast.Module]:
    """Each module under `folders` by its dotted name, parsed."""
    return {
        _module(path): ast.parse(path.read_text(encoding="utf-8"))
        for folder in folders
        for path in sorted((ROOT / folder).rglob("*.py"))
    }


def _imported(name: str, node: ast.Import | ast.ImportFrom) -> list[tuple[str, str]]:
    """(module, name) of each thing `node` in module `name` imports ("" for a whole module);
    relative imports made absolute."""
    if isinstance(node, ast.Import):
        return [(alias.name, "") for alias in node.names]
    base = node.module or ""
    if node.level:
        package = name.split(".")[: -node.level]
        base = ".".join([*package, *([base] if base else [])])
    return [(base, alias.name) for alias in node.names]


def _imports(name: str, tree: ast.Module, top_only: bool = False) -> list[tuple[str, str, int]]:
    nodes = tree.body if top_only else ast.walk(tree)
    return [
        (module, what, node.lineno)
        for node in nodes
        if isinstance(node, ast.Import | ast.ImportFrom)
        for module, what in _imported(name, node)
    ]


def _targets(modules: set[str], module: str, what: str) -> set[str]:
    """Which of `modules` an import of `what` from `module` loads."""
    return {m for m in (f"{module}.{what}", module) if m in modules}


def test_no_service_imports_the_tasks():
    """A service names the task it queues (enqueue_on_commit, services/queue.py): no module
    under services/ imports tasks.py, at its top or inside a function."""
    found = [
        f"{name}:{line}"
        for name, tree in _trees("tournament/services").items()
        for module, what, line in _imports(name, tree)
        if module == TASKS or (module == "tournament" and what == "tasks")
    ]
    assert found == []


def test_no_selector_imports_a_service():
    """Reads never call writes: no module under selectors/ imports tournament.services (at its
    top or inside a function). A read the services need too lives in selectors/ and the
    service imports it (selectors/checkin.py, selectors/rounds.table_size); a check that is
    the write's own (services/rounds.round_keep_refusal) is handed in by the view."""
    found = [
        f"{name}:{line} {module}"
        for name, tree in _trees("tournament/selectors").items()
        for module, what, line in _imports(name, tree)
        if module == "tournament.services"
        or module.startswith("tournament.services.")
        or (module == "tournament" and what == "services")
    ]
    assert found == []


def test_tasks_import_their_services_inside_their_bodies():
    tree = ast.parse((ROOT / "tournament/tasks.py").read_text(encoding="utf-8"))
    top = [m for m, _what, _line in _imports(TASKS, tree, top_only=True)]
    assert not [m for m in top if m.startswith("tournament.")], top


def test_every_task_a_service_queues_is_a_task_of_tasks_py():
    tasks = {name for name, value in vars(tournament.tasks).items() if isinstance(value, Task)}
    assert set(TASK_NAMES) <= tasks
    queued = []
    for name, tree in _trees("tournament").items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "enqueue_on_commit":
                first = node.args[0]
                assert isinstance(first, ast.Constant), f"{name}:{node.lineno}: a task by name"
                queued.append(first.value)
    assert queued and set(queued) <= set(TASK_NAMES)
    # The one enqueue: nothing else in the app calls a task's `enqueue` but tasks.py itself
    # (a task queued again later) and the helper.
    callers = {
        name
        for name, tree in _trees("tournament").items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "enqueue"
    }
    assert callers == {TASKS, "tournament.services.queue"}


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One circle of imports in `graph`, or []."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node] = 2
        path.pop()
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_the_services_and_tasks_import_no_circle():
    """Every import counted, at a module's top or inside a function: the services and tasks.py
    make a graph without a circle (issue 65 found one of 14 modules through tasks.py)."""
    trees = _trees("tournament/services")
    trees[TASKS] = ast.parse((ROOT / "tournament/tasks.py").read_text(encoding="utf-8"))
    graph = {
        name: {
            target
            for module, what, _line in _imports(name, tree)
            for target in _targets(set(trees), module, what)
        }
        - {name}
        for name, tree in trees.items()
    }
    assert _cycle(graph) == []


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


@pytest.mark.parametrize("folder", ["tournament", "scoring", "bench"])
def test_no_module_imports_another_modules_private_name(folder):
    """A name with a leading underscore is its module's own: one that another module needs is
    public and named for what it is (tests may reach in)."""
    found = [
        f"{name}:{line}: {module} {what}"
        for name, tree in _trees(folder).items()
        for module, what, line in _imports(name, tree)
        if any(_private(part) for part in [what, *module.split(".")])
    ]
    assert found == []


def test_migrations_run_only_what_they_hold():
    """A migration runs against the models as they were (apps.get_model): code it imports from
    the app or the engine would run as it is today, and change what an old migration does
    (Django's docs: "Historical models"). Only what the migration's own fields name may be
    imported: a field class (models/fields.py), the presets' choices (models/venues.py)."""
    allowed = {"tournament.models.fields", "tournament.models.venues"}
    found = [
        f"{name}:{line}: {module}"
        for name, tree in _trees("tournament/migrations").items()
        for module, _what, line in _imports(name, tree)
        if module.split(".")[0] in ("tournament", "scoring") and module not in allowed
    ]
    assert found == []
