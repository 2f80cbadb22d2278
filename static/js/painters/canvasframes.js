// When and where the canvas painter paints: a <canvas> under the page's SVG
// surface, sized by the zoom (zoom.js), painted once per frame at most. A
// pan, a zoom, a resize or a new look paints everything on screen; a step
// changes a few nodes, and its frame paints again only the rectangles they
// cover, with everything that reaches into them, in the same order as a
// whole paint, so the compositor gets a small damaged area. Those are drawn
// on a scratch canvas, unclipped, and copied over: under a clip the
// rasteriser samples thin lines differently, and the pixels must be those
// of a whole paint.

export const FAR = 0.45;          // zoom below which text is not drawn (zoom.js: lod-far)
export const EDGE_REACH = 24;     // tree units an edge paints beyond its ends' box (cut marks, width)
export const PROB_REACH = 90;     // ... with a probability written beside it
const MAX_DIRTY = 64;             // rectangles a frame repaints one by one; more: the whole canvas

/**
 * makeFrames({svg, zoom, surface, paintItems}) -> {canvas, resize, paint,
 * invalidate, touch, paints, destroy}. `paintItems(inside, reach, texts, spans)`
 * paints, on `surface.ctx`, the items whose boxes (tree units) `inside`
 * accepts (`spans`: x ranges holding all those boxes, a hint); `surface.ctx` is set here to the screen's context or, during a
 * partial paint, the scratch canvas's.
 */
export function makeFrames({ svg, zoom, surface, paintItems }) {
  const canvas = document.createElement('canvas');
  canvas.className = 'tree-canvas';
  canvas.setAttribute('aria-hidden', 'true');
  canvas.style.cssText = 'position:absolute;left:0;top:0;pointer-events:none;';
  svg.after(canvas);
  // Opaque on the page's own paper where the page behind it is opaque: the
  // compositor then draws the canvas without blending it over what is
  // under it (a step's frame costs ~0.6 ms less to draw in software).
  let paper = backdropOf(canvas.parentElement);
  const screenCtx = canvas.getContext('2d', { alpha: !paper });
  surface.ctx = screenCtx;
  let scratch = null;
  let width = 0, height = 0, dpr = 1;
  let raf = 0;
  let whole = true;               // the next frame paints everything
  const dirty = [];               // else the boxes (tree units) it paints again
  let painted = null;             // the zoom and size of the last whole paint
  const paints = { whole: 0, partial: 0 };

  // The drawing area's size is the zoom's (kept by its ResizeObserver): one
  // source, so that a fit and a repaint never disagree on it. `now`: paint
  // at once (a resize clears the canvas); the first sizing leaves it to the
  // next frame, by which the page has fitted the zoom (one whole paint of a
  // 111,111-node tree at open, not two).
  function resize(size, now = true) {
    const r = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(size.width * r)), h = Math.max(1, Math.round(size.height * r));
    // The same size again (the observer's first report): a canvas given its
    // own size is cleared, and would be painted whole for nothing.
    if (width === size.width && height === size.height && dpr === r && canvas.width === w && canvas.height === h) {
      paint(false);
      return;
    }
    width = size.width; height = size.height;
    dpr = r;
    canvas.width = w;
    canvas.height = h;
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    if (now) paint(); else invalidate();
  }
  // A zoom or pan: everything again, unless this frame's paint already
  // showed the zoom as it now is.
  const unlisten = zoom?.listen?.((z) => (z.resized ? resize(z) : paint(false)));

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
    const ctx = screenCtx;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ground(ctx, 0, 0, canvas.width, canvas.height);
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
    for (const [a, b, c, d] of rects) ground(sc, a, b, c - a, d - b);
    sc.setTransform(s, 0, 0, s, ox, oy);
    surface.ctx = sc;
    try {
      paintItems(inside, EDGE_REACH, k >= FAR, boxes.map((q) => [q[0], q[2]]));
    } finally {
      surface.ctx = screenCtx;
    }
    screenCtx.setTransform(1, 0, 0, 1, 0, 0);
    for (const [a, b, c, d] of rects) {
      if (!paper) screenCtx.clearRect(a, b, c - a, d - b);   // (on paper the copy is opaque: it replaces)
      screenCtx.drawImage(scratch, a, b, c - a, d - b, a, b, c - a, d - b);
    }
  }

  /** Clear a rectangle (device pixels) to what a whole paint starts from: the paper, or nothing. */
  function ground(ctx, x, y, w, h) {
    if (!paper) { ctx.clearRect(x, y, w, h); return; }
    ctx.save();
    ctx.fillStyle = paper;
    ctx.fillRect(x, y, w, h);
    ctx.restore();
  }

  /** The theme changed: the paper's colour again (an opaque canvas stays opaque), all painted anew. */
  function repaper() {
    if (paper) paper = backdropOf(canvas.parentElement) || paper;
    invalidate();
  }

  function destroy() {
    if (raf) cancelAnimationFrame(raf);
    unlisten?.();
    canvas.remove();
    scratch = null;
  }

  return { canvas, resize, paint, invalidate, repaper, touch, paints, destroy };
}

/**
 * The colour of the first background behind `el` (itself, then its
 * ancestors) if it is opaque; null if none is, or one is translucent
 * (what is behind it would show through the canvas).
 */
export function backdropOf(el) {
  for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
    const c = getComputedStyle(e).backgroundColor;
    const m = /^rgba?\(([^)]*)\)$/.exec(c);
    if (!m) return null;   // (another colour syntax: not told apart here)
    const parts = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    const alpha = parts.length > 3 ? parts[3] : 1;
    if (alpha >= 1) return c;
    if (alpha > 0) return null;
  }
  return null;
}
