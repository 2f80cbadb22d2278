// Tree helpers of the practice page on top of tree.js / treeview.js: preorder,
// the tree as explicit JSON (for redrawing in another child order), the tap
// targets over branches, and taps that survive zoom.js's pointer capture.
import { t } from '../core/i18n.js';
import { spokenLabel } from '../core/tree.js';

// (module level: these names stay clear of the functions' own `t`)
// Read aloud, a game's position is said in words, not as its board's cells.
const branchLabel = (tree, n) => t('Branch {from} to {to}: mark as pruned',
  { from: spokenLabel(tree, n.parent), to: spokenLabel(tree, n) });
const branchTitle = (n) => t('{from} → {to}: tap to mark pruned', { from: n.parent.label, to: n.label });


const SVG = 'http://www.w3.org/2000/svg';

/** The tree's nodes in preorder (the order a left-to-right search meets them). */
export function preorder(t) {
  const out = [];
  const stack = [t.root];
  while (stack.length) {
    const n = stack.pop();
    out.push(n);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  return out;
}

/**
 * The tree as explicit JSON (every node with its id), children in the order
 * `orderOf(node)` gives: reordering then never renames a bare leaf.
 */
export function explicitJsonOf(t, orderOf = (n) => n.children) {
  const make = (n) => {
    const raw = { id: n.id, label: n.label };
    if (n.role === 'chance') raw.type = 'chance';
    else raw.player = n.player;
    if (n.probability != null) raw.probability = n.probability;
    if (n.eval != null) raw.eval = n.eval;
    if (n.children.length === 0) raw.value = n.value;
    return raw;
  };
  const root = make(t.root);
  const stack = [[t.root, root]];
  while (stack.length) {
    const [n, raw] = stack.pop();
    if (!n.children.length) continue;
    raw.children = orderOf(n).map((c) => {
      const r = make(c);
      stack.push([c, r]);
      return r;
    });
  }
  return { title: t.title, source: t.source, players: t.players, root };
}

/** Taps on nodes and branches that survive zoom's pointer capture: a tap is
 *  a pointerdown and pointerup less than a few pixels apart. */
export function onTaps(svg, handlers) {
  let down = null;
  svg.addEventListener('pointerdown', (e) => {
    const el = e.target.closest?.('[data-cut], [data-node]');
    down = el ? { id: e.pointerId, x: e.clientX, y: e.clientY, el } : null;
  });
  // The tap is acted on at the click that follows it: focusing a node's input
  // any earlier (at pointerup) is undone by the browser's own focus change
  // for that click on a touch screen.
  let tapped = null;
  svg.addEventListener('pointerup', (e) => {
    if (!down || down.id !== e.pointerId) return;
    const { el, x, y } = down;
    down = null;
    tapped = Math.hypot(e.clientX - x, e.clientY - y) > 10 ? null : el;   // a pan is no tap
  });
  svg.addEventListener('click', () => {
    const el = tapped;
    tapped = null;
    if (!el) return;
    if (el.dataset.cut) handlers.edge?.(el.dataset.cut);
    else handlers.node?.(el.dataset.node);
  });
}

/** Wide, invisible lines over the branches: the tap targets for "pruned". */
export function drawHits(ctx) {
  if (!['cuts', 'full'].includes(ctx.mode)) return null;
  const layer = document.createElementNS(SVG, 'g');
  layer.setAttribute('class', 'hits');
  const hits = new Map();
  for (const n of ctx.tree.nodes) {
    if (!n.parent) continue;
    const line = document.createElementNS(SVG, 'line');
    const attrs = {
      class: 'hit', 'data-cut': n.id, x1: n.parent.x, y1: n.parent.y, x2: n.x, y2: n.y,
      tabindex: '0', role: 'button', 'aria-pressed': 'false',
      'aria-label': branchLabel(ctx.tree, n),
    };
    for (const k in attrs) line.setAttribute(k, attrs[k]);
    const title = document.createElementNS(SVG, 'title');
    title.textContent = branchTitle(n);
    line.appendChild(title);
    layer.appendChild(line);
    hits.set(n.id, line);
  }
  ctx.viewport.insertBefore(layer, ctx.viewport.querySelector('.nodes'));
  return hits;
}

