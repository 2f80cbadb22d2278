"""What the screen tests measure in the page: text boxes, overlaps, sizes.

``LABEL_BOXES_JS`` returns every label drawn in the tree (each <text>, and
each game picture, class ``pic``) that is displayed, as screen rectangles,
with the visible part of the stage (the SVG, clipped to the window and to
the fixed controls at the bottom of a phone screen). ``problems()`` turns
them into readable complaints: two labels that intersect, a label cut off.
"""
from __future__ import annotations

LABEL_BOXES_JS = """() => {
  const svg = document.querySelector('#tree');
  const s = svg.getBoundingClientRect();
  let bottom = Math.min(s.bottom, innerHeight);
  const transport = document.querySelector('#transport');
  if (transport && getComputedStyle(transport).position === 'fixed') {
    bottom = Math.min(bottom, transport.getBoundingClientRect().top);
  }
  const area = {left: Math.max(s.left, 0), top: Math.max(s.top, 0),
                right: Math.min(s.right, innerWidth), bottom};
  const name = (e) => {
    const node = e.closest('[data-node]');
    const what = e.classList.contains('pic') ? 'picture' : `"${e.textContent}"`;
    return `${what} (${e.getAttribute('class') || 'text'}${node ? ' of ' + node.dataset.node : ''})`;
  };
  const labels = [...svg.querySelectorAll('text, .pic')].filter((e) => {
    if (e.closest('.pic') && e.tagName === 'text') return false;
    const r = e.getBoundingClientRect();
    if (r.width < 0.5 || r.height < 0.5) return false;
    return getComputedStyle(e).visibility !== 'hidden' && e.textContent.trim() !== '' || e.classList.contains('pic');
  }).map((e) => {
    const r = e.getBoundingClientRect();
    // The active node's own text inside its shape sits above the halo (drawn under the nodes).
    const node = e.closest('[data-node]');
    const own = !!node && node.dataset.status === 'active' && !e.classList.contains('lbl');
    return {name: name(e), own, left: r.left, top: r.top, right: r.right, bottom: r.bottom};
  });
  const ring = svg.querySelector('.ring');
  let ringBox = null;
  if (ring && ring.getAttribute('visibility') !== 'hidden') {
    const r = ring.getBoundingClientRect();
    // The halo's stroke reaches half its width beyond the outline.
    const k = (svg.querySelector('.viewport').getCTM() || {a: 1}).a;
    const w = parseFloat(getComputedStyle(ring).strokeWidth) / 2 * k;
    ringBox = {name: 'the active ring', left: r.left - w, top: r.top - w, right: r.right + w, bottom: r.bottom + w};
  }
  return {area, labels, ring: ringBox, far: svg.classList.contains('lod-far')};
}"""


def _meet(a: dict, b: dict, slack: float = 0.5) -> bool:
    return (min(a["right"], b["right"]) - max(a["left"], b["left"]) > slack
            and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > slack)


def problems(page, *, fitted: bool = True) -> list[str]:
    """Overlapping labels, labels under the ring, and (when ``fitted``) labels
    cut off by the edge of the stage."""
    return problems_in(page.evaluate(LABEL_BOXES_JS), fitted=fitted)


def problems_in(got: dict, *, fitted: bool = True) -> list[str]:
    """:func:`problems` of boxes already read (``LABEL_BOXES_JS``'s answer),
    for a test that reads them in the same round trip as other measures."""
    labels, area = got["labels"], got["area"]
    out = []
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            if _meet(a, b):
                out.append(f"{a['name']} overlaps {b['name']}")
        if got["ring"] and not a["own"] and _meet(a, got["ring"], slack=1):
            out.append(f"the active ring covers {a['name']}")
        if fitted and (a["left"] < area["left"] - 1 or a["right"] > area["right"] + 1
                       or a["top"] < area["top"] - 1 or a["bottom"] > area["bottom"] + 1):
            out.append(f"{a['name']} is cut off ({a} outside {area})")
    return out


def label_count(page) -> int:
    return len(page.evaluate(LABEL_BOXES_JS)["labels"])

