// The "Take it with you" links: a picture of the step on screen, the
// worksheet, practice. Each link's address is made when it is about to be
// followed, from what the page shows (the options form and the step
// counter), so this module needs nothing from the visualizer's internals.

import { questionsOf, takes } from '../core/algorithms.js';

const root = document.getElementById('visualizer');
const form = document.getElementById('options');

/** The run options the form shows, as the API's query parameters. */
function runQuery() {
  const f = form.elements;
  const q = new URLSearchParams();
  if (f.algorithm.value) q.set('algorithm', f.algorithm.value);
  if (f.depth.value.trim() !== '') q.set('depth', f.depth.value.trim());
  if (takes(f.algorithm.value, 'iterations')) {   // (Monte Carlo tree search) its own options, the given order
    for (const name of ['seed', 'iterations', 'exploration']) {
      if (f[name] && f[name].value.trim() !== '') q.set(name, f[name].value.trim());
    }
  } else {
    if (f.order.value !== 'given') q.set('order', f.order.value);
    if (f.order.value === 'random' && f.seed.value !== '') q.set('seed', f.seed.value);
    if (f.strict.value === '1') q.set('strict', '1');
  }
  const style = document.querySelector('[data-role="formulation"] [aria-pressed="true"]');
  if (style && style.dataset.style !== 'aima') q.set('style', style.dataset.style);
  const lang = document.documentElement.lang;
  if (lang && lang !== 'en') q.set('lang', lang);      // the sheet in the page's language
  return q;
}

function refresh(link) {
  const tree = encodeURIComponent(root.dataset.tree);
  const q = runQuery();
  if (link.dataset.export) {
    const step = document.querySelector('[data-step]');
    q.set('step', step ? step.textContent.trim() || '0' : 'end');
    link.href = `/api/trees/${tree}/export.${link.dataset.export}?${q}`;
  } else if (link.hasAttribute('data-worksheet')) {
    link.href = `/api/trees/${tree}/worksheet.pdf?${q}`;
  } else if (link.hasAttribute('data-practice')) {
    const p = new URLSearchParams();
    if (q.get('strict')) p.set('strict', '1');
    if (questionsOf(q.get('algorithm')).includes('ucb')) {   // guided: which child does UCB1 select?
      p.set('mode', 'guided');
      for (const k of ['algorithm', 'seed', 'iterations', 'exploration']) if (q.get(k)) p.set(k, q.get(k));
    }
    link.href = `/practice/${tree}${p.size ? `?${p}` : ''}`;
  }
}

// Pointer, keyboard and context-menu ("copy link") all pass through these.
for (const type of ['pointerdown', 'focusin', 'contextmenu', 'click']) {
  document.getElementById('take-away')?.addEventListener(type, (e) => {
    const link = e.target.closest('a');
    if (link) refresh(link);
  });
}
