// The canvas painter's look, read from the page's own CSS: hidden probe
// elements shaped like the SVG painter's nodes, edges and texts, whose
// computed styles (colour, width, dash, font, halo) are cached per kind, so
// the high-contrast theme and presentation mode apply to the canvas unchanged.

const SVGNS = 'http://www.w3.org/2000/svg';

export function svgEl(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

/**
 * makeLooks(svg): cached styles read from probe elements inside `svg` (so
 * the page's rules and custom properties apply as to the SVG painter's
 * nodes). clear() forgets them (the theme changed).
 */
export function makeLooks(svg) {
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
    // The pruned shapes' hatching too: read at the first cut-off's step, its
    // styles would force the page's style in that step's frame.
    hatchPattern(document.createElement('canvas').getContext('2d'));
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
