"""The engine's shape (issue 14): no module of `scoring` imports one that imports it back,
directly or round a longer loop — at the top or inside a function — and none imports Django.
An import for type hints only (`if TYPE_CHECKING:`) never runs and is no loop: rules_check.py
names the Ruleset it checks, which rules.py makes."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "scoring"


def _run_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of the module but those under `if TYPE_CHECKING:` (its `else:` runs)."""
    nodes: list[ast.AST] = []
    pending = [tree]
    while pending:
        node = pending.pop()
        nodes.append(node)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and ast.unparse(child.test) == "TYPE_CHECKING":
                pending.extend(child.orelse)
            else:
                pending.append(child)
    return nodes


def _imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in ENGINE.rglob("*.py"):  # sub-packages too (scoring.conditions.last_hand)
        parts = path.relative_to(ENGINE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found: set[str] = set()
        for node in _run_nodes(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module == "scoring":
                    found.update(f"scoring.{a.name}" for a in node.names)
                else:
                    found.add(node.module)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
        graph[name] = found
    return graph


def test_the_engine_has_no_import_cycle():
    graph = _imports()
    modules = {m for m in graph if m != "scoring"}  # the package gathers; nothing imports it
    seen: dict[str, str] = {}

    def visit(module: str, path: list[str]) -> None:
        if seen.get(module) == "done":
            return
        assert seen.get(module) != "open", " → ".join([*path, module])
        seen[module] = "open"
        for other in sorted(graph.get(module, set()) & modules):
            visit(other, [*path, module])
        seen[module] = "done"

    for module in sorted(modules):
        visit(module, [])


def test_the_engine_never_imports_django():
    for module, imported in _imports().items():
        assert not any(m.split(".")[0] == "django" for m in imported), module
