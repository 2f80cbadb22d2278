// The tree painted on a <canvas>: the second painter of the one tree view,
// for trees too big for an SVG element per shape (treeview.js chooses it).
// Same layout (tree.js, labels.js), same pictures (boards.js), same look
// (canvaslooks.js reads every colour, width, dash and font from the page's
// own CSS, so the high-contrast theme and presentation mode apply unchanged).
//
// It offers THE VIEW INTERFACE of treeview.js (box, setNode, setNodes,
// setActive, setPath, setDepthLimit, setStatic, markSpot, nodeEl) plus
// setFocus, nodeAt and destroy. It has no element per node: nodeEl(id) is
// undefined and the contract's hooks (data-node ...) live in the accessible
// tree (a11ytree.js in hooks mode), kept in step by the same calls.
//
// This module keeps the nodes' state (a step writes a few fields and marks
// what it changed); canvasframes.js decides when and where to paint (once
// per frame, only what is on screen, only what changed),
// canvaspaint.js how each item is drawn, canvashit.js what a pointer hits.

import { show } from '../core/model.js';
import { drawnNodes, SHAPE } from '../core/tree.js';
import { GAP, LINE, SIZES, playerMarks } from '../core/labels.js';
import { makeLooks } from './canvaslooks.js';
import { makeItemPainter } from './canvaspaint.js';
import { EDGE_REACH, PROB_REACH, makeFrames } from './canvasframes.js';
import { makeHits } from './canvashit.js';

/**
 * makeTreeCanvas(viewport, t, box, options) -> view. `box` is the layout of
 * tree.js (already computed, with its label plan); options as treeview.js
 * (maxDepth, collapsed, names) plus `surface` (the <svg> the viewport
 * belongs in: sized and zoomed by the page) and `zoom` (zoom.js).
 */
export function makeTreeCanvas(viewport, t, box, options) {
  const svg = options.surface;
  const zoom = options.zoom;
  const plan = box.plan;
  const maxDepth = options.maxDepth ?? null;
  const collapsed = options.collapsed || null;
  viewport.replaceChildren();

  // -- the nodes drawn, with their state ------------------------------------
  // How far a node and everything it paints reach, for culling (worked out
  // when asked: four numbers kept per node are four allocations each).
  const x0 = (rec) => rec.n.x - rec.p.left - 12, x1 = (rec) => rec.n.x + rec.p.right + 12;
  const y0 = (rec) => rec.n.y - rec.p.above - 12, y1 = (rec) => rec.n.y + Math.max(rec.p.below, SHAPE * 3) + 12;
  const order = [];                // recs in preorder (paint order)
  const atIndex = [];              // n.index -> rec (a drawn node's parent is drawn)
  for (let i = 0; i < t.nodes.length; i++) atIndex.push(undefined);   // (no holes: a fast array)
  // id -> rec, through the tree's own map (not a second one of 111,111 ids)
  const recs = {
    get(id) {
      const n = t.byId.get(id), rec = n && atIndex[n.index];
      return rec && rec.n === n ? rec : undefined;
    },
    has: (id) => recs.get(id) !== undefined,
  };
  for (const n of drawnNodes(t, maxDepth, collapsed)) {
    const p = plan.of(n);
    // Every field a rec ever gets is in its literal: one added later is an
    // allocation more per node (111,111 of them).
    const rec = {
      n, p, parent: null, status: 'unvisited', value: null, alpha: '', beta: '', valueShown: '',
      alphaRaw: null, betaRaw: null,
      cutChildren: 0, beyond: false, pv: false,
      // the edge from the parent
      reached: false, pruned: false, isCut: false,
      horizon: ((maxDepth != null && n.depth === maxDepth) || collapsed?.has(n.id)) && n.children.length > 0,
      fold: n.folded && (maxDepth == null || n.depth < maxDepth),
      path: null,
    };
    order.push(rec);
    atIndex[n.index] = rec;
  }
  for (const rec of order) rec.parent = rec.n.parent ? atIndex[rec.n.parent.index] || null : null;
  // One node of each kind for the looks to read (not 111,111 for them to sort into a few kinds).
  const kinds = new Map();
  for (const rec of order) {
    const n = rec.n;
    const kind = n.role === 'player' ? 5 + (n.playerIndex % 5) : n.role;
    if (!kinds.has(kind)) kinds.set(kind, n);
  }
  const sample = [...kinds.values()];

  // -- the look, the items' painter and the frames -----------------------------
  svg.classList.add('painted-on-canvas');
  const looks = makeLooks(svg);
  looks.warm(sample);
  const surface = { ctx: null };
  const painter = makeItemPainter({ looks, marks: playerMarks(t.players || []), surface });
  let active = null, focusId = null, pathIds = [];

  // -- where things are: columns of tree units --------------------------------
  // A step repaints a few small rectangles of an 11,111-node tree: the items
  // that may reach into them are found by column (nodes by their box, edges
  // by the box between their ends at the widest reach), not by testing all.
  // (Made at the first partial paint, not while the tree opens.)
  const COL = 256;
  let cols = 0, left = 0, nodeCols = null, edgeCols = null;
  const colOf = (x) => Math.min(cols - 1, Math.max(0, Math.floor((x - left) / COL)));
  function index() {
    let right = -Infinity;
    left = Infinity;
    for (const rec of order) { left = Math.min(left, x0(rec)); right = Math.max(right, x1(rec)); }
    cols = Math.max(1, Math.ceil((right - left + 2 * PROB_REACH) / COL) + 1);
    left -= PROB_REACH;
    nodeCols = Array.from({ length: cols }, () => []);
    edgeCols = Array.from({ length: cols }, () => []);
    order.forEach((rec, i) => {
      for (let c = colOf(x0(rec)), e = colOf(x1(rec)); c <= e; c++) nodeCols[c].push(i);
      const pr = rec.parent;
      if (!pr) return;
      const m = rec.n.probability != null ? PROB_REACH : EDGE_REACH;
      for (let c = colOf(Math.min(pr.n.x, rec.n.x) - m), e = colOf(Math.max(pr.n.x, rec.n.x) + m); c <= e; c++) edgeCols[c].push(i);
    });
  }
  const stamp = new Uint32Array(order.length);
  let stampNow = 0;
  /** The recs (in paint order) whose boxes (`edges`: their edges' boxes) meet the x ranges `spans`. */
  function candidates(edges, spans) {
    if (!spans || !order.length) return order;
    if (!nodeCols) index();
    const cells = edges ? edgeCols : nodeCols;
    if (++stampNow === 0xffffffff) { stamp.fill(0); stampNow = 1; }
    const out = [];
    for (const [x0, x1] of spans) {
      for (let c = colOf(x0), e = colOf(x1); c <= e; c++) {
        for (const i of cells[c]) if (stamp[i] !== stampNow) { stamp[i] = stampNow; out.push(i); }
      }
    }
    if (out.length > order.length / 2) return order;
    out.sort((a, b) => a - b);
    return out.map((i) => order[i]);
  }

  /**
   * Paint, in their order, the items whose boxes `inside(x0, y0, x1, y1)`
   * accepts: edges (a box between their ends, `reach` wider), folds and
   * horizons, the ring, the nodes. `spans`: the x ranges (tree units) that
   * hold every box `inside` accepts (null: look at all).
   */
  function paintItems(inside, reach, texts, spans = null) {
    const seen = [];
    for (const rec of candidates(false, spans)) if (inside(x0(rec), y0(rec), x1(rec), y1(rec))) seen.push(rec);
    // Edges: every edge that crosses the area (those of the top levels are long).
    for (const rec of candidates(true, spans)) {
      const pr = rec.parent;
      if (!pr) continue;
      const m = reach && rec.n.probability != null ? PROB_REACH : reach;
      if (!inside(Math.min(pr.n.x, rec.n.x) - m, pr.n.y - m, Math.max(pr.n.x, rec.n.x) + m, rec.n.y + m)) continue;
      painter.edge(pr, rec, texts);
    }
    for (const rec of seen) {
      if (rec.horizon) painter.horizon(rec);
      if (rec.fold) painter.fold(rec, texts);
    }
    if (active && recs.has(active)) painter.ring(recs.get(active));
    for (const rec of seen) painter.node(rec, texts, focusId === rec.n.id);
  }

  const frames = makeFrames({ svg, zoom, surface, paintItems });
  const { touch, invalidate } = frames;
  const themeWatch = new MutationObserver(() => { looks.clear(); looks.warm(sample); frames.repaper(); });
  themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });

  /** A node's look changed: all it paints (shape, texts, ring, fold) is in its box. */
  const touchNode = (rec) => rec && touch(x0(rec), y0(rec), x1(rec), y1(rec));

  /** The edge to a node changed (reached, pruned, cut, on the best line). */
  function touchEdge(rec) {
    const pr = rec.parent;
    if (!pr) return;
    const m = rec.n.probability != null ? PROB_REACH : EDGE_REACH;
    touch(Math.min(pr.n.x, rec.n.x) - m, pr.n.y - m, Math.max(pr.n.x, rec.n.x) + m, rec.n.y + m);
  }

  // -- state: the same rules as the SVG painter ---------------------------------
  const hookOf = (x) => (x === null || x === undefined ? '' : Array.isArray(x) ? JSON.stringify(x) : String(x));

  function updateEdge(rec) {
    const pr = rec.parent;
    if (!pr) return;
    const pruned = rec.status === 'pruned';
    const reached = rec.status !== 'unvisited' && !pruned;
    const cut = pruned && pr.status !== 'pruned';
    if (pruned !== rec.pruned || reached !== rec.reached || cut !== rec.isCut) touchEdge(rec);
    rec.pruned = pruned;
    rec.reached = reached;
    if (cut !== rec.isCut) {
      rec.isCut = cut;
      pr.cutChildren += cut ? 1 : -1;
      touchNode(pr);              // its value becomes a bound ("≥3"), or stops being one
    }
  }

  function setNodes(ids, fieldsOf) {
    const edges = new Set();
    for (const id of ids) {
      const rec = recs.get(id);
      if (!rec) continue;
      const f = fieldsOf(id);
      const shown = hookOf(f.value), alpha = hookOf(f.alpha), beta = hookOf(f.beta);
      if (rec.status !== f.status) {
        rec.status = f.status;
        edges.add(rec);
        for (const c of rec.n.children) { const cr = recs.get(c.id); if (cr) edges.add(cr); }
        touchNode(rec);
      } else if (rec.valueShown !== shown || rec.alpha !== alpha || rec.beta !== beta) {
        touchNode(rec);
      }
      rec.valueShown = shown;
      rec.value = f.value;
      rec.alpha = alpha; rec.alphaRaw = f.alpha;
      rec.beta = beta; rec.betaRaw = f.beta;
    }
    for (const rec of edges) updateEdge(rec);
  }

  function setActive(id) {
    const next = id != null && recs.has(id) ? id : null;
    if (next === active) return;
    touchNode(recs.get(active));
    active = next;
    touchNode(recs.get(active));
  }

  function setPath(ids) {
    const was = new Set(pathIds);
    pathIds = ids || [];
    const now = new Set(pathIds);
    for (const id of new Set([...was, ...now])) {
      const r = recs.get(id);
      if (!r || r.pv === now.has(id)) continue;
      r.pv = now.has(id);
      touchNode(r);
      touchEdge(r);
    }
  }

  function setDepthLimit(limit) {
    for (const rec of order) rec.beyond = limit != null && rec.n.depth > limit;
    invalidate();
  }

  function setStatic(id, value) {
    const rec = recs.get(id);
    if (!rec || rec.n.role !== 'leaf') return;
    rec.n.value = value;
    touchNode(rec);
  }

  function markSpot(id) {
    const n = t.byId.get(id);
    if (!n) return null;
    return { x: n.x - plan.of(n).half + 2, y: n.y - SHAPE * 1.1 - 9 };
  }

  /** The keyboard's (or a click's) node: ringed as .kbd-focus is in the SVG. */
  function setFocus(id) {
    const next = id != null && recs.has(id) ? id : null;
    if (next === focusId) return;
    touchNode(recs.get(focusId));
    focusId = next;
    touchNode(recs.get(focusId));
  }

  const hits = makeHits({ svg, zoom, order, tree: t });

  function destroy() {
    themeWatch.disconnect();
    frames.destroy();
    hits.destroy();
    svg.classList.remove('painted-on-canvas');
    looks.destroy();
  }

  frames.resize(zoom ? zoom.size : svg.getBoundingClientRect(), false);
  const zoomNow = () => (zoom ? zoom.get() : { k: 1, x: 0, y: 0 });
  return {
    box, canvas: true, element: frames.canvas,
    setNode: (id, f) => setNodes([id], () => f),
    setNodes, setActive, setPath, setDepthLimit, setStatic, markSpot, setFocus,
    nodeEl: () => undefined,
    /** Whole and partial (changed rectangles only) paints so far, for tests. */
    paints: frames.paints,
    /** The node (or fold) at a point on screen, as a click would find it. */
    hitAt: hits.hitAt,
    /** Where node `id` is on screen (client coordinates), for tests and tools. */
    screenOf(id) {
      const n = t.byId.get(id);
      if (!n || !recs.has(id)) return null;
      const r = svg.getBoundingClientRect();
      const { k, x, y } = zoomNow();
      return { x: r.left + x + k * n.x, y: r.top + y + k * n.y, k };
    },
    /**
     * The boxes of every label painted at the current zoom, in client
     * coordinates ({text, x0, y0, x1, y1}), for the overlap checks of tests.
     */
    labelBoxes() {
      const out = [];
      const ctx = surface.ctx;
      const r = svg.getBoundingClientRect();
      const { k, x, y } = zoomNow();
      const sx = (u) => r.left + x + k * u, sy = (u) => r.top + y + k * u;
      for (const rec of order) {
        const n = rec.n, look = looks.node(n, rec.status, rec.pv, false);
        const add = (text, lk, cx, cy, align = 'center') => {
          ctx.font = lk.font;
          const w = ctx.measureText(text).width, h = lk.size;
          const left = align === 'left' ? cx : cx - w / 2;
          out.push({ id: n.id, text, x0: sx(left), x1: sx(left + w), y0: sy(cy - h / 2), y1: sy(cy + h / 2) });
        };
        const item = rec.p.side || rec.p.under;
        if (item && !item.pic) {
          const side = !!rec.p.side;
          add(item.text, side ? look.nameSide : look.name,
            side ? n.x - rec.p.half - GAP - item.w / 2 : n.x,
            side ? n.y : n.y + SHAPE * 0.85 + 4 + item.h / 2);
        }
        if (n.role !== 'leaf' && (rec.alpha || rec.beta)) {
          const bx = n.x + rec.p.half + GAP, by = n.y - (SIZES.bounds * LINE) / 2;
          if (rec.alpha) add(`α = ${show(rec.alphaRaw)}`, look.bounds, bx, by, 'left');
          if (rec.beta) add(`β = ${show(rec.betaRaw)}`, look.bounds, bx, by + LINE * look.bounds.size, 'left');
        }
      }
      return out;
    },
    paint: frames.paint,
    destroy,
  };
}
