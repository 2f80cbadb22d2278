// Zoom and pan for an SVG: wheel zooms about the pointer, a drag pans, two
// fingers pinch. The transform lives on one <g>, so the tree is never redrawn.

const MIN_K = 0.02, MAX_K = 8;
const FAR = 0.45;   // below this scale, small text is hidden (class lod-far)

/**
 * makeZoom(svg, viewport, {onChange}) -> {fit, ensureVisible, zoomBy, get, listen}.
 * `viewport` is the <g> carrying the transform. listen(fn) adds a listener
 * called with {k, x, y, width, height} in the frame that shows a change, and
 * with `resized: true` when the SVG's size changes (the canvas painter
 * follows both); it returns the function that removes it. `size` is the
 * SVG's size as last observed.
 */
export function makeZoom(svg, viewport, options = {}) {
  let k = 1, x = 0, y = 0;
  let box = null;            // content bounds, for fit()
  const pointers = new Map();
  let pinch = null;
  let raf = 0;
  const listeners = new Set();
  let moved = false;         // has the user zoomed or panned by hand?
  let whole = false;         // does the last fit show all of the content?
  // The SVG's size, kept by a ResizeObserver: reading it from layout after a
  // step has changed the tree would force a style and layout pass in the
  // middle of the step (ensureVisible runs at every step).
  let width = 0, height = 0;
  const measure = () => {
    const r = svg.getBoundingClientRect();
    width = r.width; height = r.height;
  };
  new ResizeObserver((entries) => {
    const box = entries[entries.length - 1].contentRect;
    width = box.width; height = box.height;
    for (const fn of listeners) fn({ k, x, y, width, height, resized: true });
  }).observe(svg);

  function apply() {
    svg.classList.toggle('lod-far', k < FAR);
    if (raf) return;
    // One transform write per frame, however many wheel events arrive.
    raf = requestAnimationFrame(() => {
      raf = 0;
      viewport.setAttribute('transform', `translate(${x},${y}) scale(${k})`);
      options.onChange?.({ k, x, y });
      for (const fn of listeners) fn({ k, x, y, width, height });
    });
  }

  function set(nk, nx, ny) {
    k = Math.min(MAX_K, Math.max(MIN_K, nk));
    x = nx; y = ny;
    apply();
  }

  /** Zoom by factor f about the point (px, py) in screen coordinates. */
  function zoomBy(f, px, py) {
    moved = true;
    const r = svg.getBoundingClientRect();
    if (px === undefined) { px = r.width / 2; py = r.height / 2; }
    const nk = Math.min(MAX_K, Math.max(MIN_K, k * f));
    set(nk, px - ((px - x) * nk) / k, py - ((py - y) * nk) / k);
  }

  /**
   * Fit the box {x0, y0, x1, y1} (content coordinates) in the SVG. A huge
   * tree is not shrunk below `minK`; it is then shown from the top instead.
   * `top`: pixels at the SVG's top the tree keeps clear (buttons lying over it).
   */
  function fit(b = box, { minK = 0, maxK = 2, top = 0 } = {}) {
    box = b;
    moved = false;
    // The size the ResizeObserver keeps: measuring here would force a style
    // and layout pass right after the caller redrew the tree (the editor
    // fits after every edit that changes the tree's shape).
    if (width === 0) measure();
    if (!b || width === 0) return;
    const pad = Math.min(24, Math.max(6, Math.min(width, height) * 0.03));
    const h = Math.max(height - top, height / 2);
    top = height - h;
    let nk = Math.min((width - 2 * pad) / (b.x1 - b.x0), (h - 2 * pad) / (b.y1 - b.y0));
    whole = nk >= minK;
    nk = Math.min(maxK, Math.max(minK, nk));
    const cx = (b.x0 + b.x1) / 2;
    const y = nk * (b.y1 - b.y0) > h ? top + pad - nk * b.y0 : top + (h - nk * (b.y0 + b.y1)) / 2;
    set(nk, width / 2 - nk * cx, y);
  }

  /**
   * Show content point (cx, cy) at screen point (sx, sy) (default: the
   * centre) at scale `nk`, as a view the user has not moved: a window on a
   * tree too big to read whole (a phone following the search).
   */
  function show(cx, cy, nk, sx, sy) {
    moved = false;
    whole = false;
    measure();
    nk = Math.min(MAX_K, Math.max(MIN_K, nk));
    set(nk, (sx ?? width / 2) - nk * cx, (sy ?? height / 2) - nk * cy);
  }

  /** Pan (without zooming) so that content point (cx, cy) is on screen. */
  function ensureVisible(cx, cy, margin = 60) {
    // A fitted tree shows every node already: panning would only cut it off.
    if (!moved && whole) return;
    if (width === 0) measure();
    const sx = x + k * cx, sy = y + k * cy;
    if (sx > margin && sx < width - margin && sy > margin && sy < height - margin) return;
    let nx = x, ny = y;
    if (sx <= margin || sx >= width - margin) nx = width / 2 - k * cx;
    if (sy <= margin || sy >= height - margin) ny = height / 2 - k * cy;
    set(k, nx, ny);
  }

  svg.addEventListener('wheel', (e) => {
    e.preventDefault();
    moved = true;
    const r = svg.getBoundingClientRect();
    // Trackpad pinch arrives as ctrl+wheel with small deltas.
    const f = Math.exp(-e.deltaY * (e.ctrlKey ? 0.01 : 0.0015));
    zoomBy(f, e.clientX - r.left, e.clientY - r.top);
  }, { passive: false });

  svg.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    svg.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    svg.classList.add('panning');
    if (pointers.size === 2) pinch = spread();
  });

  svg.addEventListener('pointermove', (e) => {
    const p = pointers.get(e.pointerId);
    if (!p) return;
    if (pointers.size === 1) {
      if (e.clientX !== p.x || e.clientY !== p.y) moved = true;
      set(k, x + e.clientX - p.x, y + e.clientY - p.y);
    }
    p.x = e.clientX; p.y = e.clientY;
    if (pointers.size === 2 && pinch) {
      const now = spread();
      const r = svg.getBoundingClientRect();
      zoomBy(now.d / pinch.d, now.cx - r.left, now.cy - r.top);
      pinch = now;
    }
  });

  const up = (e) => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (pointers.size === 0) svg.classList.remove('panning');
  };
  svg.addEventListener('pointerup', up);
  svg.addEventListener('pointercancel', up);

  function spread() {
    const [a, b] = [...pointers.values()];
    return { d: Math.hypot(a.x - b.x, a.y - b.y) || 1, cx: (a.x + b.x) / 2, cy: (a.y + b.y) / 2 };
  }

  function listen(fn) {
    listeners.add(fn);
    return () => listeners.delete(fn);
  }

  return { fit, show, ensureVisible, zoomBy, listen, get: () => ({ k, x, y }), get moved() { return moved; },
    get size() { if (width === 0) measure(); return { width, height }; } };
}

/**
 * Keep the SVG sized in pixels, following the stage. Sized in percent, the
 * SVG was laid out again, and all of the tree walked for paint, whenever
 * anything on the page changed size (the step counter, a narration line):
 * 2 ms a step on a 1,000-node tree.
 */
export function pixelSize(svg, stage) {
  const set = (w, h) => {
    svg.style.width = `${w}px`;
    svg.style.height = `${h}px`;
  };
  const r = stage.getBoundingClientRect();
  set(r.width, r.height);
  new ResizeObserver((entries) => {
    const box = entries[entries.length - 1].contentRect;
    set(box.width, box.height);
  }).observe(stage);
}
