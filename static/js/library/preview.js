// A small picture of a tree for the library's cards: the same layout and
// shapes as the visualizer, without interaction, drawn from the tree JSON.

import { layout, shapePath, readTree } from '../core/tree.js';
import { show } from '../core/model.js';

const SVG = 'http://www.w3.org/2000/svg';
const VALUES_UP_TO = 40;   // leaf values are written only on small trees

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  parent.appendChild(e);
  return e;
}

/** Draw tree JSON `json` into <svg> `svg`, scaled to fit its viewBox. */
export function drawPreview(svg, json) {
  const t = readTree(json);
  const box = layout(t, { compact: true });
  const leaves = t.nodes.filter((n) => n.role === 'leaf').length;
  svg.setAttribute('viewBox', `${box.x0} ${box.y0} ${box.x1 - box.x0} ${box.y1 - box.y0}`);
  svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
  svg.replaceChildren();
  const edges = el('g', { class: 'pv-edges' }, svg);
  const nodes = el('g', { class: 'pv-nodes' }, svg);
  for (const n of t.nodes) {
    if (n.parent) {
      el('line', { x1: n.parent.x, y1: n.parent.y, x2: n.x, y2: n.y }, edges);
    }
    const g = el('g', {
      class: `pv-node role-${n.role}` + (n.role === 'player' ? ` p${n.playerIndex % 5}` : ''),
      transform: `translate(${n.x},${n.y})`,
    }, nodes);
    el('path', { d: shapePath(n) }, g);
    if (n.role === 'leaf' && leaves <= VALUES_UP_TO) {
      el('text', { y: 1 }, g).textContent = show(n.value);
    }
  }
  return t;
}
