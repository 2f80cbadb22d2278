"""Exported pictures and worksheet pages: no two texts meet, none runs off.

Every library tree is drawn (Graphviz SVG) at its first cut-off and at the
end, and each worksheet page (question and key); the SVG is opened in the
real browser, which measures every text (the fonts Graphviz picked) and
every game picture; no two may intersect, and all must lie inside the
picture.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from app.render import export
from app.render.engine import draw
from app.render.worksheet import worksheet_pages
from app.search import SearchOptions, run
from app.treefile import load_path
from app.treefile.library import library_paths

TREES = Path(__file__).resolve().parents[2] / "trees"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

pytestmark = pytest.mark.slow

BOXES_JS = """() => {
  const svg = document.querySelector('svg');
  const frame = svg.getBoundingClientRect();
  const items = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() !== '')
    .map((t) => {
      const r = t.getBoundingClientRect();
      const g = t.closest('g[id]');
      return {name: `"${t.textContent.trim()}" (${g ? g.id : '?'})`, group: g ? g.id : '',
              left: r.left, top: r.top, right: r.right, bottom: r.bottom};
    });
  return {frame: {left: frame.left, top: frame.top, right: frame.right, bottom: frame.bottom}, items};
}"""


def _meet(a, b, slack=0.5):
    return (min(a["right"], b["right"]) - max(a["left"], b["left"]) > slack
            and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > slack)


def svg_problems(page, svg: bytes) -> list[str]:
    page.set_content(f"<!doctype html><body style='margin:0'>{svg.decode('utf-8')}</body>")
    got = page.evaluate(BOXES_JS)
    items, frame = got["items"], got["frame"]
    out = []
    for i, a in enumerate(items):
        for b in items[i + 1:]:
            # A board's cells are one picture (a table): its X and O never meet anyway.
            if _meet(a, b):
                out.append(f"{a['name']} overlaps {b['name']}")
        if (a["left"] < frame["left"] - 1 or a["right"] > frame["right"] + 1
                or a["top"] < frame["top"] - 1 or a["bottom"] > frame["bottom"] + 1):
            out.append(f"{a['name']} runs off the picture")
    return out


@pytest.fixture(scope="module")
def svg_page(browser):
    context = browser.new_context(viewport={"width": 1600, "height": 1200})
    yield context.new_page()
    context.close()


def library():
    return [(p.stem, load_path(p)) for p in library_paths(TREES)]


def test_exported_pictures_have_no_overlapping_text(svg_page):
    found = []
    pictures = 0
    ARTIFACTS.mkdir(exist_ok=True)
    for tree_id, tree in library():
        options = SearchOptions()
        events = list(run(tree, options))
        cut = next((e["step"] for e in events if e["type"] == "prune"), len(events) // 2)
        for where, step in (("cut", cut), ("end", None)):
            svg = export(tree, options, step, "svg")
            pictures += 1
            found += [f"{tree_id} {where}: {p}" for p in svg_problems(svg_page, svg)]
            if where == "end":
                (ARTIFACTS / f"export-{tree_id}.svg").write_bytes(svg)
                svg_page.screenshot(path=str(ARTIFACTS / f"export-{tree_id}.png"), full_page=True)
    assert pictures == 2 * len(library())
    assert not found, f"{len(found)} problems:\n" + "\n".join(found[:60])


def test_worksheet_pages_have_no_overlapping_text(svg_page):
    found = []
    for tree_id, tree in library():
        for i, dot in enumerate(worksheet_pages(tree, SearchOptions())):
            svg = draw(dot, "svg")
            found += [f"{tree_id} page {i + 1}: {p}" for p in svg_problems(svg_page, svg)]
    assert not found, f"{len(found)} problems:\n" + "\n".join(found[:60])


def test_the_measure_finds_an_overlap(svg_page):
    svg = (b'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100">'
           b'<g id="a"><text x="10" y="50" font-size="20">overlap</text></g>'
           b'<g id="b"><text x="30" y="55" font-size="20">here</text></g>'
           b'<g id="c"><text x="180" y="90" font-size="20">off</text></g></svg>')
    problems = svg_problems(svg_page, svg)
    assert any("overlaps" in p for p in problems) and any("runs off" in p for p in problems)
