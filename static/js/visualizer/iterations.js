// Iterative deepening as a small table: each iteration's depth, best move and
// value (filled in once the step on screen has reached its end), and a button
// that jumps to the end of that iteration, streaming to it if need be.

import { show } from '../core/model.js';
import { t } from '../core/i18n.js';
import { repeats } from '../core/algorithms.js';
import { moveLabel } from '../core/tree.js';
import { setHidden } from './panels.js';

function h(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

/** makeIterations(section, session, tree) -> update(): call at every step. */
export function makeIterations(section, session, tree) {
  const tbody = section.querySelector('tbody');
  let depths = null, rows = [];

  function build(max) {
    depths = max;
    rows = [];
    const trs = [];
    for (let d = 1; d <= max; d++) {
      const tr = h('tr');
      const jump = h('button', 'jump', t('Go'));
      jump.type = 'button';
      jump.dataset.iteration = String(d);
      jump.setAttribute('aria-label', t('Jump to the end of iteration {depth}', { depth: d }));
      jump.addEventListener('click', () => session.seek(
        (ev) => ev.type === 'iteration' && ev.depth === d && ev.value !== undefined, { from: 0 }));
      const cells = [h('td', null, String(d)), h('td', null, '—'), h('td', null, '—'), h('td')];
      cells[3].appendChild(jump);
      tr.append(...cells);
      rows.push(cells);
      trs.push(tr);
    }
    tbody.replaceChildren(...trs);
  }

  return function update() {
    const { run, params } = session;
    const on = repeats(params.algorithm);
    setHidden(section, !on);
    if (!on || !run) return;
    const max = params.depth ?? tree.height;
    if (max !== depths) build(max);
    // Results of the iterations finished at or before the step on screen.
    const known = new Map();
    let current = null;
    for (let k = run.low; k < run.step && k < run.fetched; k++) {
      const ev = run.events[k];
      if (ev.type !== 'iteration') continue;
      current = ev.depth;
      if (ev.value !== undefined) known.set(ev.depth, ev);
    }
    rows.forEach((cells, i) => {
      const ev = known.get(i + 1);
      const best = ev ? tree.byId.get(ev.best_move) : null;
      const move = best ? moveLabel(tree, best) : (ev?.best_move ?? '—');
      const value = ev ? show(ev.value) : '—';
      if (cells[1].textContent !== move) cells[1].textContent = move;
      if (cells[2].textContent !== value) cells[2].textContent = value;
      cells[0].parentElement.classList.toggle('current', current === i + 1);
    });
  };
}
