// How large a value may be written and still stay inside its shape: a
// two-player triangle narrows towards its tip, a chance circle towards its
// rim, a leaf's square is as wide as labels.js made it. The answer is a
// font size in tree units, which the CSS takes as a ceiling (`--fit`: the
// size a mode asks for, or this, whichever is smaller), so a long value or a
// bound ("≤−1") shrinks just enough and a short one keeps the mode's size.
//
// Shapes as tree.js's shapePath draws them (r = SHAPE): a MAX triangle's tip
// 1.1r above the centre, its base 0.825r below and 1.2r either side; MIN the
// same upside down; a value is written 6 units below (MAX) or 5 above (MIN)
// the centre, the middle of its glyphs there (dominant-baseline: central).

import { SHAPE, leafWidth } from '../core/labels.js';

const CAP = 0.36;          // half a digit's height, in em
const ROOM = 0.94;         // of the exact fit: the stroke's inner half and antialiasing
const widths = new Map();
let ctx = null, family = null;

/** The width of `text` in the values' bold type, per px of font size. */
function widthPerPx(text) {
  let w = widths.get(text);
  if (w === undefined) {
    family ??= getComputedStyle(document.documentElement).getPropertyValue('--font').trim() || 'system-ui, sans-serif';
    ctx ??= document.createElement('canvas').getContext('2d');
    if (!ctx) return 0.62 * text.length;
    ctx.font = `700 100px ${family}`;
    w = ctx.measureText(text).width / 100;
    widths.set(text, w);
  }
  return w;
}

/**
 * The largest font size (tree units) at which value `text` stays inside the
 * shape of node `n` (its role: max, min, chance, leaf), or null for a shape
 * that holds no value inside (a max^n player's is written beside it).
 */
export function valueFit(n, text) {
  if (!text) return null;
  const half = widthPerPx(text) / 2;       // half the width per px
  const h = SHAPE * 1.1, slope = (SHAPE * 1.2) / (h * 1.75);   // half-width gained per unit down from the tip
  let f;
  switch (n.role) {
    case 'max':   // tip at -h; glyphs' top at 6 - CAP f: half-width there = slope (6 - CAP f + h)
      f = Math.min((slope * (6 + h)) / (half + slope * CAP), (0.75 * h - 6) / CAP);
      break;
    case 'min':   // tip at +h; glyphs' bottom at -5 + CAP f
      f = Math.min((slope * (5 + h)) / (half + slope * CAP), (0.75 * h - 5) / CAP);
      break;
    case 'chance':   // the glyphs' corners inside the circle
      f = SHAPE / Math.hypot(half, CAP);
      break;
    case 'leaf': {
      const w = leafWidth(n) / 2, s = SHAPE * 0.85;
      f = Math.min(w / half, s / CAP);
      break;
    }
    default:
      return null;
  }
  return Math.max(1, Math.floor(f * ROOM * 10) / 10);
}
