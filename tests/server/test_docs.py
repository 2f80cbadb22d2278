"""The project documents itself: the README and docs/ link only to files in
the repository, and those files exist."""
from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_readme_and_docs_link_only_inside_the_repository():
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    assert {p.name for p in pages} >= {"README.md", "format.md", "cli.md", "api.md"}
    for page in pages:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            assert not target.startswith(("http:", "https:", "//")), f"{page.name}: {target}"
            path = (page.parent / target.split("#")[0]).resolve()
            assert path.is_relative_to(REPO), f"{page.name} links outside: {target}"
            assert path.exists(), f"{page.name} links to a missing file: {target}"
