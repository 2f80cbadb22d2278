"""The package's import structure, read from the source (no import is run).

Every ``import`` in app/ counts, those inside functions too (a late import
hides a circle from Python, not from a reader). The rules:

- no circle between modules;
- the search core (app/search) imports nothing of app outside itself;
- the layers without Flask (assignments, classes, practice, search, games,
  treefile) never import app.web, nor Flask.

Modules the registry loads by name (``import_module``) are not read here.
"""
from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "app"

NO_WEB = ("app.assignments", "app.classes", "app.practice", "app.search", "app.games",
          "app.treefile")

CIRCLES_ALLOWED: dict[frozenset[str], str] = {}
"""Circles kept on purpose, each with why (none today)."""


def _modules() -> dict[str, Path]:
    out = {}
    for path in APP.rglob("*.py"):
        parts = path.relative_to(APP.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _package(module: str, path: Path) -> str:
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _target(name: str) -> str | None:
    """The module of app that importing ``name`` runs last (a name inside a module
    is its module)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str) -> set[str]:
    """The app modules ``module`` imports, anywhere in its file."""
    path = MODULES[module]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = _package(module, path)
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            # ``from pkg import name``: the submodule pkg.name if there is one
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                     for a in node.names]
        else:
            continue
        for name in names:
            target = _target(name) if name.split(".")[0] == "app" else None
            if target and target != module:
                found.add(target)
    return found


GRAPH = {m: imports_of(m) for m in MODULES}


def _circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected parts of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = set()
            while True:
                w = stack.pop()
                on.discard(w)
                part.add(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(frozenset(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_the_graph_is_read():
    # the reader sees late imports and relative ones (else every test below passes vacuously)
    assert "app.web.assignments" in GRAPH["app.web.lti"] or "app.assignments.making" in \
        GRAPH["app.web.lti"]
    assert "app.search.descriptors" in GRAPH["app.search"]
    assert len(MODULES) > 100


def test_no_import_circle():
    found = {c for c in _circles(GRAPH)} - set(CIRCLES_ALLOWED)
    assert not found, "import circles: " + "; ".join(" <-> ".join(sorted(c)) for c in found)


def test_the_allowed_circles_still_exist():
    # an exception no longer needed is removed, so it cannot hide a new circle
    assert set(CIRCLES_ALLOWED) <= set(_circles(GRAPH))


def test_the_core_imports_nothing_of_app_outside_it():
    wrong = {(m, t) for m, ts in GRAPH.items() if _inside(m, "app.search")
             for t in ts if not _inside(t, "app.search") and t != "app"}
    assert not wrong, sorted(wrong)


def test_the_layers_without_flask_never_import_the_web():
    wrong = {(m, t) for m, ts in GRAPH.items() if any(_inside(m, p) for p in NO_WEB)
             for t in ts if _inside(t, "app.web")}
    assert not wrong, sorted(wrong)


def test_the_layers_without_flask_never_import_flask():
    wrong = set()
    for module, path in MODULES.items():
        if not any(_inside(module, p) for p in NO_WEB):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level
                     else [])
            wrong |= {(module, n) for n in names if n.split(".")[0].startswith("flask")}
    assert not wrong, sorted(wrong)


def test_the_client_address_is_imported_from_its_own_module():
    # it served the live classes first; every limit per client reads it now
    wrong = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and any(a.name == "client_address"
                                                        for a in node.names):
                if (node.module, node.level) not in (("addresses", 1), ("app.web.addresses", 0)):
                    wrong.append(module)
            elif isinstance(node, ast.FunctionDef) and node.name == "client_address" \
                    and module != "app.web.addresses":
                wrong.append(module)
    assert not wrong, wrong
