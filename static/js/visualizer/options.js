// The run options (algorithm, depth limit, ordering, seed, tie convention)
// and the address bar: the query string preselects them, and is kept in step
// so that a copied link reopens exactly the step on screen.

import { t } from '../core/i18n.js';
import { algorithm, keepsBounds, nameOf, ownSeed, takes } from '../core/algorithms.js';


function int(text) {
  if (text == null || String(text).trim() === '') return null;
  const n = Number(text);
  return Number.isInteger(n) ? n : null;
}

/** The run options and step named in the address bar. */
export function readQuery(search = location.search) {
  const q = new URLSearchParams(search);
  return {
    algorithm: q.get('algorithm') || null,
    // Absent: the tree's own suggestion; `depth=none`: no limit.
    depth: q.has('depth') ? int(q.get('depth')) : undefined,
    order: ['given', 'best', 'worst', 'random'].includes(q.get('order')) ? q.get('order') : null,
    seed: int(q.get('seed')),
    strict: ['1', 'true', 'yes', 'on'].includes((q.get('strict') || '').toLowerCase()),
    style: ['aima', 'wikipedia'].includes(q.get('style')) ? q.get('style') : null,
    step: Math.max(0, int(q.get('step')) ?? 0),
    // [mcts]
    iterations: int(q.get('iterations')),
    exploration: q.get('exploration') != null && q.get('exploration') !== '' && Number.isFinite(Number(q.get('exploration')))
      ? Number(q.get('exploration')) : null,
  };
}

let first = 0, timer = 0, queued = null;

/**
 * Put the options and step in the address bar (history.replaceState), a
 * moment after the last change (at most every 1.5 s while stepping fast):
 * browsers refuse hundreds of replaceState calls a second, and each one
 * costs a style pass over a big tree.
 */
export function writeQuery(p) {
  queued = p;
  const now = performance.now();
  if (!timer) first = now;
  clearTimeout(timer);
  timer = setTimeout(flushQuery, now - first > 1500 ? 0 : 250);
}

function flushQuery() {
  clearTimeout(timer);
  timer = 0;
  const p = queued;
  const q = new URLSearchParams();
  if (p.algorithm) q.set('algorithm', p.algorithm);
  if (p.depth != null) q.set('depth', p.depth);
  else if (p.suggestedDepth != null) q.set('depth', 'none');  // the user cleared the tree's limit
  if (p.order && p.order !== 'given') q.set('order', p.order);
  if ((p.order === 'random' || ownSeed(p.algorithm)) && p.seed != null) q.set('seed', p.seed);
  if (takes(p.algorithm, 'iterations') && p.iterations != null) q.set('iterations', p.iterations);
  if (takes(p.algorithm, 'exploration') && p.exploration != null) q.set('exploration', p.exploration);
  if (p.strict) q.set('strict', '1');
  if (p.style && p.style !== 'aima') q.set('style', p.style);
  if (p.step) q.set('step', p.step);
  const url = `${location.pathname}${q.size ? `?${q}` : ''}`;
  if (url !== location.pathname + location.search) history.replaceState(null, '', url);
}

/**
 * makeOptions(form, {algorithms, height, onChange}) -> {set(params)}.
 * onChange(changedFields) fires when the user changes a field.
 */
export function makeOptions(form, { algorithms, height, onChange }) {
  const f = form.elements;
  f.algorithm.replaceChildren(...algorithms.map((a) => {
    const o = document.createElement('option');
    o.value = a;
    o.textContent = nameOf(a);
    return o;
  }));
  f.algorithm.disabled = algorithms.length < 2;
  f.depth.max = String(height);

  function read() {
    const order = f.order.value;
    if (takes(f.algorithm.value, 'iterations') && f.iterations) {   // its own options, the given order
      const c = f.exploration.value.trim();
      return {
        algorithm: f.algorithm.value, depth: int(f.depth.value), order: 'given',
        seed: int(f.seed.value) ?? 1, strict: false,
        iterations: Math.max(1, int(f.iterations.value) ?? 200),
        exploration: c !== '' && Number.isFinite(Number(c)) ? Number(c) : null,
      };
    }
    return {
      algorithm: f.algorithm.value,
      depth: int(f.depth.value),
      order,
      seed: order === 'random' ? int(f.seed.value) ?? 1 : null,
      strict: f.strict.value === '1',
      iterations: null, exploration: null,
    };
  }

  function showRelevant() {
    const alg = f.algorithm.value;
    // each input shown where the record reads its option (Monte Carlo tree search: seed, iterations and C; no order)
    for (const el of form.querySelectorAll('.mcts-opt')) el.hidden = !takes(alg, el.querySelector('input')?.name);
    if (f.order) f.order.closest('label').hidden = !takes(alg, 'order');
    form.querySelector('.seed').hidden = f.order.value !== 'random' && !ownSeed(alg);
    form.querySelector('.ties').hidden = !keepsBounds(alg);
    form.querySelector('.depth span').textContent =
      algorithm(alg)?.evals === 'every' ? t('Deepest iteration') : t('Depth limit');
  }

  form.addEventListener('change', (e) => {
    showRelevant();
    // Focus stays on the select (a keyboard user goes on from there); the
    // page's arrow keys act again once focus leaves it (controls.js).
    onChange(read());
  });
  form.addEventListener('submit', (e) => e.preventDefault());

  return {
    set(p) {
      f.algorithm.value = p.algorithm;
      f.depth.value = p.depth ?? '';
      f.order.value = p.order || 'given';
      f.seed.value = p.seed ?? (p.order === 'random' ? 1 : '');
      f.strict.value = p.strict ? '1' : '0';
      if (f.iterations) {   // [mcts]
        f.iterations.value = p.iterations ?? 200;
        f.exploration.value = p.exploration ?? '';
        if (ownSeed(p.algorithm)) f.seed.value = p.seed ?? 1;
      }
      showRelevant();
    },
  };
}
