// The tree painted on a <canvas>: the second painter of the one tree view,
// for trees too big for an SVG element per shape (treeview.js chooses it).
// Same layout (tree.js, labels.js), same pictures (boards.js), same look:
// every colour, width, dash and font is read from the page's own CSS rules
// through a few hidden probe elements shaped like the SVG painter's nodes,
// so the high-contrast theme and presentation mode apply unchanged.
//
// It offers THE VIEW INTERFACE of treeview.js (box, setNode, setNodes,
// setActive, setPath, setDepthLimit, setStatic, markSpot, nodeEl) plus
// setFocus, nodeAt and destroy. It has no element per node: nodeEl(id) is
// undefined and the contract's hooks (data-node ...) live in the accessible
// tree (a11ytree.js in hooks mode), kept in step by the same calls.
//
// Only what is on screen is painted, once per frame at most, from the
// nodes' state kept here (a step writes a few fields and asks for a frame);
// a step's frame repaints only the rectangles of what it changed.
// The SVG above stays the surface for zoom.js and for pointer input: a click
// is hit-tested here and becomes the same events the SVG painter sends
// ('node-click', 'open-subtree').

import { show } from './model.js';
import { shapePath, SHAPE } from './tree.js';
import { picture } from './boards.js';
import { GAP, LINE, SIZES } from './labels.js';
import { drawnNodes, playerMarks } from './treeview.js';

const SVGNS = 'http://www.w3.org/2000/svg';
const FAR = 0.45;          // zoom below which text is not drawn (zoom.js: lod-far)
const CLICK_SLOP = 6;      // px a pointer may move and still click
const MAX_DIRTY = 64;      // rectangles a frame repaints one by one; more: the whole canvas
const EDGE_REACH = 24;     // tree units an edge paints beyond its ends' box (cut marks, width)
const PROB_REACH = 90;     // ... with a probability written beside it

function svgEl(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

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
  const marks = playerMarks(t.players || []);
  const maxDepth = options.maxDepth ?? null;
  const collapsed = options.collapsed || null;
  viewport.replaceChildren();

  // -- the nodes drawn, with their state ------------------------------------
  const recs = new Map();          // id -> rec
  const order = [];                // recs in preorder (paint order)
  for (const n of drawnNodes(t, maxDepth, collapsed)) {
    const p = plan.of(n);
    const rec = {
      n, p, status: 'unvisited', value: null, alpha: '', beta: '', valueShown: '',
      cutChildren: 0, beyond: false, pv: false,
      // the edge from the parent
      reached: false, pruned: false, isCut: false,
      horizon: ((maxDepth != null && n.depth === maxDepth) || collapsed?.has(n.id)) && n.children.length > 0,
      fold: n.folded && (maxDepth == null || n.depth < maxDepth),
      path: null,
      // how far the node and everything it paints reach, for culling
      x0: n.x - p.left - 12, x1: n.x + p.right + 12,
      y0: n.y - p.above - 12, y1: n.y + Math.max(p.below, SHAPE * 3) + 12,
    };
    recs.set(n.id, rec);
    order.push(rec);
  }
  for (const rec of order) rec.parent = rec.n.parent ? recs.get(rec.n.parent.id) || null : null;
  const parentRec = (rec) => rec.parent;

  // -- the canvas, under the SVG's transparent surface ----------------------
  const canvas = document.createElement('canvas');
  canvas.className = 'tree-canvas';
  canvas.setAttribute('aria-hidden', 'true');
  canvas.style.cssText = 'position:absolute;left:0;top:0;pointer-events:none;';
  svg.after(canvas);
  svg.classList.add('painted-on-canvas');
  let ctx = canvas.getContext('2d');   // (the scratch canvas's while a partial paint draws)
  const screenCtx = ctx;
  let scratch = null;
  let width = 0, height = 0, dpr = 1;
  // The drawing area's size is the zoom's (kept by its ResizeObserver): one
  // source, so that a fit and a repaint never disagree on it.
  const resize = (size) => {
    width = size.width; height = size.height;
    dpr = window.devicePixelRatio || 1;
    canvas.width = Math.max(1, Math.round(width * dpr));
    canvas.height = Math.max(1, Math.round(height * dpr));
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    paint();
  };

  // -- the look, read from the page's CSS -------------------------------------
  const looks = makeLooks(svg);
  looks.warm(order.map((r) => r.n));
  const themeWatch = new MutationObserver(() => { looks.clear(); looks.warm(order.map((r) => r.n)); invalidate(); });
  themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });

  // -- painting ---------------------------------------------------------------
  // A step changes a few nodes: its frame paints again only the rectangles
  // they cover, with everything that reaches into them, in the same order as
  // a whole paint, and the compositor gets a small damaged area. They are
  // drawn on a scratch canvas, unclipped, and copied over: under a clip the
  // rasteriser samples thin lines differently, and the pixels must be those
  // of a whole paint. A pan, a zoom, a resize, a new look or a depth limit
  // paints everything.
  let raf = 0, active = null, focusId = null, pathIds = [];
  let whole = true;               // the next frame paints everything
  const dirty = [];               // else the boxes (tree units) it paints again
  let painted = null;             // the zoom and size of the last whole paint
  const paints = { whole: 0, partial: 0 };
  const unlisten = zoom?.listen?.((z) => (z.resized ? resize(z) : paint()));

  function schedule() {
    if (!raf) raf = requestAnimationFrame(() => { raf = 0; paint(false); });
  }

  /** Paint everything in the next frame. */
  function invalidate() {
    whole = true;
    dirty.length = 0;
    schedule();
  }

  /** Paint the box (tree units) again in the next frame. */
  function touch(x0, y0, x1, y1) {
    if (!whole) {
      if (dirty.length >= MAX_DIRTY) { invalidate(); return; }
      dirty.push([x0, y0, x1, y1]);
    }
    schedule();
  }

  /** A node's look changed: all it paints (shape, texts, ring, fold) is in its box. */
  const touchNode = (rec) => rec && touch(rec.x0, rec.y0, rec.x1, rec.y1);

  /** The edge to a node changed (reached, pruned, cut, on the best line). */
  function touchEdge(rec) {
    const pr = parentRec(rec);
    if (!pr) return;
    const m = rec.n.probability != null ? PROB_REACH : EDGE_REACH;
    touch(Math.min(pr.n.x, rec.n.x) - m, pr.n.y - m, Math.max(pr.n.x, rec.n.x) + m, rec.n.y + m);
  }

  /** Paint now: everything (`all`, the default), or what changed since the last frame. */
  function paint(all = true) {
    if (raf) { cancelAnimationFrame(raf); raf = 0; }
    if (!width) return;
    const z = zoom ? zoom.get() : { k: 1, x: 0, y: 0 };
    const same = painted && painted.k === z.k && painted.x === z.x && painted.y === z.y
      && painted.width === canvas.width && painted.height === canvas.height && painted.dpr === dpr;
    if (!all && !whole && same) {
      if (dirty.length) paintDirty(z);
      dirty.length = 0;
      return;
    }
    whole = false;
    dirty.length = 0;
    painted = { k: z.k, x: z.x, y: z.y, width: canvas.width, height: canvas.height, dpr };
    paints.whole++;
    const { k, x, y } = z;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(dpr * k, 0, 0, dpr * k, dpr * x, dpr * y);
    // What is on screen, in tree units.
    const vx0 = -x / k, vx1 = (width - x) / k, vy0 = -y / k, vy1 = (height - y) / k;
    paintItems((x0, y0, x1, y1) => x1 >= vx0 && x0 <= vx1 && y1 >= vy0 && y0 <= vy1, 0, k >= FAR);
  }

  /** Paint again the dirty boxes (whole device pixels): what reaches into them. */
  function paintDirty({ k, x, y }) {
    const s = dpr * k, ox = dpr * x, oy = dpr * y;
    const W = canvas.width, H = canvas.height;
    const rects = [];
    for (const [x0, y0, x1, y1] of dirty) {
      // A pixel more on each side for antialiasing.
      const a = Math.max(0, Math.floor(ox + s * x0) - 1), b = Math.max(0, Math.floor(oy + s * y0) - 1);
      const c = Math.min(W, Math.ceil(ox + s * x1) + 1), d = Math.min(H, Math.ceil(oy + s * y1) + 1);
      if (c > a && d > b) rects.push([a, b, c, d]);
    }
    if (!rects.length) return;
    paints.partial++;
    // The same rectangles in tree units, two pixels wider: whatever paints
    // into them (antialiased edges included) is found by its box.
    const boxes = rects.map(([a, b, c, d]) => [(a - 2 - ox) / s, (b - 2 - oy) / s, (c + 2 - ox) / s, (d + 2 - oy) / s]);
    const inside = (x0, y0, x1, y1) => {
      for (const q of boxes) if (x1 >= q[0] && x0 <= q[2] && y1 >= q[1] && y0 <= q[3]) return true;
      return false;
    };
    if (scratch?.width !== W || scratch.height !== H) {
      scratch = document.createElement('canvas');
      scratch.width = W;
      scratch.height = H;
    }
    const sc = scratch.getContext('2d');
    sc.setTransform(1, 0, 0, 1, 0, 0);
    for (const [a, b, c, d] of rects) sc.clearRect(a, b, c - a, d - b);
    sc.setTransform(s, 0, 0, s, ox, oy);
    ctx = sc;
    try {
      paintItems(inside, EDGE_REACH, k >= FAR);
    } finally {
      ctx = screenCtx;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    for (const [a, b, c, d] of rects) {
      ctx.clearRect(a, b, c - a, d - b);
      ctx.drawImage(scratch, a, b, c - a, d - b, a, b, c - a, d - b);
    }
  }

  /**
   * Paint, in their order, the items whose boxes `inside(x0, y0, x1, y1)`
   * accepts: edges (a box between their ends, `reach` wider), folds and
   * horizons, the ring, the nodes.
   */
  function paintItems(inside, reach, texts) {
    const seen = [];
    for (const rec of order) if (inside(rec.x0, rec.y0, rec.x1, rec.y1)) seen.push(rec);
    // Edges: every edge that crosses the area (those of the top levels are long).
    for (const rec of order) {
      const pr = parentRec(rec);
      if (!pr) continue;
      const m = reach && rec.n.probability != null ? PROB_REACH : reach;
      if (!inside(Math.min(pr.n.x, rec.n.x) - m, pr.n.y - m, Math.max(pr.n.x, rec.n.x) + m, rec.n.y + m)) continue;
      paintEdge(pr, rec, texts);
    }
    for (const rec of seen) {
      if (rec.horizon) paintHorizon(rec);
      if (rec.fold) paintFold(rec, texts);
    }
    if (active && recs.has(active)) paintRing(recs.get(active));
    for (const rec of seen) paintNode(rec, texts);
  }

  function stroke(look, path) {
    if (!look.strokeWidth || look.stroke === 'none') return;
    ctx.lineWidth = look.strokeWidth;
    ctx.strokeStyle = look.stroke;
    ctx.setLineDash(look.dash);
    ctx.lineCap = look.cap;
    ctx.lineJoin = look.join;
    const a = ctx.globalAlpha;
    ctx.globalAlpha = a * look.strokeOpacity;
    if (path) ctx.stroke(path); else ctx.stroke();
    ctx.globalAlpha = a;
  }

  function fill(look, path) {
    if (look.fill === 'none') return;
    ctx.fillStyle = look.fill === 'hatch' ? looks.hatch(ctx) : look.fill;
    if (path) ctx.fill(path); else ctx.fill();
  }

  // SVG's dominant-baseline: central is the middle of the em box, a little
  // lower than canvas's 'middle': text goes on the alphabetic baseline,
  // shifted by half the em box's ascent less its descent (per font).
  const centralOffsets = new Map();
  function central(font) {
    let off = centralOffsets.get(font);
    if (off === undefined) {
      const m = ctx.measureText('0');
      const up = m.emHeightAscent ?? m.fontBoundingBoxAscent, down = m.emHeightDescent ?? m.fontBoundingBoxDescent;
      off = (up - down) / 2;
      centralOffsets.set(font, off);
    }
    return off;
  }

  function write(look, text, x, y, align = 'center') {
    ctx.font = look.font;
    ctx.textAlign = align;
    ctx.textBaseline = 'alphabetic';
    y += central(look.font);
    if (look.halo) {
      ctx.lineWidth = look.haloWidth;
      ctx.strokeStyle = look.halo;
      ctx.lineJoin = 'round';
      ctx.setLineDash([]);
      ctx.strokeText(text, x, y);
    }
    ctx.fillStyle = look.fill;
    ctx.fillText(text, x, y);
  }

  function paintEdge(pr, rec, texts) {
    const p = pr.n, n = rec.n;
    const cls = ['edge'];
    if (rec.reached) cls.push('reached');
    if (rec.pruned) cls.push('pruned');
    if (rec.pv) cls.push('pv');
    if (rec.beyond) cls.push('beyond');
    const look = looks.edge(cls.join(' '));
    ctx.beginPath();
    ctx.moveTo(p.x, p.y + SHAPE * 0.9);
    ctx.lineTo(n.x, n.y - SHAPE * 0.9);
    stroke(look);
    if (n.probability != null && texts) {
      const mx = (p.x + n.x) / 2, my = (p.y + n.y) / 2;
      write(looks.text('prob'), show(n.probability), mx + (n.x >= p.x ? 6 : -6), my, n.x >= p.x ? 'left' : 'right');
    }
    if (rec.isCut) {
      rec.cutPath ??= new Path2D(cutPath(p, n));
      stroke(looks.edge('cut-mark shown'), rec.cutPath);
    }
  }

  function paintHorizon(rec) {
    const n = rec.n, k = Math.min(n.children.length, 3), y = n.y + SHAPE * 1.1;
    ctx.beginPath();
    for (let i = 0; i < k; i++) {
      const dx = k === 1 ? 0 : (i / (k - 1) - 0.5) * SHAPE * 1.6;
      ctx.moveTo(n.x, y);
      ctx.lineTo(n.x + dx, y + SHAPE * 1.3);
    }
    stroke(looks.edge('horizon'));
  }

  function foldGeometry(n) {
    return { y: n.y + SHAPE * 1.1, w: SHAPE * 1.3, h: SHAPE * 1.6 };
  }

  function paintFold(rec, texts) {
    const n = rec.n, { y, w, h } = foldGeometry(n);
    const look = looks.fold();
    ctx.beginPath();
    ctx.moveTo(n.x, y);
    ctx.lineTo(n.x + w, y + h);
    ctx.lineTo(n.x - w, y + h);
    ctx.closePath();
    fill(look.shape);
    stroke(look.shape);
    if (texts) write(look.count, foldCount(n.size), n.x, y + h * 0.68);
  }

  function paintRing(rec) {
    rec.path ??= new Path2D(shapePath(rec.n, SHAPE, rec.n.x, rec.n.y));
    stroke(looks.edge('ring'), rec.path);
  }

  function paintNode(rec, texts) {
    const n = rec.n;
    const look = looks.node(n, rec.status, rec.pv, focusId === n.id);
    const a = ctx.globalAlpha;
    if (rec.beyond) ctx.globalAlpha = look.beyondOpacity;
    rec.path ??= new Path2D(shapePath(n, SHAPE, n.x, n.y));
    fill(look.shape, rec.path);
    stroke(look.shape, rec.path);
    const item = rec.p.side || rec.p.under;
    if (item?.pic) paintPicture(n, rec.p, item);
    if (texts) {
      if (n.role === 'leaf') write(look.static, show(n.value), n.x, n.y);
      else if (n.role === 'player') write(look.who, marks[n.playerIndex] ?? '?', n.x, n.y + 1);
      const v = valueText(rec);
      if (v) {
        if (n.role === 'player') write(look.vPlayer, v, n.x + rec.p.half + GAP, n.y, 'left');
        else if (n.role !== 'leaf') {
          const len = Math.min(5, v.length);
          const scale = rec.cutChildren ? 0.8 : len >= 5 ? 0.6 : len === 4 ? 0.7 : len === 3 ? 0.82 : 1;
          const dy = n.role === 'max' ? 6 : n.role === 'min' ? -5 : 0;
          write({ ...look.v, font: look.vFont(scale) }, v, n.x, n.y + dy);
        }
      }
      if (item && !item.pic) {
        const side = !!rec.p.side;
        const cx = side ? n.x - rec.p.half - GAP - item.w / 2 : n.x;
        const cy = side ? n.y : n.y + SHAPE * 0.85 + 4 + item.h / 2;
        write(side ? look.nameSide : look.name, item.text, cx, cy);
      }
      if (n.role !== 'leaf' && (rec.alpha || rec.beta)) {
        const bl = look.bounds;
        const bx = n.x + rec.p.half + GAP, by = n.y - (SIZES.bounds * LINE) / 2;
        if (rec.alpha) write(bl, `α = ${show(rec.alphaRaw)}`, bx, by, 'left');
        if (rec.beta) write(bl, `β = ${show(rec.betaRaw)}`, bx, by + LINE * bl.size, 'left');
      }
    }
    ctx.globalAlpha = a;
  }

  function paintPicture(n, p, item) {
    const side = !!p.side;
    const cx = side ? n.x - p.half - GAP - item.w / 2 : n.x;
    const cy = side ? n.y : n.y + SHAPE * 0.85 + 4 + item.h / 2;
    const pic = picture(item.pic, n.label, cx, cy);
    if (!pic) return;
    const frame = looks.edge(`pic-frame|${item.pic}`);
    ctx.beginPath();
    ctx.rect(pic.frame.x, pic.frame.y, pic.frame.w, pic.frame.h);
    fill(frame);
    stroke(frame);
    for (const [cls, d] of pic.parts) {
      const look = looks.edge(`${cls}|${item.pic}`);
      const path = new Path2D(d);
      fill(look, path);
      stroke(look, path);
    }
  }

  // A node some of whose children were cut off has only a bound for a value.
  function valueText(rec) {
    const v = rec.valueShown === '' ? '' : show(rec.value);
    const role = rec.n.role;
    if (!v || !rec.cutChildren || (role !== 'max' && role !== 'min')) return v;
    return `${role === 'max' ? '≥' : '≤'}${v}`;
  }

  // -- state: the same rules as the SVG painter ---------------------------------
  const hookOf = (x) => (x === null || x === undefined ? '' : Array.isArray(x) ? JSON.stringify(x) : String(x));

  function updateEdge(rec) {
    const pr = parentRec(rec);
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

  // -- hit-testing ------------------------------------------------------------
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
    const n = hit?.node != null ? t.byId.get(hit.node) : hit?.fold != null ? t.byId.get(hit.fold) : null;
    const title = !n ? '' : hit.fold != null ? foldTitle(n.size) : n.label;
    if (svg.getAttribute('data-hover') !== title) svg.setAttribute('data-hover', title);
    const tip = svg.querySelector(':scope > title.canvas-tip') || svgEl('title', { class: 'canvas-tip' }, svg);
    if (tip.textContent !== title) tip.textContent = title;
  };
  svg.addEventListener('pointerdown', onDown);
  svg.addEventListener('click', onClick);
  svg.addEventListener('pointermove', onMove);

  function destroy() {
    if (raf) cancelAnimationFrame(raf);
    themeWatch.disconnect();
    unlisten?.();
    svg.removeEventListener('pointerdown', onDown);
    svg.removeEventListener('click', onClick);
    svg.removeEventListener('pointermove', onMove);
    svg.querySelector(':scope > title.canvas-tip')?.remove();
    svg.style.cursor = '';
    svg.classList.remove('painted-on-canvas');
    looks.destroy();
    canvas.remove();
    scratch = null;
  }

  resize(zoom ? zoom.size : svg.getBoundingClientRect());
  return {
    box, canvas: true, element: canvas,
    setNode: (id, f) => setNodes([id], () => f),
    setNodes, setActive, setPath, setDepthLimit, setStatic, markSpot, setFocus,
    nodeEl: () => undefined,
    /** Whole and partial (changed rectangles only) paints so far, for tests. */
    paints,
    /** The node (or fold) at a point on screen, as a click would find it. */
    hitAt,
    /** Where node `id` is on screen (client coordinates), for tests and tools. */
    screenOf(id) {
      const n = t.byId.get(id);
      if (!n || !recs.has(id)) return null;
      const r = svg.getBoundingClientRect();
      const { k, x, y } = zoom ? zoom.get() : { k: 1, x: 0, y: 0 };
      return { x: r.left + x + k * n.x, y: r.top + y + k * n.y, k };
    },
    /**
     * The boxes of every label painted at the current zoom, in client
     * coordinates ({text, x0, y0, x1, y1}), for the overlap checks of tests.
     */
    labelBoxes() {
      const out = [];
      const r = svg.getBoundingClientRect();
      const { k, x, y } = zoom ? zoom.get() : { k: 1, x: 0, y: 0 };
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
    paint,
    destroy,
  };
}

function cutPath(p, n) {
  const dx = n.x - p.x, dy = n.y - p.y, len = Math.hypot(dx, dy) || 1;
  const ux = dx / len, uy = dy / len, px = -uy, py = ux;
  const cx = p.x + dx * 0.5, cy = p.y + dy * 0.5;
  let d = '';
  for (const off of [-4, 4]) {
    const bx = cx + ux * off, by = cy + uy * off;
    d += `M${bx - px * 10 - ux * 4},${by - py * 10 - uy * 4}L${bx + px * 10 + ux * 4},${by + py * 10 + uy * 4}`;
  }
  return d;
}

function foldCount(size) {
  return size == null ? '…' : size >= 1e6 ? `${Math.round(size / 1e5) / 10}M`
    : size >= 1e4 ? `${Math.round(size / 1e3)}k` : String(size);
}

function foldTitle(size) {
  return size == null ? 'A subtree too big to count: click to open it'
    : `${size.toLocaleString('en')} nodes below: click to open them`;
}

// -- the look: computed styles of hidden elements shaped like SVG nodes --------

/**
 * makeLooks(svg): cached styles read from probe elements inside `svg` (so
 * the page's rules and custom properties apply as to the SVG painter's
 * nodes). clear() forgets them (the theme changed).
 */
function makeLooks(svg) {
  const probe = svgEl('g', { class: 'canvas-probes', 'aria-hidden': 'true', visibility: 'hidden' }, svg);
  const cache = new Map();
  let hatch = null;

  function strokeLook(cs) {
    const dash = cs.strokeDasharray === 'none' ? [] : cs.strokeDasharray.split(/[ ,]+/).map(parseFloat).filter((x) => !isNaN(x));
    return {
      stroke: cs.stroke, strokeWidth: parseFloat(cs.strokeWidth) || 0, dash,
      strokeOpacity: parseFloat(cs.strokeOpacity), cap: cs.strokeLinecap, join: cs.strokeLinejoin,
      fill: cs.fill.startsWith('url(') ? 'hatch' : cs.fill,
      display: cs.display,
    };
  }

  function textLook(el) {
    const cs = getComputedStyle(el);
    const size = parseFloat(cs.fontSize);
    const halo = cs.paintOrder.startsWith('stroke') && cs.stroke !== 'none' ? cs.stroke : null;
    return {
      fill: cs.fill, size, halo, haloWidth: parseFloat(cs.strokeWidth) || 0,
      font: `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`,
      family: cs.fontFamily, weight: cs.fontWeight, style: cs.fontStyle,
    };
  }

  /** An edge-layer element with classes `cls` (a path), e.g. 'edge reached'. */
  function edge(key) {
    let look = cache.get(`e:${key}`);
    if (look) return look;
    const [cls, pic] = key.split('|');
    const holder = pic ? svgEl('g', { class: `pic pic-${pic}` }, probe) : probe;
    const el = svgEl('path', { class: cls, d: 'M0,0' }, holder);
    look = strokeLook(getComputedStyle(el));
    el.remove();
    if (holder !== probe) holder.remove();
    cache.set(`e:${key}`, look);
    return look;
  }

  function text(cls) {
    let look = cache.get(`t:${cls}`);
    if (look) return look;
    const el = svgEl('text', { class: cls }, probe);
    look = textLook(el);
    el.remove();
    cache.set(`t:${cls}`, look);
    return look;
  }

  function fold() {
    let look = cache.get('fold');
    if (look) return look;
    const g = svgEl('g', { class: 'fold' }, probe);
    const p = svgEl('path', { d: 'M0,0' }, g);
    const c = svgEl('text', { class: 'fold-count' }, g);
    look = { shape: strokeLook(getComputedStyle(p)), count: textLook(c) };
    g.remove();
    cache.set('fold', look);
    return look;
  }

  const STATUSES = ['unvisited', 'active', 'visited', 'evaluated', 'pruned'];
  /**
   * Read every look the nodes of `nodes` can take, in one style pass: made
   * one at a time later, each probe would force a style pass over the whole
   * page (a big tree's accessible items included).
   */
  function warm(nodes) {
    const kinds = new Map();
    for (const n of nodes) kinds.set(`${n.role}:${n.role === 'player' ? n.playerIndex % 5 : -1}`, n);
    const made = [];
    for (const n of kinds.values()) {
      for (const status of STATUSES) {
        for (const pv of [false, true]) {
          for (const focus of [false, true]) made.push(probeNode(n, status, pv, focus));
        }
      }
    }
    for (const cls of ['edge', 'edge reached', 'edge pruned', 'edge pv', 'edge reached pv', 'edge beyond',
      'edge reached beyond', 'edge pruned beyond', 'horizon', 'ring', 'cut-mark shown']) edge(cls);
    fold();
    text('prob');
    for (const m of made) m();
  }

  function nodeKey(n, status, pv, focus) {
    const pi = n.role === 'player' ? n.playerIndex % 5 : -1;
    return `n:${n.role}:${pi}:${status}:${pv}:${focus}`;
  }

  /** A node's look: its shape and texts, as the SVG painter's classes give them. */
  function node(n, status, pv, focus) {
    const look = cache.get(nodeKey(n, status, pv, focus));
    return look || probeNode(n, status, pv, focus)();
  }

  /** Make the probe of a node's look; the function returned reads it (and caches it). */
  function probeNode(n, status, pv, focus) {
    const key = nodeKey(n, status, pv, focus);
    const pi = n.role === 'player' ? n.playerIndex % 5 : -1;
    const g = svgEl('g', {
      class: `node role-${n.role}${pi >= 0 ? ` p${pi}` : ''}${pv ? ' pv' : ''}${focus ? ' kbd-focus' : ''}`,
    }, probe);
    const shape = svgEl('path', { class: `shape st-${status}`, d: 'M0,0' }, g);
    const els = {
      static: svgEl('text', { class: 'static' }, g),
      who: svgEl('text', { class: 'who' }, g),
      v: svgEl('text', { class: 'v' }, g),
      vPlayer: null,
      name: svgEl('text', { class: 'name lbl' }, g),
      nameSide: svgEl('text', { class: 'name side lbl' }, g),
      bounds: svgEl('text', { class: 'bounds lbl' }, g),
    };
    const beyond = svgEl('g', { class: 'node beyond' }, probe);
    return () => {
      const look = { shape: strokeLook(getComputedStyle(shape)) };
      for (const k in els) if (els[k]) look[k] = textLook(els[k]);
      look.vPlayer = look.v;
      if (n.role === 'player') look.vPlayer = { ...look.v, halo: look.name.halo, haloWidth: look.name.haloWidth };
      const base = look.v;
      look.vFont = (scale) => `${base.style} ${base.weight} ${base.size * scale}px ${base.family}`;
      look.beyondOpacity = parseFloat(getComputedStyle(beyond).opacity);
      g.remove();
      beyond.remove();
      cache.set(key, look);
      return look;
    };
  }

  /** The pruned shapes' hatching (the SVG's #hatch pattern), as a canvas pattern. */
  function hatchPattern(ctx) {
    if (hatch) return hatch;
    const bg = svg.querySelector('#hatch .hatch-bg') || svgEl('rect', { class: 'hatch-bg' }, probe);
    const line = svg.querySelector('#hatch .hatch-line') || svgEl('line', { class: 'hatch-line' }, probe);
    const cb = getComputedStyle(bg), cl = getComputedStyle(line);
    const tile = document.createElement('canvas');
    tile.width = 12; tile.height = 12;     // 6 tree units, at twice the detail
    const c = tile.getContext('2d');
    c.scale(2, 2);
    c.fillStyle = cb.fill === 'none' ? 'transparent' : cb.fill;
    c.fillRect(0, 0, 6, 6);
    c.strokeStyle = cl.stroke;
    c.lineWidth = parseFloat(cl.strokeWidth) || 1;
    c.beginPath();
    c.moveTo(0, 0); c.lineTo(0, 6);
    c.moveTo(6, 0); c.lineTo(6, 6);
    c.stroke();
    hatch = ctx.createPattern(tile, 'repeat');
    hatch.setTransform(new DOMMatrix().rotate(45).scale(0.5));
    return hatch;
  }

  return {
    edge, text, fold, node, warm, hatch: hatchPattern,
    clear() { cache.clear(); hatch = null; },
    destroy() { probe.remove(); },
  };
}
