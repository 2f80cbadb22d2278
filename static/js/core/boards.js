// Game positions drawn as pictures, keyed on a node's label alone: a
// tic-tac-toe board ("X··/·O·/···", rows split by "/") as a small grid with
// X and O, a Connect Four rack (six rows of seven, the top row first) as a
// grid of discs, a Nim position ("4-2-1", a repeat "4-2-1#2") as piles of tokens.
// The same reading as app/search/states.py (the narration's words) and
// app/render/boards.py (the exported pictures), so a tree grown lazily from a
// game's rules gets the same pictures as a file of the library.
//
//   gameOf(tree)               -> 'tictactoe' | 'connect4' | 'nim' | null
//   pictureSize(kind, label)   -> {w, h} in tree units, or null (no picture)
//   picture(kind, label, x, y)  -> {frame, parts} (geometry, for either painter)
//   drawPicture(parent, kind, label, x, y) -> <g class="pic"> centred on (x, y)

const SVG = 'http://www.w3.org/2000/svg';
const BOARD = /^([XO·.]{3})\/([XO·.]{3})\/([XO·.]{3})$/;
const RACK = /^(?:[XO·.]{7}\/){5}[XO·.]{7}$/;
const PILES = /^(\d{1,3}(?:-\d{1,3})*)(?:#\d+)?$/;

export const CELL = 11;          // a board cell (tree units)
export const TOKEN = 6;          // a Nim token's pitch (tree units)
export const SLOT = 8;           // a Connect Four cell (tree units): a disc reads on a projector (issue 26)

/** The nine cells ('X', 'O' or '.') of a board label, or null. */
export function board(label) {
  const m = BOARD.exec(label || '');
  return m ? [...m.slice(1).join('')].map((c) => (c === '·' ? '.' : c)) : null;
}

/** The 42 cells ('X', 'O' or '.', the top row first) of a Connect Four label, or null. */
export function rack(label) {
  if (!RACK.test(label || '')) return null;
  return [...label.replaceAll('/', '')].map((c) => (c === '·' ? '.' : c));
}

/** The piles of a Nim label, or null. */
export function piles(label) {
  const m = PILES.exec(label || '');
  if (!m) return null;
  const out = m[1].split('-').map(Number);
  return out.every((p) => p > 0) ? out : null;
}

/**
 * Which game a tree's labels show. A board cannot be mistaken for anything
 * else; a Nim label is just numbers, so the root's children must be one
 * split on (one more pile, the same number of tokens).
 */
export function gameOf(t) {
  const root = t.root;
  if (board(root.label)) return 'tictactoe';
  if (rack(root.label)) return 'connect4';
  const top = piles(root.label);
  if (!top || !root.children.length) return null;
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  const ok = root.children.every((c) => {
    const p = piles(c.label);
    return p && p.length === top.length + 1 && sum(p) === sum(top);
  });
  return ok ? 'nim' : null;
}

/** The picture's size for a label ({w, h}, tree units), or null. */
export function pictureSize(kind, label) {
  if (kind === 'tictactoe' && board(label)) return { w: 3 * CELL, h: 3 * CELL };
  if (kind === 'connect4' && rack(label)) return { w: 7 * SLOT, h: 6 * SLOT };
  if (kind === 'nim') {
    const p = piles(label);
    if (p) return { w: p.length * TOKEN + 2, h: Math.max(...p) * TOKEN + 2 };
  }
  return null;
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  parent?.appendChild(e);
  return e;
}

/**
 * The picture of `label` centred on (x, y) as plain geometry, for either
 * painter (the SVG one, treeview.js, and the canvas one, treecanvas.js):
 * {frame: {x, y, w, h}, parts: [[class, path d], ...]} in drawing order,
 * or null. Each part's look is its CSS class (pic-grid, pic-x, ...).
 */
export function picture(kind, label, x, y) {
  const size = pictureSize(kind, label);
  if (!size) return null;
  const x0 = x - size.w / 2, y0 = y - size.h / 2;
  const frame = { x: x0, y: y0, w: size.w, h: size.h };
  if (kind === 'tictactoe') {
    const cells = board(label);
    let grid = '', xs = '', os = '';
    for (let i = 1; i < 3; i++) {
      grid += `M${x0 + i * CELL},${y0}v${3 * CELL}M${x0},${y0 + i * CELL}h${3 * CELL}`;
    }
    cells.forEach((c, i) => {
      const cx = x0 + (i % 3) * CELL + CELL / 2, cy = y0 + Math.floor(i / 3) * CELL + CELL / 2;
      const r = CELL * 0.3;
      if (c === 'X') xs += `M${cx - r},${cy - r}L${cx + r},${cy + r}M${cx + r},${cy - r}L${cx - r},${cy + r}`;
      if (c === 'O') os += `M${cx - r},${cy}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;
    });
    const parts = [['pic-grid', grid]];
    if (xs) parts.push(['pic-x', xs]);
    if (os) parts.push(['pic-o', os]);
    return { frame, parts };
  }
  if (kind === 'connect4') {
    // Discs in their slots: X filled (pic-x), O a ring (pic-o), as on the board.
    let xs = '', os = '';
    const r = SLOT * 0.42;
    rack(label).forEach((c, i) => {
      if (c === '.') return;
      const cx = x0 + (i % 7) * SLOT + SLOT / 2, cy = y0 + Math.floor(i / 7) * SLOT + SLOT / 2;
      const d = `M${cx - r},${cy}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;
      if (c === 'X') xs += d; else os += d;
    });
    const grid = `M${x0},${y0 + 6 * SLOT}h${7 * SLOT}`;
    const parts = [['pic-grid', grid]];
    if (xs) parts.push(['pic-x pic-disc', xs]);
    if (os) parts.push(['pic-o', os]);
    return { frame, parts };
  }
  // Piles stand on one base line, largest first, one token per circle.
  const base = y0 + size.h - 1;
  let d = '';
  piles(label).forEach((count, i) => {
    const cx = x0 + 1 + i * TOKEN + TOKEN / 2, r = TOKEN * 0.4;
    for (let k = 0; k < count; k++) {
      const cy = base - k * TOKEN - TOKEN / 2;
      d += `M${cx - r},${cy}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;
    }
  });
  return { frame, parts: [['pic-tokens', d]] };
}

/** Draw the picture of `label` centred on (x, y) into `parent`; returns the <g>. */
export function drawPicture(parent, kind, label, x, y) {
  const pic = picture(kind, label, x, y);
  if (!pic) return null;
  const g = el('g', { class: `pic pic-${kind} lbl` }, parent);
  const { x: fx, y: fy, w, h } = pic.frame;
  el('rect', { class: 'pic-frame', x: fx, y: fy, width: w, height: h }, g);
  for (const [cls, d] of pic.parts) el('path', { class: cls, d }, g);
  el('title', {}, g).textContent = label;
  return g;
}
