// Pointer input on the canvas painter: the SVG above the canvas stays the
// surface for zoom.js and the pointer, and a click that did not pan is
// hit-tested here against the layout and becomes the same events the SVG
// painter sends ('node-click', 'open-subtree', detail = the node's id); a
// hover names the node (or the fold) under the pointer.

import { SHAPE, spokenLabel } from '../core/tree.js';
import { foldGeometry, foldTitle } from './folds.js';
import { svgEl } from './canvaslooks.js';

const CLICK_SLOP = 6;      // px a pointer may move and still click

/**
 * makeHits({svg, zoom, order, tree}) -> {hitAt, destroy}. `order`: the node
 * records (treecanvas.js) with their node `n`, plan `p` and `fold`.
 */
export function makeHits({ svg, zoom, order, tree }) {
  const byId = tree.byId;
  /** What is under the point (clientX, clientY): {node} or {fold} (ids), or null. */
  function hitAt(clientX, clientY) {
    const r = svg.getBoundingClientRect();
    const { k, x, y } = zoom ? zoom.get() : { k: 1, x: 0, y: 0 };
    const px = (clientX - r.left - x) / k, py = (clientY - r.top - y) / k;
    const slop = 4 / k;      // a few screen pixels around small shapes
    let best = null, bestD = Infinity;
    for (const rec of order) {
      const n = rec.n;
      if (rec.fold) {
        const { y: fy, w, h } = foldGeometry(n);
        if (py >= fy - slop && py <= fy + h + slop) {
          const half = ((py - fy) / h) * w + slop;
          if (Math.abs(px - n.x) <= half) return { fold: n.id };
        }
      }
      const dx = Math.abs(px - n.x), dy = Math.abs(py - n.y);
      if (dx <= rec.p.half + slop && dy <= SHAPE * 1.1 + slop) {
        const d = dx + dy;
        if (d < bestD) { best = n.id; bestD = d; }
      }
    }
    return best != null ? { node: best } : null;
  }

  // A click (a tap) on the surface that did not pan: open a fold or report the node.
  let down = null;
  const onDown = (e) => { down = { x: e.clientX, y: e.clientY }; };
  const onClick = (e) => {
    const moved = down && Math.hypot(e.clientX - down.x, e.clientY - down.y) > CLICK_SLOP;
    down = null;
    if (moved) return;
    const hit = hitAt(e.clientX, e.clientY);
    if (hit?.fold != null) svg.dispatchEvent(new CustomEvent('open-subtree', { detail: hit.fold }));
    else if (hit?.node != null) svg.dispatchEvent(new CustomEvent('node-click', { detail: hit.node }));
  };
  const onMove = (e) => {
    if (e.buttons) return;
    const hit = hitAt(e.clientX, e.clientY);
    svg.style.cursor = hit?.fold != null ? 'pointer' : '';
    const n = hit?.node != null ? byId.get(hit.node) : hit?.fold != null ? byId.get(hit.fold) : null;
    const title = !n ? '' : hit.fold != null ? foldTitle(n.size) : spokenLabel(tree, n);
    if (svg.getAttribute('data-hover') !== title) svg.setAttribute('data-hover', title);
    const tip = svg.querySelector(':scope > title.canvas-tip') || svgEl('title', { class: 'canvas-tip' }, svg);
    if (tip.textContent !== title) tip.textContent = title;
  };
  svg.addEventListener('pointerdown', onDown);
  svg.addEventListener('click', onClick);
  svg.addEventListener('pointermove', onMove);

  function destroy() {
    svg.removeEventListener('pointerdown', onDown);
    svg.removeEventListener('click', onClick);
    svg.removeEventListener('pointermove', onMove);
    svg.querySelector(':scope > title.canvas-tip')?.remove();
    svg.style.cursor = '';
  }

  return { hitAt, destroy };
}
