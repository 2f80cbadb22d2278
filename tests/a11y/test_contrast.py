"""Text contrast: 4.5:1 (WCAG AA) everywhere, 7:1 (AAA) in the high-contrast
theme. axe-core checks the page's HTML text; the tree's SVG text (values,
names, bounds, player letters) is measured here against what lies under it
(the node's shape for a value inside it, else the stage)."""
from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

pytestmark = pytest.mark.browser

SVG_TEXTS = r"""() => {
  const parse = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null;
    const p = m[1].split(',').map(Number); return p.length > 3 && p[3] === 0 ? null : p.slice(0, 3); };
  const lum = (rgb) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(rgb[0]) + 0.7152 * f(rgb[1]) + 0.0722 * f(rgb[2]); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  let bg = null;
  for (let e = document.querySelector('#tree'); e && !bg; e = e.parentElement) bg = parse(getComputedStyle(e).backgroundColor);
  const out = [];
  for (const t of document.querySelectorAll('#tree text')) {
    const cs = getComputedStyle(t);
    if (cs.visibility === 'hidden' || cs.display === 'none' || !t.textContent.trim()) continue;
    const fill = parse(cs.fill);
    if (!fill) continue;
    const g = t.closest('.node'), shape = g && g.querySelector('.shape');
    let under = bg || [255, 255, 255];
    if (shape && t.matches('.v, .static, .who')) under = parse(getComputedStyle(shape).fill) || under;
    out.push({ text: t.textContent, cls: t.getAttribute('class'), node: g && g.dataset.node,
               ratio: Math.round(ratio(fill, under) * 100) / 100 });
  }
  return out;
}"""

TREES = ["aima-fig-5-2", "itb-three-player", "aima-fig-5-12", "natsheh-alpha-beta-exercise"]


def low_svg_texts(pg, least: float) -> list[dict]:
    texts = pg.evaluate(SVG_TEXTS)
    assert texts, "no tree text measured"
    return [t for t in texts if t["ratio"] < least]


@pytest.mark.parametrize("tree_id", TREES)
def test_tree_text_contrast(page, viz, tree_id):
    viz.open(page, tree_id, "step=18")
    assert not low_svg_texts(page, 4.5)
    page.keyboard.press("End")
    page.wait_for_function("() => { const e = document.querySelector('[data-step]'); "
                           "return e.dataset.total && e.textContent === e.dataset.total; }")
    assert not low_svg_texts(page, 4.5)
    page.keyboard.press("c")                                # the high-contrast theme
    page.wait_for_function("() => document.documentElement.classList.contains('contrast')")
    assert not low_svg_texts(page, 7)


def test_high_contrast_theme_page_text_is_7_to_1(page, viz, fig52):
    viz.open(page, fig52, "step=18")
    page.keyboard.press("c")
    page.wait_for_function("() => document.documentElement.classList.contains('contrast')")
    results = Axe().run(page, options={"runOnly": {"type": "rule",
                                                   "values": ["color-contrast-enhanced"]}})
    bad = [(v["id"], [n["target"] for n in v["nodes"][:5]]) for v in results.response["violations"]]
    assert not bad, bad
