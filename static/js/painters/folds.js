// A game's subtree the server left out (app.games.lazy, `collapsed` with its
// size), drawn under its node as a triangle with the number of nodes it
// holds: the geometry, the count and the title both painters share.

import { num, t } from '../core/i18n.js';
import { SHAPE } from '../core/labels.js';

/** The triangle under node `n`: its top (y), half width and height (tree units). */
export function foldGeometry(n) {
  return { y: n.y + SHAPE * 1.1, w: SHAPE * 1.3, h: SHAPE * 1.6 };
}

/** The count written in the triangle: "840", "55k", "1.2M", or "…" when unknown. */
export function foldCount(size) {
  return size == null ? '…' : size >= 1e6 ? `${Math.round(size / 1e5) / 10}M`
    : size >= 1e4 ? `${Math.round(size / 1e3)}k` : String(size);
}

/** What hovering the triangle says, in the page's language. */
export function foldTitle(size) {
  return size == null ? t('A subtree too big to count: click to open it')
    : t('{n} nodes below: click to open them', { n: num(size) });
}
