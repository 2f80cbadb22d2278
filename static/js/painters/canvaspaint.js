// What the canvas painter draws for each item of the tree (an edge, a node
// with its texts and picture, a fold, a horizon fan, the active node's
// ring), on whichever 2D context `surface.ctx` holds at the time: the
// screen's, or the scratch canvas a partial repaint draws on. Looks come
// from canvaslooks.js; positions from the layout (tree.js, labels.js), as
// the SVG painter (treeview.js) puts them.

import { show } from '../core/model.js';
import { shapePath, SHAPE } from '../core/tree.js';
import { picture } from '../core/boards.js';
import { GAP, LINE, SIZES } from '../core/labels.js';
import { foldCount, foldGeometry } from './folds.js';

/**
 * makeItemPainter({looks, marks, surface}) -> {edge, horizon, fold, ring, node}.
 * `marks`: each max^n player's mark (labels.js playerMarks); a node record
 * (`rec`, treecanvas.js) holds the node `n`, its label plan `p` and its state.
 */
export function makeItemPainter({ looks, marks, surface }) {
  function stroke(look, path) {
    const ctx = surface.ctx;
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
    const ctx = surface.ctx;
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
      const m = surface.ctx.measureText('0');
      const up = m.emHeightAscent ?? m.fontBoundingBoxAscent, down = m.emHeightDescent ?? m.fontBoundingBoxDescent;
      off = (up - down) / 2;
      centralOffsets.set(font, off);
    }
    return off;
  }

  function write(look, text, x, y, align = 'center') {
    const ctx = surface.ctx;
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

  function edge(pr, rec, texts) {
    const ctx = surface.ctx;
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

  function horizon(rec) {
    const ctx = surface.ctx;
    const n = rec.n, k = Math.min(n.children.length, 3), y = n.y + SHAPE * 1.1;
    ctx.beginPath();
    for (let i = 0; i < k; i++) {
      const dx = k === 1 ? 0 : (i / (k - 1) - 0.5) * SHAPE * 1.6;
      ctx.moveTo(n.x, y);
      ctx.lineTo(n.x + dx, y + SHAPE * 1.3);
    }
    stroke(looks.edge('horizon'));
  }

  function fold(rec, texts) {
    const ctx = surface.ctx;
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

  function ring(rec) {
    rec.path ??= new Path2D(shapePath(rec.n, SHAPE, rec.n.x, rec.n.y));
    stroke(looks.edge('ring'), rec.path);
  }

  function node(rec, texts, focused) {
    const ctx = surface.ctx;
    const n = rec.n;
    const look = looks.node(n, rec.status, rec.pv, focused);
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
    const ctx = surface.ctx;
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

  return { edge, horizon, fold, ring, node };
}

/** A node some of whose children were cut off has only a bound for a value ("≥3"). */
export function valueText(rec) {
  const v = rec.valueShown === '' ? '' : show(rec.value);
  const role = rec.n.role;
  if (!v || !rec.cutChildren || (role !== 'max' && role !== 'min')) return v;
  return `${role === 'max' ? '≥' : '≤'}${v}`;
}

/** The two strokes across a cut edge, half way down it. */
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
