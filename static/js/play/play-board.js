// A game position drawn as a board (play page): tic-tac-toe as a 3 x 3 grid,
// Connect Four as a rack with a drop button per column, Nim as piles of
// tokens with a button per legal split. `onMove(name)` gets the name of a
// legal move (from position.moves); null draws the board without moves.

import { t } from '../core/i18n.js';

const make = (tag, cls, parent, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
};

export function drawBoard(el, game, pos, onMove) {
  el.className = `board ${game}`;
  el.replaceChildren();
  const legal = new Map(pos.moves.map((m) => [m.name, m]));
  if (game === 'tictactoe') tictactoe(el, pos, legal, onMove);
  else if (game === 'connect4') connect4(el, pos, legal, onMove);
  else nim(el, pos, legal, onMove);
}

function tictactoe(el, pos, legal, onMove) {
  const me = pos.to_move === 'MAX' ? 'X' : 'O';
  [...pos.cells].forEach((c, i) => {
    const b = make('button', c === '.' ? null : `mark-${c.toLowerCase()}`, el, c === '.' ? '' : c);
    b.type = 'button';
    b.dataset.cell = String(i + 1);
    const name = `${me}${i + 1}`;
    const row = Math.floor(i / 3) + 1, col = (i % 3) + 1;
    const mark = c === '.' ? t('empty') : c;   // (its own line: the catalogue's extractor misses a t() inside a t())
    b.setAttribute('aria-label', t('row {row}, column {column}: {mark}', { row, column: col, mark }));
    if (onMove && legal.has(name)) {
      b.dataset.move = name;
      b.addEventListener('click', () => onMove(name));
    } else {
      b.disabled = true;
    }
  });
}

function connect4(el, pos, legal, onMove) {
  const me = pos.to_move === 'MAX' ? 'X' : 'O';
  for (let col = 1; col <= 7; col++) {
    const b = make('button', 'drop', el, '▼');
    b.type = 'button';
    b.style.gridColumn = String(col);
    b.setAttribute('aria-label', t('drop in column {column}', { column: col }));
    const name = `${me}${col}`;
    if (onMove && legal.has(name)) {
      b.dataset.move = name;
      b.addEventListener('click', () => onMove(name));
    } else {
      b.disabled = true;
    }
  }
  [...pos.cells].forEach((c, i) => {
    const hole = make('div', `hole${c === '.' ? '' : ` mark-${c.toLowerCase()}`}`, el);
    hole.style.gridRow = String(Math.floor(i / 7) + 2);
    hole.style.gridColumn = String((i % 7) + 1);
  });
}

function nim(el, pos, legal, onMove) {
  const seen = new Set();
  for (const size of pos.piles) {
    const pile = make('div', 'pile', el);
    make('span', 'pile-size', pile, String(size));
    for (let k = 0; k < size; k++) make('span', 'token', pile);
    pile.setAttribute('aria-label', t('one pile of {n}', { n: size }));
    if (seen.has(size)) continue;        // splitting either of two equal piles is one move
    seen.add(size);
    const splits = make('div', 'splits', el);
    for (let part = 1; 2 * part < size; part++) {
      const name = `${size - part}+${part}`;
      if (!legal.has(name)) continue;
      const b = make('button', null, splits, `${size - part} + ${part}`);
      b.type = 'button';
      b.setAttribute('aria-label', t('{heap} split into {big} and {small}', { heap: size, big: size - part, small: part }));
      if (onMove) {
        b.dataset.move = name;
        b.addEventListener('click', () => onMove(name));
      } else {
        b.disabled = true;
      }
    }
  }
}
