// The play page (/play/<game>): the board, the user's moves and the
// computer's answers. The server knows the rules and runs the search
// (POST /api/play, app/games/play.py); this page only draws the position it
// is given and sends the move the user picks from the legal ones it lists.

import { drawBoard } from './play-board.js';
import { show } from '../core/model.js';
import { num, t, pageFetch } from '../core/i18n.js';
import { shortName } from '../core/algorithms.js';

const $ = (sel) => document.querySelector(sel);

function main() {
  const root = $('#play');
  const game = root.dataset.game;
  const start = JSON.parse(root.dataset.start);
  const form = root.querySelector('[data-role=options]');
  const board = root.querySelector('[data-role=board]');
  const turn = root.querySelector('[data-role=turn]');
  const answer = root.querySelector('[data-role=answer]');
  const error = root.querySelector('[data-role=error]');
  const history = root.querySelector('[data-role=history]');
  let pos = start, busy = false;

  function options() {
    const f = new FormData(form);
    const depth = form.elements.depth.disabled ? '' : f.get('depth');
    return { algorithm: f.get('algorithm'), order: f.get('order'), depth: depth ? Number(depth) : null };
  }

  function showError(msg) {
    error.textContent = msg || '';
    error.hidden = !msg;
  }

  function render() {
    drawBoard(board, game, pos, busy ? null : (name) => play(name));
    root.dataset.position = pos.id;
    root.dataset.over = String(pos.over);
    if (pos.over) turn.textContent = t('Game over: {result}.', { result: resultText(pos.result) });
    else if (busy) turn.textContent = t('The computer is thinking…');
    else turn.textContent = t('Your move ({mark}).', { mark: mark(pos) });
    form.querySelector('[data-action=computer-first]').disabled = busy || pos.over;
  }

  function note(text) {
    const li = document.createElement('li');
    li.textContent = text;
    history.appendChild(li);
    history.scrollTop = history.scrollHeight;
  }

  async function send(body) {
    busy = true;
    showError('');
    render();
    try {
      const res = await pageFetch('/api/play', {
        method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ position: pos.id, ...options(), ...body }),
      });
      const out = await res.json().catch(() => ({}));
      if (!res.ok) throw new Error(out.error?.message || `HTTP ${res.status}`);
      if (out.before) note(t('You: {move}', { move: moveText(game, out.before, body.move) }));
      if (out.computer) {
        const c = out.computer;
        note(t('Computer: {move}', { move: moveText(game, null, c.move, c) }));
        showAnswer(c);
      }
      pos = out.position;
    } catch (err) {
      showError(err.message);
    } finally {
      busy = false;
      render();
    }
  }

  function showAnswer(c) {
    const opts = c.options;
    const how = shortName(opts.algorithm) +   // (its record's name, in the page's language)
      (opts.depth != null ? ', ' + t('depth {n}', { n: opts.depth }) : ', ' + t('to the end')) +
      (opts.order !== 'given' ? ', ' + t('{order} order', { order: opts.order }) : '');
    answer.replaceChildren(t('The computer played {move} (value {value}; {how}: {entered} positions entered, {evaluated} evaluated). ', {
      move: moveText(game, null, c.move, c), value: show(c.value), how, entered: num(c.entered), evaluated: num(c.evaluated),
    }));
    const why = document.createElement('a');
    why.href = c.why;
    why.dataset.action = 'why';
    why.textContent = t('Why this move?');
    answer.appendChild(why);
    answer.hidden = false;
  }

  form.addEventListener('submit', (e) => e.preventDefault());
  const play = (name) => { if (!busy && !pos.over) send({ move: name, reply: true }); };
  form.querySelector('[data-action=computer-first]').addEventListener('click', () => {
    if (!busy && !pos.over) send({ reply: true });
  });
  form.querySelector('[data-action=new-game]').addEventListener('click', () => {
    pos = start;
    history.replaceChildren();
    answer.hidden = true;
    showError('');
    render();
  });
  render();
}

/** X or O for the side to move (Nim: MAX or MIN). */
function mark(pos) {
  if (pos.game === 'nim') return pos.to_move;
  return pos.to_move === 'MAX' ? 'X' : 'O';
}

/**
 * A move in words, as the narration says it (app/search/states.py, the same
 * catalogue messages): "X in the centre", "X in column 4", "7 split into 6 and 1".
 */
function moveText(game, before, name, found) {
  if (game === 'nim') {
    const [a, b] = name.split('+').map(Number);
    return t('{heap} split into {big} and {small}', { heap: a + b, big: Math.max(a, b), small: Math.min(a, b) });
  }
  const mark = name[0], at = Number(name.slice(1));
  if (game === 'connect4') return t('{mark} in column {column}', { mark, column: at });
  const places = [t('in the top-left corner'), t('on the top edge'), t('in the top-right corner'),
    t('on the left edge'), t('in the centre'), t('on the right edge'),
    t('in the bottom-left corner'), t('on the bottom edge'), t('in the bottom-right corner')];
  return t('{mark} {places}', { mark, places: places[at - 1] ?? name });
}

/** The server's result ("MAX wins", "MIN wins", "draw") in the page's language. */
function resultText(result) {
  return result === 'MAX wins' ? t('MAX wins') : result === 'MIN wins' ? t('MIN wins')
    : result === 'draw' ? t('a draw') : result;
}

main();
