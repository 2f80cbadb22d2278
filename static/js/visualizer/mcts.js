// [mcts] The Monte Carlo tree search panel of the visualizer: the UCB1
// numbers selection compared at this step, the playout, a chart of the
// root's children's visits over the iterations so far, and alpha-beta's
// answer on the same position beside the most visited move. Everything
// is read from the run's events (app/search/narrate_mcts.py); nothing is
// searched here but alpha-beta's answer, asked of the server once.

import { t, pageFetch } from '../core/i18n.js';
import { show } from '../core/model.js';
import { panelOf } from '../core/algorithms.js';
import { moveLabel } from '../core/tree.js';
import { setHidden } from './panels.js';

const NS = 'http://www.w3.org/2000/svg';
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf', '#7f7f7f'];
const BACK = 400;   // how far back the panel looks for the last selection

/**
 * makeMctsPanel(section, session, tree, {treeId}) -> update(). A node is
 * named by its label, a game's move in words as the sentences say it (the
 * tree's `moves`, the events' `move` and `moves`; its name, X5, only past
 * what the page has words for). Also marks the iteration's phase in the
 * strip over the tree ([data-mcts-phases]).
 */
export function makeMctsPanel(section, session, tree, { treeId }) {
  const table = section.querySelector('[data-mcts="ucb"] tbody');
  const caption = section.querySelector('[data-mcts="ucb-caption"]');
  const playout = section.querySelector('[data-mcts="playout"]');
  const chart = section.querySelector('[data-mcts="chart"]');
  const legend = section.querySelector('[data-mcts="legend"]');
  const versus = section.querySelector('[data-mcts="versus"]');
  let answer = null, answerKey = null;   // alpha-beta's {best_move, value, depth}
  let curve = { run: null, step: 0, k: 0, rows: new Map(), series: [] };

  const phases = document.querySelector('[data-mcts-phases]');
  const label = (id) => {
    const n = tree.byId.get(id);
    if (n && tree.game) return moveLabel(tree, n);
    return tree.game || !n ? String(id).split('-').pop() : n.label;
  };

  /** The last select event at or before step k (within BACK events). */
  function lastSelect(run, k) {
    for (let i = k - 1; i >= Math.max(run.low ?? 0, k - BACK); i--) {
      const ev = run.events[i];
      if (!ev) break;
      if (ev.type === 'select') return ev;
      if (ev.type === 'backpropagate' && i < k - 1) return null;   // a finished iteration: none pending
    }
    return null;
  }

  function ucbTable(ev) {
    table.replaceChildren();
    if (!ev) {
      caption.textContent = t('No selection at this step: selection compares UCB1 only where every child has been tried.');
      return;
    }
    caption.textContent = t('{node}: UCB1 = exploit + C × √(ln N / n), N = {visits}, C = {c}',
      { node: label(ev.parent), visits: ev.parent_visits, c: show(ev.exploration) });
    for (const r of ev.children) {
      const tr = document.createElement('tr');
      if (r.id === ev.node) tr.className = 'chosen';
      tr.dataset.child = r.id;
      for (const x of [r.move ?? label(r.id), r.visits, show(r.mean), show(r.exploit), show(r.explore), show(r.ucb)]) {
        const td = document.createElement('td');
        td.textContent = String(x);
        tr.appendChild(td);
      }
      table.appendChild(tr);
    }
  }

  /** Each root child's visits after each iteration, up to step k (incremental going forward). */
  function series(run, k) {
    if (curve.run === run && k < curve.step && k >= (run.low ?? 0)) {
      // Back: drop the iterations finished after step k (each ends with one back-propagation).
      for (let i = k; i < curve.step; i++) if (run.events[i]?.type === 'backpropagate') curve.series.pop();
      const last = curve.series[curve.series.length - 1];
      curve.rows = new Map(last || []);
      curve.k = curve.series.length;
      curve.step = k;
      return curve;
    }
    if (curve.run !== run || k < curve.step || (run.low ?? 0) > curve.step) {
      curve = { run, step: run.low ?? 0, k: 0, rows: new Map(), series: [] };
    }
    for (let i = curve.step; i < k; i++) {
      const ev = run.events[i];
      if (!ev || ev.type !== 'backpropagate') continue;
      curve.k = ev.iteration;
      const child = ev.path.length >= 2 ? ev.path[ev.path.length - 2] : null;
      if (child != null) curve.rows.set(child, (curve.rows.get(child) || 0) + 1);
      curve.series.push(new Map(curve.rows));
    }
    curve.step = k;
    return curve;
  }

  function drawChart(c) {
    chart.replaceChildren();
    legend.replaceChildren();
    const W = 300, H = 140, P = 24;
    chart.setAttribute('viewBox', `0 0 ${W} ${H}`);
    const n = c.series.length;
    const ids = [...c.rows.keys()];
    const top = Math.max(1, ...c.rows.values());
    const axis = document.createElementNS(NS, 'path');
    axis.setAttribute('d', `M${P},4V${H - P}H${W - 4}`);
    axis.setAttribute('class', 'axis');
    chart.appendChild(axis);
    for (const [x, y, s, anchor] of [[P - 3, 10, String(top), 'end'], [P - 3, H - P, '0', 'end'],
      [W - 4, H - P + 14, String(c.k), 'end'], [P, H - P + 14, t('iterations'), 'start']]) {
      const tx = document.createElementNS(NS, 'text');
      tx.setAttribute('x', x); tx.setAttribute('y', y);
      tx.setAttribute('text-anchor', anchor);
      tx.textContent = s;
      chart.appendChild(tx);
    }
    ids.forEach((id, j) => {
      const colour = COLOURS[j % COLOURS.length];
      if (n > 0) {
        // At most ~300 points a line (a long run's iterations sampled evenly, the last one kept).
        const stride = Math.max(1, Math.ceil(n / 300));
        const pts = [];
        for (let i = 0; i < n; i += stride) pts.push(point(i));
        if ((n - 1) % stride) pts.push(point(n - 1));
        function point(i) {
          return `${(P + (W - 4 - P) * (n === 1 ? 1 : i / (n - 1))).toFixed(1)},`
            + `${(H - P - (H - P - 4) * (c.series[i].get(id) || 0) / top).toFixed(1)}`;
        }
        const line = document.createElementNS(NS, 'polyline');
        line.setAttribute('points', pts.join(' '));
        line.setAttribute('stroke', colour);
        line.setAttribute('data-child', id);
        chart.appendChild(line);
      }
      const li = document.createElement('li');
      li.style.setProperty('--c', colour);
      li.dataset.child = id;
      li.dataset.visits = String(c.rows.get(id) || 0);
      li.textContent = `${label(id)}: ${c.rows.get(id) || 0}`;
      legend.appendChild(li);
    });
  }

  async function alphaBeta(params) {
    const depth = params.depth ?? (tree.game ? tree.depth : null);
    const key = `${treeId}|${depth}`;
    if (answerKey === key) return;
    answerKey = key;
    answer = null;
    const q = new URLSearchParams({ algorithm: 'alphabeta' });
    if (depth != null) q.set('depth', depth);
    try {
      const r = await pageFetch(`/api/trees/${encodeURIComponent(treeId)}/trace?${q}`);
      const body = await r.json();
      if (!r.ok) throw new Error(body?.error?.message || r.statusText);
      const done = body.events[body.events.length - 1];
      if (answerKey === key) answer = { best: done.best_move, value: done.value, depth };
    } catch (err) {
      if (answerKey === key) answer = { error: err.message };
    }
    update();
  }

  function compare(c) {
    let most = null, mostN = -1;
    for (const [id, v] of c.rows) if (v > mostN) { most = id; mostN = v; }
    const parts = [];
    parts.push(most == null ? t('MCTS: no move tried yet.')
      : t('MCTS: most visited {move} ({visits} of {n}).', { move: label(most), visits: mostN, n: c.k }));
    if (!answer) parts.push(t('Alpha-beta: …'));
    else if (answer.error) parts.push(t('Alpha-beta: {error}', { error: answer.error }));
    else {
      parts.push(answer.depth != null
        ? t('Alpha-beta to depth {depth}: {move}, value {value}.', { depth: answer.depth, move: label(answer.best ?? ''), value: show(answer.value) })
        : t('Alpha-beta: {move}, value {value}.', { move: label(answer.best ?? ''), value: show(answer.value) }));
    }
    versus.textContent = parts.join(' ');
    versus.dataset.agree = String(!!answer?.best && answer.best === most);
    versus.dataset.alphabeta = answer?.best ?? '';
    versus.dataset.most = most ?? '';
  }

  function update() {
    const s = session;
    const on = panelOf(s.params.algorithm) === 'mcts' && !!s.run;
    setHidden(section, !on);
    if (phases && !on) setHidden(phases, true);
    if (!on) return;
    alphaBeta(s.params);
    const run = s.run, k = run.step;
    const ev = k > 0 ? run.events[k - 1] : null;
    ucbTable(lastSelect(run, k));
    if (phases) {   // the iteration's four phases, this step's marked
      setHidden(phases, false);
      for (const li of phases.children) {
        const now = li.dataset.phase === ev?.type;
        li.classList.toggle('current', now);
        if (now) li.setAttribute('aria-current', 'step'); else li.removeAttribute('aria-current');
      }
    }
    if (ev?.type === 'simulate') {
      // A game's moves in words (the first few: the event's `moves`), else the nodes' labels.
      const words = ev.moves ?? ev.playout.map(label);
      const more = ev.playout.length - words.length;
      const path = !ev.playout.length ? t('(none: the node itself ends the game or the depth)')
        : words.join(' → ') + (more > 0 ? ' ' + t('… and {n} more moves', { n: more }) : '');
      playout.textContent = t('Playout from {node}: {path}; result {result}.', { node: label(ev.node), path, result: show(ev.result) });
    } else playout.textContent = '';
    const c = series(run, k);
    drawChart(c);
    compare(c);
  }
  return update;
}
