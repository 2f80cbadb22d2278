// Where the labels a node carries go, and how much room they take, so that
// the layout (tree.js) spaces nodes by their labels and not by their shapes
// alone, and the drawing (treeview.js) puts each label exactly there:
//
//   left of an inner node   its name (shortened, full text on hover), or its
//                           game position as a picture (boards.js)
//   right of an inner node  alpha and beta (two lines), or a max^n vector
//   under a leaf            its name, or its position as a picture
//   inside the shape        the value (with a bound mark "≤" / "≥" on a cut node)
//
// Widths are measured once per distinct text on a canvas, in the largest
// font any mode uses (presentation mode), so no mode can overflow them.

import { show } from './model.js';
import { gameOf, pictureSize } from './boards.js';

export const SHAPE = 20;         // half-size of a node shape (tree units)
export const GAP = 7;            // between a shape and the text beside it
export const NAME_MAX = 10;      // characters of a name beside an inner node
export const LEAF_NAME_MAX = 12; // characters of a name under a leaf
export const LINE = 1.2;         // line height of the two bound lines (em)

// Fonts as the CSS sets them at their largest (presentation mode).
const FONTS = {
  name: '600 15px system-ui, sans-serif',
  leafName: 'italic 14px system-ui, sans-serif',
  bounds: '15px ui-monospace, "DejaVu Sans Mono", monospace',
  vector: '700 16px system-ui, sans-serif',
};
export const SIZES = { name: 15, leafName: 14, bounds: 15, vector: 16 };

let ctx2d = null;
const widths = new Map();
/** Width of `text` in font `kind` (tree units). */
export function measure(text, kind) {
  const key = `${kind}\u0000${text}`;
  let w = widths.get(key);
  if (w === undefined) {
    ctx2d ??= document.createElement('canvas').getContext('2d');
    if (ctx2d) {
      ctx2d.font = FONTS[kind];
      w = ctx2d.measureText(text).width;
    } else {
      w = text.length * SIZES[kind] * 0.62;
    }
    widths.set(key, w);
  }
  return w;
}

/** `label` cut to `max` characters with an ellipsis (the full text goes in a <title>). */
export function shorten(label, max) {
  const chars = [...label];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : label;
}

/** Width in tree units a leaf's value needs (vectors of max^n are wide). */
export function leafWidth(n) {
  const text = show(n.value ?? n.eval ?? '');
  return Math.max(2 * SHAPE, 9.5 * text.length + 14);
}

/** Half the width of a node's shape. */
export function halfShape(n) {
  if (n.role === 'leaf') return leafWidth(n) / 2;
  if (n.role === 'chance') return SHAPE;
  return SHAPE * 1.2;
}

/**
 * The label plan of tree `t`: plan.of(n) -> {side, beside, under, half, left,
 * right, above, below}: side (left of the node), beside (right of it) and
 * under (a leaf's) are {text?, full?, pic?, w, h} or null; half is half the
 * shape's width; left, right, above, below how far the node and its labels
 * reach from its centre.
 * `names: false` leaves names out (huge trees).
 */
export function planLabels(t, { names = true } = {}) {
  const game = gameOf(t);
  const twoPlayer = !t.multiplayer;
  // α and β are written beside MAX and MIN nodes: on a chance tree only where
  // its leaf bounds let Star1 keep them.
  const bounds = twoPlayer && (!t.hasChance || t.bounds != null);
  // Every value a bound or v can take is a leaf's value, an eval, or ±∞; under
  // chance nodes also a weighted sum (room for two decimals).
  let widest = t.hasChance && bounds ? '−00.00' : '+∞';
  // Each distinct value written once (111,111 leaves hold about a hundred).
  const seen = new Set();
  const consider = (v) => {
    if (v == null || seen.has(v)) return;
    if (typeof v !== 'object') seen.add(v);
    const s = show(v);
    if (s.length > widest.length) widest = s;
  };
  for (const n of t.nodes) { consider(n.value); consider(n.eval); }
  // A leaf's half width by its value, likewise.
  const halves = new Map();
  const halfOf = (n) => {
    const v = n.role === 'leaf' ? n.value ?? n.eval ?? '' : null;
    if (v === null || typeof v === 'object') return halfShape(n);
    let h = halves.get(v);
    if (h === undefined) halves.set(v, h = halfShape(n));
    return h;
  };
  const boundsW = bounds ? measure(`β = ${widest}`, 'bounds') : 0;
  // max^n writes a node's vector beside it: room for the widest leaf vector.
  let vectorW = 0;
  if (t.multiplayer) {
    for (const n of t.nodes) if (n.role === 'leaf') vectorW = Math.max(vectorW, measure(show(n.value), 'vector'));
  }
  // By the node's place in t.nodes (its `index`), checked: a Map keyed by
  // 111,111 nodes costs the layout more than the plans themselves.
  // (Made by pushing: `new Array(n)` past 100,000 is a dictionary, each look-up a hash.)
  const plans = [], owners = [];
  for (let i = 0; i < t.nodes.length; i++) { plans.push(undefined); owners.push(undefined); }
  const extra = new Map();   // nodes not at their index (none from readTree)
  // A node without a name or picture (a huge tree's) has the plan of every
  // other of its kind and width: one object shared, not 111,111 to collect.
  const shared = {};         // role -> half -> plan

  for (const n of t.nodes) {
    const half = halfOf(n);
    const pic = game ? pictureSize(game, n.label) : null;
    let side = null, under = null, beside = null;
    if (n.role === 'leaf') {
      if (pic) under = { pic: game, ...pic };
      else if (names) {
        const text = shorten(n.label, LEAF_NAME_MAX);
        under = { text, full: n.label, w: measure(text, 'leafName'), h: SIZES.leafName * 1.25 };
      }
    } else {
      if (pic) side = { pic: game, ...pic };
      else if (names) {
        const text = shorten(n.label, NAME_MAX);
        side = { text, full: n.label, w: measure(text, 'name'), h: SIZES.name * 1.25 };
      }
      if (n.role === 'player') {
        beside = { w: vectorW, h: SIZES.vector * 1.25 };
      } else if (bounds && n.role !== 'chance') {
        beside = { w: boundsW, h: SIZES.bounds * (1 + LINE) };
      }
    }
    const kind = side || under ? null : (shared[n.role] ??= new Map());
    let plan = kind?.get(half);
    if (plan) {
      if (owners[n.index] === undefined && t.nodes[n.index] === n) { owners[n.index] = n; plans[n.index] = plan; }
      else extra.set(n, plan);
      continue;
    }
    const leafHalf = n.role === 'leaf' ? SHAPE * 0.85 : SHAPE * 1.1;
    plan = {
      side, under, beside, half,
      left: side ? half + GAP + side.w : half,
      right: beside ? half + GAP + beside.w : half,
      above: Math.max(SHAPE * 1.1, side ? side.h / 2 : 0, beside ? beside.h / 2 : 0),
      below: n.role === 'leaf' && under ? leafHalf + 4 + under.h : Math.max(leafHalf, side ? side.h / 2 : 0),
    };
    kind?.set(half, plan);
    if (owners[n.index] === undefined && t.nodes[n.index] === n) { owners[n.index] = n; plans[n.index] = plan; }
    else extra.set(n, plan);
  }
  const of = (n) => (owners[n.index] === n ? plans[n.index] : extra.get(n));
  return { game, of, boundsW };
}

/**
 * The mark written inside each max^n player's shape, telling the players
 * apart: their initials, or (initials shared, as P1, P2, P3) their short
 * names, or else their numbers.
 */
export function playerMarks(players) {
  const distinct = (xs) => new Set(xs).size === xs.length;
  const initials = players.map((p) => p.slice(0, 1).toUpperCase());
  if (distinct(initials)) return initials;
  if (players.every((p) => p.length <= 2) && distinct(players)) return players;
  return players.map((_, i) => String(i + 1));
}
