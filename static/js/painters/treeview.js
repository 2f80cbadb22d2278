// The tree drawn in SVG: one <g data-node> per node, one line per edge, all
// made once. A step only calls setNode() for the nodes its changes touch,
// and only what differs from the node as drawn is written.
//
// THE VIEW INTERFACE (kept stable: the visualizer, practice, live classes and
// the editor draw through it, and a canvas renderer for huge trees offers the
// same one):
//
//   makeTreeView(viewport, tree, {compact, maxDepth, absolute, names, collapsed, reuse}) -> view
//   view.box                     content bounds {x0, y0, x1, y1} incl. every label
//   view.setNode(id, fields)     fields = {status, value, alpha, beta} (model.read)
//   view.setNodes(ids, fieldsOf) many at once; each edge updated once
//   view.setActive(id|null)      the active node's halo (never over a label)
//   view.setPath(ids|null)       the best line (principal variation)
//   view.setPlayout(ids|null)    [mcts] a playout's nodes, a dashed path (SVG only)
//   view.setDepthLimit(limit)    grey what a depth limit will never expand
//   view.nodeEl(id)              the node's <g data-node> (hooks, classes);
//                                undefined on the canvas painter
//   view.markSpot(id)            {x, y} in the node's <g> for a small mark (✓ ✗)
//   view.setFocus(id|null)       ring the keyboard's node (class kbd-focus)
//   view.canvas                  true for the canvas painter (treecanvas.js)
//   view.destroy()               undo what the view added outside `viewport`
//
// With `painter: 'auto'` (and `surface`, the <svg>, and `zoom`, zoom.js)
// trees of more than CANVAS_FROM drawn nodes are painted on a <canvas>
// (treecanvas.js) instead of an SVG element per shape: same layout, same
// look, same calls. Its pages keep the per-node hooks (contract §4) in the
// accessible tree (a11ytree.js, hooks mode). A click on a node sends
// 'node-click' (detail: id) on the <svg>, from either painter.
//
// Where labels go and how much room they take is decided in labels.js (and
// spaced for by tree.js's layout): a name or game picture (boards.js) left of
// an inner node, alpha/beta right of it, a leaf's name or picture under it,
// the value inside the shape. Every label carries class "lbl" (the overlap
// tests read them); a shortened name keeps its full text in a <title>.
//
// The data-* attributes of a node are hooks for tests (contract §4); the look
// follows a status class on the node's shape (st-visited, ...), and sibling
// selectors from it. No style rule reads data-status: a rule on the <g> would
// make a status change restyle every element in it, and restyling is what a
// big redraw spends most of its time on (a few µs per element).

import { t } from '../core/i18n.js';
import { hook, show } from '../core/model.js';
import { drawnCount, drawnNodes, layout, shapePath, SHAPE } from '../core/tree.js';
import { drawPicture } from '../core/boards.js';
import { GAP, LINE, SIZES, playerMarks } from '../core/labels.js';
import { foldCount, foldGeometry, foldTitle } from './folds.js';
import { valueFit } from './valuefit.js';
import { makeTreeCanvas } from './treecanvas.js';

const SVG = 'http://www.w3.org/2000/svg';
const NAMES_UP_TO = 3000;   // beyond this many nodes, ids are not drawn
const PARTS = Symbol('parts');   // a view's elements, for the next view to reuse
/** Drawn nodes beyond which `painter: 'auto'` paints on a canvas. */
export const CANVAS_FROM = 3000;
// A big drawing goes in chunks of this many nodes (in preorder), each a
// <foreignObject> holding an <svg> of its own (from CHUNKS_FROM drawn
// nodes, with `absolute`, never in the editor, whose views reuse the last
// one's). Chromium caches what it painted per PaintLayer, and the elements
// of one inline <svg> share one: a step that changed three nodes repainted
// all 11,111 (18 ms a step). Each chunk is a layer of its own, so a step
// repaints the chunks it touches.
const CHUNK = 400;
const CHUNKS_FROM = 1000;

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

// Titles in the page's language (module level: inside makeTreeView, `t` is the tree).
const horizonTitle = (n) => t('{n} moves beyond the depth limit', { n });
const cutTitle = (node) => t('{node} cut off', { node });

function text(parent, cls, x, y, content) {
  const t = el('text', { class: cls, x, y }, parent);
  t.textContent = content;
  return t;
}

/** The size at which a value stays inside its shape, a ceiling for the CSS (valuefit.js). */
function fitValue(el, n) {
  const fit = valueFit(n, el.textContent);
  const was = el.fit ?? null;
  if (fit === was) return;
  el.fit = fit;
  if (fit == null) {
    el.style.removeProperty('--fit');
    if (!el.getAttribute('style')) el.removeAttribute('style');   // (as a fresh drawing has it)
  }
  else el.style.setProperty('--fit', `${fit}px`);
}

/** Mark text 3, 4 or 5+ characters long, which CSS sets smaller. */
function sizeClass(t) {
  // An infinity sign is as wide as two digits.
  const len = Math.min(5, t.textContent.length + (t.textContent.includes('∞') ? 1 : 0));
  const cls = len >= 3 ? `len${len}` : null;
  if (cls === t.lenClass) return;
  if (t.lenClass) t.classList.remove(t.lenClass);
  if (cls) t.classList.add(cls);
  t.lenClass = cls;
}

/**
 * Draw tree `t` (from readTree) into `viewport`, a <g> inside the page's SVG.
 * Options: `compact` (tighter spacing), `maxDepth` (draw only that deep,
 * with a faded fan under nodes whose children lie beyond), `absolute`
 * (write each node's coordinates out instead of translating its <g>: with
 * no transform per node Chromium keeps the whole tree in one paint chunk,
 * which makes every repaint of a big tree several times cheaper; without
 * it, a node's <g> has its own coordinates centred on the node),
 * `collapsed` (a Set of ids whose subtrees are folded away; see below),
 * `reuse` (the view drawn in this viewport before: see below).
 * Returns the view interface above (with `painter`, possibly the canvas one).
 *
 * Extension point (the editor redraws after every edit): with `reuse`, the
 * elements of the old view are kept for every node drawn alike in the new
 * tree (same id, kind, player and label plan) and only moved where the
 * layout moved it; the rest are made or removed. What a step showed on a
 * kept node (status, value, bounds) stays until setNodes says otherwise;
 * what setActive, setPath and setDepthLimit showed is cleared. A full
 * redraw of a 200-node tree re-creates and restyles ~800 elements (a frame
 * of its own); an edit usually moves some and changes a few.
 */
export function makeTreeView(viewport, t, options = {}) {
  const names = options.names ?? t.nodes.length <= NAMES_UP_TO;
  const box = layout(t, { ...options, names });
  const plan = box.plan;
  if (options.maxDepth != null) box.y1 += SHAPE * 2.5;   // room for the horizon fans
  else if (t.game && t.nodes.some((n) => n.folded)) box.y1 += SHAPE * 4.5;   // ... the folds
  const painter = options.painter ?? 'svg';
  if (options.surface && (painter === 'canvas' || (painter === 'auto' && drawnCount(t, options) > CANVAS_FROM))) {
    return makeTreeCanvas(viewport, t, box, options);
  }
  const old = options.reuse?.[PARTS]?.viewport === viewport ? options.reuse[PARTS] : null;
  old?.clear();
  // Centres to 1/100 px (invisible), so that a node the layout did not move
  // is exactly where it was, floating-point noise and all.
  for (const n of t.nodes) n.x = Math.round(n.x * 100) / 100;
  if (old) anchor();

  /** Shift the new layout sideways so that most kept nodes stay where they
   * were drawn (the layout puts the root at x = 0: a subtree that grows on
   * one side would move every node; a shift is free, the zoom fits the box). */
  function anchor() {
    const votes = new Map();
    let best = 0, most = 0;
    for (const n of t.nodes) {
      const g = old.nodeEls.get(n.id);
      if (!g || g.ny !== n.y) continue;
      const dx = Math.round((g.nx - n.x) * 100) / 100;
      const count = (votes.get(dx) || 0) + 1;
      votes.set(dx, count);
      if (count > most) { most = count; best = dx; }
    }
    if (!best) return;
    for (const n of t.nodes) n.x = Math.round((n.x + best) * 100) / 100;
    box.x0 += best;
    box.x1 += best;
  }
  const edgeLayer = old ? old.edgeLayer : el('g', { class: 'edges' });
  const nodeLayer = old ? old.nodeLayer : el('g', { class: 'nodes' });
  const chunked = !old && !('reuse' in options) && !!options.absolute && drawnCount(t, options) >= CHUNKS_FROM;
  let drawnSoFar = 0;
  /** Where the `i`th node drawn (and the edge to it) goes: its chunk of `layer`, or `layer`. */
  function holder(layer, i) {
    if (!chunked) return layer;
    const k = Math.floor(i / CHUNK);
    layer.chunks ??= [];
    if (!layer.chunks[k]) {
      // A box as big as the whole drawing (and more, for halos): nothing clipped.
      const m = 200, x = box.x0 - m, y = box.y0 - m, w = box.x1 - box.x0 + 2 * m, h = box.y1 - box.y0 + 2 * m;
      const fo = el('foreignObject', { x, y, width: w, height: h, class: 'chunk' }, layer);
      layer.chunks[k] = el('svg', { x: 0, y: 0, width: w, height: h, viewBox: `${x} ${y} ${w} ${h}`, overflow: 'visible' }, fo);
    }
    return layer.chunks[k];
  }
  const kept = new Set();   // the old view's node elements and edges kept
  const nodeEls = new Map();
  const edgeEls = new Map();
  const state = new Map(); // id -> status shown, to update edges
  const marks = playerMarks(t.players || []);

  const maxDepth = options.maxDepth ?? null;
  const absolute = !!options.absolute;
  // Where a node's own coordinates start: its centre, or the SVG's origin.
  const ox = (n) => (absolute ? n.x : 0), oy = (n) => (absolute ? n.y : 0);
  // Extension point (the editor): `options.collapsed`, a Set of node ids
  // whose subtrees are folded away: neither laid out nor drawn, a fan under
  // the node as at the depth limit. Nodes not drawn have no element
  // (nodeEl(id) is undefined) and setNodes skips them.
  const collapsed = options.collapsed || null;
  if (old) for (const e of edgeLayer.querySelectorAll(':scope > .horizon, :scope > .fold')) e.remove();
  for (const n of drawnNodes(t, maxDepth, collapsed)) {
    if (n.parent) drawEdge(n);
    drawNode(n);
    drawnSoFar += 1;
    if (((maxDepth != null && n.depth === maxDepth) || collapsed?.has(n.id)) && n.children.length) drawHorizon(n);
    if (n.folded && (maxDepth == null || n.depth < maxDepth)) drawFold(n);
  }
  // The active node's halo: its own outline, thick, under the nodes, so it
  // rings the shape and never covers a label.
  const ring = old ? old.ring : el('path', { class: 'ring', visibility: 'hidden' });
  if (old) finishReuse();
  else viewport.replaceChildren(edgeLayer, ring, nodeLayer);

  /** After a redraw that reused `old`: take away what was not kept, put the
   * nodes in preorder, and bring the edges in step with the nodes' states. */
  function finishReuse() {
    for (const g of old.nodeEls.values()) if (!kept.has(g)) g.remove();
    for (const e of old.edgeEls.values()) {
      if (!kept.has(e)) { e.line.remove(); e.prob?.remove(); e.cut?.remove(); }
    }
    let at = nodeLayer.firstChild;
    for (const g of nodeEls.values()) {
      if (g === at) at = at.nextSibling;
      else nodeLayer.insertBefore(g, at);     // new, or moved among the kept
    }
    for (const n of t.nodes) {
      const g = nodeEls.get(n.id);
      if (!g) continue;
      let cut = 0;
      for (const c of n.children) if (edgeEls.get(c.id)?.isCut) cut += 1;
      if ((g.cutChildren || 0) !== cut) { g.cutChildren = cut; writeValue(n, g); }
    }
    for (const n of t.nodes) if (edgeEls.has(n.id)) updateEdge(n);
  }

  function drawEdge(n) {
    const p = n.parent;
    let e = old?.edgeEls.get(n.id);
    if (e && e.parent === p.id && !kept.has(e)) kept.add(e);
    else {
      e = { line: el('line', { class: 'edge', 'data-edge': n.id }, holder(edgeLayer, drawnSoFar)), parent: p.id,
        prob: null, at: '', cut: null, reached: false, pruned: false, isCut: false };
    }
    edgeEls.set(n.id, e);
    // From the bottom of the parent's shape to the top of the child's (the
    // label too: the cut mark's title names the child).
    const at = `${p.x},${p.y},${n.x},${n.y},${n.label}`;
    if (e.at !== at) {
      e.at = at;
      const { line } = e;
      line.setAttribute('x1', p.x); line.setAttribute('y1', p.y + SHAPE * 0.9);
      line.setAttribute('x2', n.x); line.setAttribute('y2', n.y - SHAPE * 0.9);
      if (e.cut) {          // drawn across the old line (or titled by the old label): draw it again
        e.cut.remove();
        e.cut = e.isCut ? drawCut(n) : null;
        e.cut?.classList.add('shown');
      }
      e.prob?.remove();
      e.prob = null;
    }
    if (n.probability != null) {
      const s = show(n.probability);
      if (!e.prob) {
        const mx = (p.x + n.x) / 2, my = (p.y + n.y) / 2;
        e.prob = text(e.line.parentNode, 'prob', mx + (n.x >= p.x ? 6 : -6), my, s);
        e.prob.setAttribute('text-anchor', n.x >= p.x ? 'start' : 'end');
      } else if (e.prob.textContent !== s) e.prob.textContent = s;
    } else if (e.prob) {
      e.prob.remove();
      e.prob = null;
    }
    return e.line;
  }

  /** What a node's elements are made of, but where they are: a kept node's
   * elements are only moved (a picture is drawn anew wherever it moves). */
  function signature(n, p) {
    const item = p.side || p.under;
    return [n.role, n.playerIndex, marks[n.playerIndex], !!p.side,
      item && [item.text, item.full, item.w, item.h], item?.pic && [n.x, n.y]].join('|');
  }

  function drawNode(n) {
    const p = plan.of(n), sig = signature(n, p);
    const g0 = old?.nodeEls.get(n.id);
    if (g0 && g0.sig === sig && !kept.has(g0)) {
      kept.add(g0);
      nodeEls.set(n.id, g0);
      state.set(n.id, g0.shown.status);
      if (g0.static) {
        const s = show(n.value);
        if (g0.static.textContent !== s) g0.static.textContent = s;
        fitValue(g0.static, n);
      }
      place(g0, n, p);
      return;
    }
    const g = el('g', {
      class: `node role-${n.role}` + (n.role === 'player' ? ` p${n.playerIndex % 5}` : '')
        + (n === t.root ? ' is-root' : ''),   // [mcts] the root is drawn before the search tree grows
      'data-node': n.id, 'data-status': 'unvisited',
      'data-value': '', 'data-alpha': '', 'data-beta': '',
    }, old ? null : holder(nodeLayer, drawnSoFar));
    g.sig = sig;
    g.shape = el('path', { class: 'shape st-unvisited' }, g);
    // What is drawn, as the hooks spell it (read back without touching the DOM).
    g.shown = { status: 'unvisited', value: '', alpha: '', beta: '' };
    const leaf = n.role === 'leaf';
    if (leaf) {
      g.static = text(g, 'static', 0, 0, show(n.value));
      fitValue(g.static, n);
    } else if (n.role === 'player') {
      g.who = text(g, 'who', 0, 0, marks[n.playerIndex] ?? '?');
    }
    // The current value: inside a two-player shape, beside a max^n one.
    if (n.role === 'player') g.v = text(g, 'v lbl', 0, 0, '');
    else if (!leaf) g.v = text(g, 'v', 0, 0, '');
    place(g, n, p);
    drawLabel(g, n, p);
    nodeEls.set(n.id, g);
    state.set(n.id, 'unvisited');
  }

  /** Write where a node's elements go (all of them: made or moved). */
  function place(g, n, p) {
    const x = ox(n), y = oy(n), at = `${n.x},${n.y}`;
    if (!absolute && g.at !== at) g.setAttribute('transform', `translate(${at})`);
    g.at = at;
    g.nx = n.x; g.ny = n.y;
    if (g.x === x && g.y === y && g.half === p.half) return;   // drawn there already
    g.x = x; g.y = y; g.half = p.half;
    g.shape.setAttribute('d', shapePath(n, SHAPE, x, y));
    const xy = (e, ex, ey) => { e.setAttribute('x', ex); e.setAttribute('y', ey); };
    if (g.static) xy(g.static, x, y);
    if (g.who) xy(g.who, x, y + 1);
    if (g.v && n.role === 'player') xy(g.v, x + p.half + GAP, y);
    else if (g.v) xy(g.v, x, y + (n.role === 'max' ? 6 : n.role === 'min' ? -5 : 0));
    if (g.label) xy(g.label, ...labelAt(g, p));
    if (g.bounds) {
      const bx = x + p.half + GAP;
      xy(g.bounds, bx, y - (SIZES.bounds * LINE) / 2);
      g.alphaT.setAttribute('x', bx);
      g.betaT.setAttribute('x', bx);
    }
  }

  // A name (or a game position's picture) left of an inner node, under a leaf.
  function labelAt(g, p) {
    const item = p.side || p.under;
    return p.side ? [g.x - p.half - GAP - item.w / 2, g.y] : [g.x, g.y + SHAPE * 0.85 + 4 + item.h / 2];
  }

  function drawLabel(g, n, p) {
    const item = p.side || p.under;
    if (!item) return;
    const [cx, cy] = labelAt(g, p);
    if (item.pic) { drawPicture(g, item.pic, n.label, cx, cy); return; }
    g.label = text(g, p.side ? 'name side lbl' : 'name lbl', cx, cy, item.text);
    if (item.text !== item.full) el('title', {}, g.label).textContent = item.full;
  }

  // Below a node on the depth limit: a short faded fan, "the tree goes on".
  function drawHorizon(n) {
    const k = Math.min(n.children.length, 3), y = n.y + SHAPE * 1.1;
    let d = '';
    for (let i = 0; i < k; i++) {
      const dx = k === 1 ? 0 : (i / (k - 1) - 0.5) * SHAPE * 1.6;
      d += `M${n.x},${y}l${dx},${SHAPE * 1.3}`;
    }
    const fan = el('path', { class: 'horizon', d }, edgeLayer);
    el('title', {}, fan).textContent =
      horizonTitle(n.children.length);
  }

  // Under a game's node whose subtree the server left out: a triangle with
  // the number of nodes it holds; a click asks the page to open it (the
  // 'open-subtree' event on the SVG, detail = node id).
  function drawFold(n) {
    // Names sit beside inner nodes (labels.js): the fold starts under the shape.
    const { y, w, h } = foldGeometry(n);
    const g = el('g', { class: 'fold', 'data-fold': n.id }, edgeLayer);
    el('path', { d: `M${n.x},${y}l${w},${h}h${-2 * w}Z` }, g);
    text(g, 'fold-count', n.x, y + h * 0.68, foldCount(n.size));
    el('title', {}, g).textContent = foldTitle(n.size);
    g.addEventListener('click', (e) => {
      e.stopPropagation();
      viewport.ownerSVGElement?.dispatchEvent(new CustomEvent('open-subtree', { detail: n.id }));
    });
  }

  // Two lines right of the shape, centred on the node's middle.
  function boundsText(g) {
    if (!g.bounds) {
      const n = t.byId.get(g.dataset.node);
      const x = g.x + plan.of(n).half + GAP;
      g.bounds = el('text', { class: 'bounds lbl', x, y: g.y - (SIZES.bounds * LINE) / 2 }, g);
      g.alphaT = el('tspan', { x, dy: 0 }, g.bounds);
      g.betaT = el('tspan', { x, dy: `${LINE}em` }, g.bounds);
    }
    return g.bounds;
  }

  // A node some of whose children were cut off has only a bound for a value,
  // written as textbooks do: "≤ 2" at MIN, "≥ 5" at MAX.
  function valueText(n, g) {
    const v = g.shown.value === '' ? '' : show(g.value);
    if (!v || !g.cutChildren || n.role === 'leaf') return v;
    if (n.role === 'chance') {   // Star1: at most (fails low, <= alpha) or at least (>= beta)
      const a = g.shown.alpha === 'inf' ? Infinity : g.shown.alpha === '-inf' ? -Infinity : Number(g.shown.alpha);
      return `${g.shown.alpha !== '' && Number(g.value) <= a ? '≤' : '≥'}${v}`;
    }
    return `${n.role === 'max' ? '≥' : '≤'}${v}`;
  }

  function writeValue(n, g) {
    if (!g.v) return;
    const s = valueText(n, g);
    if (g.v.textContent === s) return;
    g.v.textContent = s;
    if (n.role !== 'player') { sizeClass(g.v); fitValue(g.v, n); }
    g.classList.toggle('bound', s !== '' && !!g.cutChildren);
  }

  // Only flags that change are written (practice marks edges with classes
  // of its own, so the class attribute is never written whole).
  function updateEdge(n) {
    const e = edgeEls.get(n.id);
    if (!e) return;
    const s = state.get(n.id);
    const pruned = s === 'pruned';
    const reached = s !== 'unvisited' && !pruned;
    const cut = pruned && state.get(n.parent.id) !== 'pruned';
    if (pruned !== e.pruned) { e.pruned = pruned; e.line.classList.toggle('pruned', pruned); }
    if (reached !== e.reached) { e.reached = reached; e.line.classList.toggle('reached', reached); }
    if (cut !== e.isCut) {
      e.isCut = cut;
      const pg = nodeEls.get(n.parent.id);
      if (pg) {
        pg.cutChildren = (pg.cutChildren || 0) + (cut ? 1 : -1);
        writeValue(n.parent, pg);
      }
      e.line.classList.toggle('cut', cut);
      if (cut && !e.cut) e.cut = drawCut(n);
      if (e.cut) e.cut.classList.toggle('shown', cut);
    }
  }

  // The cut mark: a double slash across the edge, near the parent end.
  function drawCut(n) {
    const p = n.parent;
    const dx = n.x - p.x, dy = n.y - p.y, len = Math.hypot(dx, dy) || 1;
    const ux = dx / len, uy = dy / len;           // along the edge
    const px = -uy, py = ux;                      // across it
    const at = 0.5;
    const cx = p.x + dx * at, cy = p.y + dy * at;
    let d = '';
    for (const off of [-4, 4]) {
      const bx = cx + ux * off, by = cy + uy * off;
      d += `M${bx - px * 10 - ux * 4},${by - py * 10 - uy * 4}L${bx + px * 10 + ux * 4},${by + py * 10 + uy * 4}`;
    }
    const mark = el('path', { class: 'cut-mark', d }, edgeLayer);
    el('title', {}, mark).textContent = cutTitle(n.label);
    return mark;
  }

  /**
   * Draw one node's fields (from model.read); the edges its status affects
   * (its own, its children's) are added to `edges`, to be updated once.
   */
  function drawFields(id, f, edges) {
    const g = nodeEls.get(id);
    if (!g) return;
    const n = t.byId.get(id), shown = g.shown;
    if (shown.status !== f.status) {
      g.shape.classList.replace(`st-${shown.status}`, `st-${f.status}`);
      g.setAttribute('data-status', f.status);
      shown.status = f.status;
      state.set(id, f.status);
      edges.add(n);
      for (const c of n.children) edges.add(c);
    }
    const value = hook(f.value);
    if (shown.value !== value) {
      g.setAttribute('data-value', value);
      shown.value = value;
      g.value = f.value;
      writeValue(n, g);
    }
    const alpha = hook(f.alpha), beta = hook(f.beta);
    if (shown.alpha !== alpha || shown.beta !== beta) {
      g.setAttribute('data-alpha', alpha);
      g.setAttribute('data-beta', beta);
      shown.alpha = alpha;
      shown.beta = beta;
      if (n.role !== 'leaf' && (alpha || beta || g.bounds)) {
        boundsText(g);
        g.alphaT.textContent = alpha ? `α = ${show(f.alpha)}` : '';
        g.betaT.textContent = beta ? `β = ${show(f.beta)}` : '';
      }
    }
    // [mcts] visits and mean for MAX, beside the node where bounds go.
    const visits = hook(f.visits), mean = hook(f.mean);
    if ((shown.visits ?? '') !== visits || (shown.mean ?? '') !== mean) {
      g.setAttribute('data-visits', visits);
      g.setAttribute('data-mean', mean);
      shown.visits = visits;
      shown.mean = mean;
      boundsText(g);
      g.alphaT.textContent = visits ? `N = ${visits}` : '';
      g.betaT.textContent = mean ? `x̄ = ${show(f.mean)}` : '';
    }
  }

  /** Show one node's fields at the current step (from model.read). */
  function setNode(id, f) {
    setNodes([id], () => f);
  }

  /**
   * Show many nodes: `fieldsOf(id)` gives each one's fields. Only what
   * differs from the drawing is written; each edge is updated once.
   */
  function setNodes(ids, fieldsOf) {
    const edges = new Set();
    for (const id of ids) drawFields(id, fieldsOf(id), edges);
    for (const n of edges) updateEdge(n);
  }

  /** Ring the active node (null: none). */
  function setActive(id) {
    const n = id != null ? t.byId.get(id) : null;
    if (!n || !nodeEls.has(id)) { ring.setAttribute('visibility', 'hidden'); return; }
    ring.setAttribute('d', shapePath(n, SHAPE, n.x, n.y));
    ring.setAttribute('visibility', 'visible');
  }

  let pathIds = [];
  /** Highlight a path from the root (the principal variation), or clear it. */
  function setPath(ids) {
    for (const id of pathIds) {
      nodeEls.get(id)?.classList.remove('pv');
      edgeEls.get(id)?.line.classList.remove('pv');
    }
    pathIds = ids || [];
    for (const id of pathIds) {
      nodeEls.get(id)?.classList.add('pv');
      edgeEls.get(id)?.line.classList.add('pv');
    }
  }

  let playoutIds = [];
  /** [mcts] A playout: the nodes it passed beyond the search tree, drawn as a dashed path (null: none). */
  function setPlayout(ids) {
    for (const id of playoutIds) {
      nodeEls.get(id)?.classList.remove('playout');
      edgeEls.get(id)?.line.classList.remove('playout');
    }
    playoutIds = (ids || []).filter((id) => nodeEls.has(id));
    for (const id of playoutIds) {
      nodeEls.get(id).classList.add('playout');
      edgeEls.get(id)?.line.classList.add('playout');
    }
  }

  /** Grey the nodes a depth limit will never expand (those drawn). */
  function setDepthLimit(limit) {
    limited = limit != null;
    for (const n of t.nodes) {
      nodeEls.get(n.id)?.classList.toggle('beyond', limit != null && n.depth > limit);
      edgeEls.get(n.id)?.line.classList.toggle('beyond', limit != null && n.depth > limit);
    }
  }

  /**
   * Extension point (the editor): show a new static value on a drawn leaf,
   * in place. The layout is not redone: the caller redraws instead when the
   * value's width (tree.js leafWidth) changes.
   */
  function setStatic(id, value) {
    const g = nodeEls.get(id), n = t.byId.get(id);
    if (!g?.static || !n) return;
    n.value = value;
    g.static.textContent = show(value);
    fitValue(g.static, n);
  }

  /**
   * Where a small mark (practice's ✓ / ✗) goes beside a node without
   * covering a label: above the shape's top-left corner, in the node's own
   * coordinates (those of its <g>). The mark is right-aligned there.
   */
  function markSpot(id) {
    const n = t.byId.get(id);
    if (!n) return null;
    const p = plan.of(n);
    return { x: ox(n) - p.half + 2, y: oy(n) - SHAPE * 1.1 - 9 };
  }

  let focusEl = null;
  /** Ring the keyboard's node (null: none). */
  function setFocus(id) {
    focusEl?.classList.remove('kbd-focus');
    focusEl = id != null ? nodeEls.get(id) || null : null;
    focusEl?.classList.add('kbd-focus');
  }

  // A click on a node (not a pan: zoom.js captures the pointer) is told to the page.
  const surface = options.surface;
  let down = null;
  // The node is found at pointerdown: zoom.js then captures the pointer, and
  // the click that follows is aimed at the <svg>.
  const onDown = (e) => {
    const g = e.target.closest?.('[data-node]');
    down = g && viewport.contains(g) ? { x: e.clientX, y: e.clientY, id: g.dataset.node } : null;
  };
  const onClick = (e) => {
    const hit = down && Math.hypot(e.clientX - down.x, e.clientY - down.y) <= 6 ? down.id : null;
    down = null;
    if (hit != null) surface.dispatchEvent(new CustomEvent('node-click', { detail: hit }));
  };
  if (surface) {
    surface.addEventListener('pointerdown', onDown);
    surface.addEventListener('click', onClick);
  }
  function destroy() {
    surface?.removeEventListener('pointerdown', onDown);
    surface?.removeEventListener('click', onClick);
  }


  let limited = false;   // has setDepthLimit greyed anything?
  /** Take off what setActive, setPath and setDepthLimit showed (before a redraw reuses this view). */
  function clear() {
    setActive(null);
    setPath(null);
    setPlayout(null);
    if (limited) setDepthLimit(null);
  }

  return { box, setNode, setNodes, setActive, setPath, setPlayout, setDepthLimit, setStatic, markSpot, setFocus,
    destroy, canvas: false, nodeEl: (id) => nodeEls.get(id),
    [PARTS]: { viewport, edgeLayer, nodeLayer, ring, nodeEls, edgeEls, clear } };
}
