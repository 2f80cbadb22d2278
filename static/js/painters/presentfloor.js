// Presentation mode's floor, read from the back row (issue 20): every node
// text at least 2 % of the screen's height and every value at least 2.5 %.
// The scale a drawing needs for that follows from the smallest type it can
// show: the labels' sizes as the page's CSS sets them (read from probes in
// the drawing's own SVG, so presentation mode's rules apply), and the
// values' sizes, each the mode's size or smaller where a long value or a
// bound must shrink to stay inside its shape (valuefit.js). Below that
// scale the whole tree does not read, and the page follows the search
// instead (visualizer.js).

import { show } from '../core/model.js';
import { valueFit } from './valuefit.js';
import { drawnNodes } from '../core/tree.js';

export const FLOOR_TEXT = 0.02;
export const FLOOR_VALUE = 0.025;
const SVGNS = 'http://www.w3.org/2000/svg';

/** The font size (px, tree units) the CSS gives a text of class `cls` in a node of class `node`. */
function sizeOf(svg, nodeClass, cls) {
  const g = document.createElementNS(SVGNS, 'g');
  g.setAttribute('class', nodeClass);
  g.setAttribute('visibility', 'hidden');
  const el = document.createElementNS(SVGNS, 'text');
  el.setAttribute('class', cls);
  g.appendChild(el);
  svg.appendChild(g);
  const px = parseFloat(getComputedStyle(el).fontSize);
  g.remove();
  return px;
}

/**
 * The smallest label and value sizes (tree units) a drawing of tree `t`
 * shows: {text, value} (text null when it shows no label). `bounds`: the
 * run writes alpha and beta (and bounds such as "≤2" as values); `limit`:
 * its depth limit (the evals there are its values, nothing below is shown).
 */
export function smallestType(t, plan, svg, { bounds, limit = null }) {
  const texts = [];
  if (t.nodes.some((n) => plan.of(n)?.side?.text != null)) texts.push(sizeOf(svg, 'node role-max', 'name side lbl'));
  if (t.nodes.some((n) => plan.of(n)?.under?.text != null)) texts.push(sizeOf(svg, 'node role-leaf', 'name lbl'));
  if (bounds && !t.multiplayer && !t.hasChance) texts.push(sizeOf(svg, 'node role-max', 'bounds lbl'));
  if (t.multiplayer) texts.push(sizeOf(svg, 'node role-player', 'who'));
  if (t.hasChance) texts.push(sizeOf(svg, 'edges', 'prob'));
  if (t.nodes.some((n) => n.folded)) texts.push(sizeOf(svg, 'fold', 'fold-count'));
  // Values: every value a node can show is a leaf's, an eval, or (with
  // chance) an average, written as a bound where a cut left only that.
  const seen = new Set();
  const shown = [...drawnNodes(t, limit)];
  for (const n of shown) {
    const v = limit != null && n.depth === limit && n.eval != null ? n.eval : n.value;
    if (v != null && !Array.isArray(v)) seen.add(show(v));
  }
  const base = (cls, role) => sizeOf(svg, `node role-${role}`, cls);
  let value = Infinity;
  const roles = new Set(shown.map((n) => n.role));
  if (t.multiplayer) value = Math.min(value, base('v lbl', 'player'));
  for (const role of roles) {
    if (role === 'player') continue;
    const full = base(role === 'leaf' ? 'static' : 'v', role);
    if (role === 'leaf') {      // a leaf shows its own value
      for (const n of shown) if (n.role === 'leaf') value = Math.min(value, valueFit(n, show(n.value)) ?? full, full);
      continue;
    }
    const probe = { role };
    for (const s of seen) {
      const forms = [s, ...(bounds ? [`≤${s}`, `≥${s}`] : []), ...(t.hasChance ? [`${s}.9`] : [])];
      for (const x of forms) value = Math.min(value, valueFit(probe, x) ?? full, full);
    }
  }
  return { text: texts.length ? Math.min(...texts) : null, value: value === Infinity ? null : value };
}

/** The scale at which the smallest type `type` ({text, value}) meets the floor on a screen `height` px high. */
export function floorScale(type, height) {
  const need = [];
  if (type.value) need.push((FLOOR_VALUE * height) / type.value);
  if (type.text) need.push((FLOOR_TEXT * height) / type.text);
  return need.length ? Math.max(...need) : 0;
}
