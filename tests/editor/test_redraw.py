"""The shared drawing's `reuse` (static/js/painters/treeview.js), which the editor
redraws with after every edit: the drawing it leaves is the drawing a fresh
view makes of the same tree with the same fields, element for element, while
the elements of the nodes drawn alike are kept."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

# In the page: draw tree A with fields FA, then B with fields FB reusing it;
# draw B with FB fresh in a second viewport; compare the two drawings in a
# canonical form (attributes sorted, classes sorted; the edge layer as a
# multiset, since kept edges stay where they were and new ones are appended).
DRAW_JS = r"""async ({ a, b, fa, fb }) => {
  const { readTree } = await import('/static/js/core/tree.js');
  const { makeTreeView } = await import('/static/js/painters/treeview.js');
  const NS = 'http://www.w3.org/2000/svg';
  const viewport = () => {
    const svg = document.createElementNS(NS, 'svg');
    const g = document.createElementNS(NS, 'g');
    svg.appendChild(g);
    document.body.appendChild(svg);
    return g;
  };
  const show = (view, fields) => {
    view.setNodes(Object.keys(fields).filter((id) => view.nodeEl(id)), (id) => {
      const [status, value, alpha, beta] = fields[id];
      return { status, value, alpha, beta };
    });
  };
  // (A node's bounds text and an edge's cut mark, once made, stay: empty,
  // or hidden, when no bound or cut is shown, as stepping back in the
  // visualizer leaves them. They are not drawn then.)
  // x coordinates are read less `dx`: a reused drawing may stand shifted
  // sideways as a whole (the kept nodes stay put; the zoom fits the box).
  const num = (v, dx) => String(Math.round((parseFloat(v) - dx) * 100) / 100);
  const value = (name, v, dx) => {
    if (['x', 'x1', 'x2'].includes(name)) return num(v, dx);
    if (name === 'd') {
      return v.replace(/([ML])(-?[\d.]+)/g, (_, c, x) => c + num(x, dx))
        .replace(/-?\d+\.\d+/g, (y) => num(y, 0));
    }
    if (['y', 'y1', 'y2'].includes(name)) return num(v, 0);
    return v;
  };
  const canon = (e, dx) => {
    if (e.nodeType === 3) return JSON.stringify(e.textContent);
    if (e.classList.contains('bounds') && !e.textContent) return '';
    if (e.classList.contains('cut-mark') && !e.classList.contains('shown')) return '';
    const attrs = [...e.attributes].map((x) => x.name === 'class'
      ? `class=${[...e.classList].sort().join(' ')}` : `${x.name}=${value(x.name, x.value, dx)}`).sort();
    return `<${e.localName} ${attrs.join(' ')}>${[...e.childNodes].map((c) => canon(c, dx)).join('')}</>`;
  };
  const drawing = (g, dx) => ({
    nodes: [...g.querySelector('.nodes').children].map((e) => canon(e, dx)),
    edges: [...g.querySelector('.edges').children].map((e) => canon(e, dx)).filter(Boolean).sort(),
    ring: canon(g.querySelector('.ring'), dx),
  });
  const v1 = viewport();
  const first = makeTreeView(v1, readTree(a), { absolute: true });
  show(first, fa);
  first.setPath(Object.keys(fa).slice(0, 2));
  const before = new Map([...v1.querySelectorAll('.nodes > [data-node]')].map((g) => [g.dataset.node, g]));
  const reused = makeTreeView(v1, readTree(b), { absolute: true, reuse: first });
  show(reused, fb);
  const v2 = viewport();
  const fresh = makeTreeView(v2, readTree(b), { absolute: true });
  show(fresh, fb);
  const kept = [...v1.querySelectorAll('.nodes > [data-node]')]
    .filter((g) => before.get(g.dataset.node) === g).map((g) => g.dataset.node);
  const dx = reused.box.x0 - fresh.box.x0;
  return { reused: drawing(v1, dx), fresh: drawing(v2, 0), kept, dx,
           box: [reused.box, fresh.box].map((x) => x.x1 - x.x0) };
}"""

A = {"root": {"id": "A", "children": [
    {"id": "B", "children": [{"id": "b1", "value": 3}, {"id": "b2", "value": 12},
                             {"id": "b3", "value": 8}]},
    {"id": "C", "children": [{"id": "c1", "value": 2}, {"id": "c2", "value": 4},
                             {"id": "c3", "value": 6}]},
    {"id": "D", "children": [{"id": "d1", "value": 14}, {"id": "d2", "value": 5},
                             {"id": "d3", "value": 2}]}]}}
FA = {"A": ["visited", 3, 3, "inf"], "B": ["visited", 3, "-inf", 3],
      "C": ["visited", 2, 3, "inf"], "D": ["visited", 2, 3, "inf"],
      "b1": ["evaluated", 3, None, None], "b2": ["evaluated", 12, None, None],
      "b3": ["evaluated", 8, None, None], "c1": ["evaluated", 2, None, None],
      "c2": ["pruned", None, None, None], "c3": ["pruned", None, None, None],
      "d1": ["evaluated", 14, None, None], "d2": ["evaluated", 5, None, None],
      "d3": ["evaluated", 2, None, None]}


def edited():
    """A: b1 gets two children (a leaf becomes an inner node, the layout
    moves), c3 is deleted, d2's value grows a digit (wider), D is renamed."""
    import copy

    b = copy.deepcopy(A)
    b1 = b["root"]["children"][0]["children"][0]
    b1.pop("value")
    b1["children"] = [{"id": "x1", "value": 7}, {"id": "x2", "value": -1}]
    b["root"]["children"][1]["children"].pop()
    b["root"]["children"][2]["children"][1]["value"] = 500
    b["root"]["children"][2]["label"] = "Dee"
    return b


FB = {"A": ["visited", 3, 3, "inf"], "B": ["visited", 3, "-inf", 3],
      "b1": ["visited", 7, 3, "inf"], "x1": ["evaluated", 7, None, None],
      "x2": ["pruned", None, None, None], "b2": ["evaluated", 12, None, None],
      "b3": ["pruned", None, None, None], "C": ["unvisited", None, None, None],
      "c1": ["unvisited", None, None, None], "c2": ["unvisited", None, None, None],
      "D": ["unvisited", None, None, None], "d1": ["unvisited", None, None, None],
      "d2": ["unvisited", None, None, None], "d3": ["unvisited", None, None, None]}


def test_a_reused_drawing_is_the_fresh_drawing(page, live_server):
    page.goto(f"{live_server}/edit")
    page.wait_for_selector("#editor[data-revision]")
    out = page.evaluate(DRAW_JS, {"a": A, "b": edited(), "fa": FA, "fb": FB})
    assert out["reused"]["nodes"] == out["fresh"]["nodes"]
    assert out["reused"]["edges"] == out["fresh"]["edges"]
    assert out["reused"]["ring"] == out["fresh"]["ring"]
    assert out["box"][0] == out["box"][1]
    # Kept: the nodes drawn alike (not b1, now an inner node; not D, renamed).
    assert {"A", "B", "C", "b2", "b3", "c1", "c2", "d1", "d2", "d3"} <= set(out["kept"])
    assert "b1" not in out["kept"] and "D" not in out["kept"]
    # What the fields no longer say is not left behind: c2's cut mark (kept,
    # no longer cut) and c3's (deleted) are gone; x2's and b3's are drawn.
    edges = "".join(out["reused"]["edges"])
    assert edges.count("cut-mark shown") == 2


def test_an_edit_in_the_editor_keeps_the_untouched_nodes(ed_page):
    page = ed_page
    before = page.evaluate("() => { window.__g = new Map([...document.querySelectorAll("
                           "'.nodes > [data-node]')].map((g) => [g.dataset.node, g])); "
                           "return window.__g.size; }")
    page.mouse.click(*_center(page, "c3"))
    revision = int(page.get_attribute("#editor", "data-revision"))
    page.click("[data-action=delete]")
    page.wait_for_function("r => Number(document.querySelector('#editor').dataset.revision) > r",
                           arg=revision)
    kept = page.evaluate("() => [...document.querySelectorAll('.nodes > [data-node]')]"
                         ".filter((g) => window.__g.get(g.dataset.node) === g).length")
    assert before == 13 and kept == 12      # every node but the deleted one, the same elements


@pytest.fixture
def ed_page(page, live_server):
    page.goto(f"{live_server}/edit/aima-fig-5-2")
    page.wait_for_selector("#editor[data-revision]")
    page.wait_for_function("() => document.querySelector('#editor').getAttribute('aria-busy') === 'false'")
    return page


def _center(page, node_id):
    box = page.locator(f"[data-node='{node_id}'] .shape").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
