// [mcts] A game's move in words, as app/search/states.py move_words says it
// ("X in column 4", "O in the top-right corner to block"), with the same
// catalogue messages: Monte Carlo tree search's records give a tic-tac-toe or
// Connect Four playout as its moves' names (X5, O1, ...) and the page says its
// first moves itself (narrate-mcts.js), replaying them on the position the
// playout starts from. tests/js/test_move_words.py holds these to Python's
// words on random positions, English and Bahasa Indonesia. DOM-free.
//
//   moveWords('tictactoe', 'XX·/·O·/···', 'XXO/·O·/···', say)  // 'O in the top-right corner to block'
//   playoutWords('connect4', label, ['X4', 'O4'], say)         // ['X in column 4', 'O in column 4']

const AT_PLACES = ['in the top-left corner', 'on the top edge', 'in the top-right corner',
  'on the left edge', 'in the centre', 'on the right edge',
  'in the bottom-left corner', 'on the bottom edge', 'in the bottom-right corner'];
/** (states.AT_PLACES: cells 1-9 row by row, with their preposition; message ids) */

const BOARD = /^([XO·.]{3})\/([XO·.]{3})\/([XO·.]{3})$/;
const RACK = /^(?:[XO·.]{7}\/){5}[XO·.]{7}$/;

/** The lines through each cell (states._AT3, _AT4): a move's aim reads only those. */
function linesAt(lines, size) {
  const at = Array.from({ length: size }, () => []);
  for (const line of lines) for (const i of line) at[i].push(line);
  return at;
}
const LINES3 = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
const LINES4 = [];
for (let r = 0; r < 6; r++) {
  for (let c = 0; c < 7; c++) {
    for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
      const r3 = r + 3 * dr, c3 = c + 3 * dc;
      if (r3 >= 0 && r3 < 6 && c3 >= 0 && c3 < 7) {
        LINES4.push([0, 1, 2, 3].map((k) => (r + k * dr) * 7 + c + k * dc));
      }
    }
  }
}
const AT = { tictactoe: linesAt(LINES3, 9), connect4: linesAt(LINES4, 42) };

/** A label's cells ('X', 'O' or '.'; a rack's top row first), or null (states.board, rack). */
function cellsOf(kind, label) {
  const ok = kind === 'tictactoe' ? BOARD.test(label ?? '') : kind === 'connect4' && RACK.test(label ?? '');
  if (!ok) return null;
  const out = [];
  for (const ch of label) if (ch !== '/') out.push(ch === '·' ? '.' : ch);
  return out;
}

/** states._aim: 'win' (the mark completes a line of its own), 'block' (the other side had the rest of one), else null. */
function aim(cells, cell, mark, at) {
  const other = mark === 'X' ? 'O' : 'X';
  let block = false;
  for (const line of at[cell]) {
    let mine = true, theirs = true;
    for (const j of line) {
      if (j === cell) continue;
      if (cells[j] !== mark) mine = false;
      if (cells[j] !== other) theirs = false;
    }
    if (mine) return 'win';
    block = block || theirs;
  }
  return block ? 'block' : null;
}

/** `mark` put on `cell` of `cells` (the position before it), in words. */
function said(kind, cells, cell, mark, say) {
  const move = kind === 'tictactoe'
    ? say('{mark} {places}', { mark, places: say(AT_PLACES[cell]) })
    : say('{mark} in column {column}', { mark, column: cell % 7 + 1 });
  const a = aim(cells, cell, mark, AT[kind]);
  if (a === 'win') return say('{move} to win', { move });
  if (a === 'block') return say('{move} to block', { move });
  return move;
}

/** states.move_words for tic-tac-toe and Connect Four: the move from label `parent`
 * to `child` in words, or null when it cannot be read. */
export function moveWords(kind, parent, child, say) {
  const a = cellsOf(kind, parent), b = cellsOf(kind, child);
  if (!a || !b) return null;
  const fresh = [];
  for (let i = 0; i < a.length; i++) if (a[i] === '.' && b[i] !== '.') fresh.push(i);
  if (fresh.length !== 1) return null;
  return said(kind, a, fresh[0], b[fresh[0]], say);
}

/** narrate_mcts.playout_words for a game whose rules name moves: the moves `names`
 * (X5, O1: the cell 1-9, or the column 1-7) played in turn from position `label`,
 * in words; a move that cannot be read keeps its name. */
export function playoutWords(kind, label, names, say) {
  const cells = cellsOf(kind, label);
  return names.map((name) => {
    const mark = name[0], n = Number(name.slice(1)) - 1;
    let cell = -1;
    if (cells && kind === 'tictactoe') {
      cell = n >= 0 && n < 9 && cells[n] === '.' ? n : -1;
    } else if (cells && n >= 0 && n < 7) {   // Connect Four: the column's lowest empty cell
      for (let r = 5; r >= 0 && cell < 0; r--) if (cells[r * 7 + n] === '.') cell = r * 7 + n;
    }
    if (cell < 0 || (mark !== 'X' && mark !== 'O')) return name;
    const words = said(kind, cells, cell, mark, say);
    cells[cell] = mark;
    return words;
  });
}
