"""Presentation mode's floor (issue 20): what the back row reads, measured on
screen. Every node text shown on screen (names, bounds, counts) at least 2 %
of the screen's height, every value (inner nodes' and leaves') at least
2.5 %, and each value inside its shape; a node on screen whose value is
hidden (text dropped at a far zoom) fails too.

``FLOOR_JS`` returns ``{text, value, texts, values, smallest, outside, hidden}``:
the smallest sizes in px, how many of each were measured, the texts below
their floor, the values outside their shapes, and the nodes whose value is
not shown.
"""

FLOOR_JS = r"""() => {
  const H = innerHeight, TEXT = 0.02 * H, VALUE = 0.025 * H;
  const svg = document.querySelector('#tree');
  const sr = svg.getBoundingClientRect();
  const out = { text: Infinity, value: Infinity, texts: 0, values: 0, smallest: [], outside: [], hidden: [] };
  const onScreen = (r) => r.width > 0 && r.right > sr.left + 1 && r.left < sr.right - 1
    && r.bottom > sr.top + 1 && r.top < sr.bottom - 1;
  for (const el of svg.querySelectorAll('.viewport text')) {
    const txt = el.textContent.trim();
    if (!txt) continue;
    const r = el.getBoundingClientRect();
    const node = el.closest('[data-node]');
    const isValue = el.classList.contains('v') || el.classList.contains('static');
    const cs = getComputedStyle(el);
    if (r.width === 0 || cs.display === 'none' || cs.visibility === 'hidden') {
      // A value that should be read but is not drawn (a far zoom hides text).
      const shape = node?.querySelector('.shape');
      if (isValue && shape && onScreen(shape.getBoundingClientRect())) out.hidden.push(node.dataset.node);
      continue;
    }
    if (!onScreen(r)) continue;
    const px = parseFloat(cs.fontSize) * el.getScreenCTM().a;
    const floor = isValue ? VALUE : TEXT;
    if (isValue) { out.values += 1; out.value = Math.min(out.value, px); }
    else { out.texts += 1; out.text = Math.min(out.text, px); }
    if (px < floor - 0.05) out.smallest.push(`${node?.dataset.node ?? ''} ${el.getAttribute('class')} "${txt}" ${px.toFixed(1)}px`);
    // A max^n vector is written beside its shape (class lbl), not in it.
    if (isValue && node && !el.classList.contains("lbl")) {
      // The value's glyphs (its width, cap height) inside the shape: corners tested on the path.
      const shape = node.querySelector('.shape');
      const m = shape.getScreenCTM().inverse();
      const cap = 0.36 * px;
      const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
      const w = r.width / 2;
      const corners = [[cx - w, cy - cap], [cx + w, cy - cap], [cx - w, cy + cap], [cx + w, cy + cap]];
      const inside = corners.every(([x, y]) => {
        const p = new DOMPoint(x, y).matrixTransform(m);
        return shape.isPointInFill(p) || shape.isPointInStroke(p);
      });
      if (!inside) out.outside.push(`${node.dataset.node} "${txt}"`);
    }
  }
  if (out.text === Infinity) out.text = null;
  if (out.value === Infinity) out.value = null;
  return out;
}"""
