"""The page's scripts find each other: static/js/ is in folders by feature
(docs/architecture.md), and a moved or renamed file must not leave a
dangling reference behind (read from the source, no browser).

- every relative ES module specifier in static/js/ and in the tests' .mjs
  files names an existing file;
- every script a template names (``url_for(... filename='js/x')`` or a name
  that _page.html's ``assets(js=...)`` prefixes with ``js/``) exists;
- the folders keep their direction: ``core/`` imports no other folder,
  ``painters/`` only ``core/``, a page's folder no other page's folder but
  through the hooks listed in :data:`CROSS_PAGE`.
"""
from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
JS = REPO / "static" / "js"

SPEC = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*|\bnew\s+URL\(\s*)(['"])(\.{1,2}/[^'"\s?#]+)""")
SCRIPT_NAME = re.compile(r"""['"]([\w./-]+\.js)['"]""")

SHARED = ("core", "painters")
CROSS_PAGE = {
    ("visualizer", "classes/class-start.js"): "the visualizer's 'Start a class' button",
    ("practice", "homework/assignment-exercise.js"): "an assignment's exercise runs on the practice page",
    ("classes", "practice/practice-tree.js"): "the student's answer picks nodes as practice does",
}
"""A page folder importing another page's module, each with why."""


def _specifiers(path: Path):
    text = path.read_text(encoding="utf-8")
    for m in SPEC.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, m.group(2)


def _folder(path: Path) -> str | None:
    rel = path.relative_to(JS).parts
    return rel[0] if len(rel) > 1 else None


def test_every_relative_import_resolves():
    files = [*JS.rglob("*.js"), *(REPO / "tests").rglob("*.mjs"), *(REPO / "bench").rglob("*.mjs")]
    assert len(files) > 50
    dangling = [f"{p.relative_to(REPO)}:{n} {spec}" for p in files for n, spec in _specifiers(p)
                if not (p.parent / spec).resolve().is_file()]
    assert not dangling, dangling


def test_every_script_a_template_names_exists():
    named = {}
    for page in (REPO / "templates").glob("*.html"):
        for name in SCRIPT_NAME.findall(page.read_text(encoding="utf-8")):
            named.setdefault(name, page.name)
    assert len(named) >= 10
    missing = [f"{page}: {name}" for name, page in named.items()
               if not (REPO / "static" / (name if name.startswith("js/") else f"js/{name}")).is_file()]
    assert not missing, missing


def test_folders_import_downward_only():
    wrong = []
    for path in JS.rglob("*.js"):
        here = _folder(path)
        if here is None:
            continue
        for n, spec in _specifiers(path):
            target = (path.parent / spec).resolve()
            if not target.is_relative_to(JS):
                continue  # ../vendor
            there = _folder(target)
            rel = target.relative_to(JS).as_posix()
            if there in (None, here) or (here, rel) in CROSS_PAGE:
                continue
            if (here == "core") or (here == "painters" and there != "core") or (
                    here not in SHARED and there not in SHARED):
                wrong.append(f"{path.relative_to(JS)}:{n} imports {rel}")
    assert not wrong, wrong
