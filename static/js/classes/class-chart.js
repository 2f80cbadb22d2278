// The answer chart (after the reveal on the projector, live on the
// instructor's second device): a row per distinct answer, a bar per round.

import { t } from '../core/i18n.js';
import { sayLabel } from './class-words.js';

const TEXT = {
  round: (n) => t('Round {n}', { n }),
  moved: (before, after, of) => t('Right: {before} → {after} of {of}', { before, after, of }),
  right: (n, of) => t('Right: {n} of {of}', { n, of }),
};

/** One row per distinct answer in `el`, a bar per round side by side (the
 *  right answer marked ✓), and the share right and the rounds' legend in
 *  `head`; `hooks`: the contract's data-answer/-count/-right (so `el` holds
 *  the answers' rows and nothing else). */
export function drawChart(el, head, chart, hooks) {
  const most = Math.max(1, ...chart.bars.flatMap((b) => b.counts));
  const rows = chart.bars.map((b) => {
    const row = document.createElement('div');
    row.className = `bar-row${b.right ? ' right' : ''}`;
    if (hooks) {
      row.dataset.answer = b.label;
      row.dataset.count = String(b.counts[b.counts.length - 1]);
      row.dataset.counts = b.counts.join(',');
      if (b.right) row.dataset.right = '';
    }
    const label = document.createElement('span');
    label.className = 'bar-label';
    label.textContent = (b.right ? '✓ ' : '') + sayLabel(b.label);
    const bars = document.createElement('span');
    bars.className = 'bars';
    b.counts.forEach((n, k) => {
      const bar = document.createElement('span');
      bar.className = `bar r${k + 1}${k === b.counts.length - 1 ? ' last' : ''}`;
      bar.style.setProperty('--w', `${(100 * n) / most}%`);
      bar.title = `${TEXT.round(k + 1)}: ${n}`;
      const count = document.createElement('span');
      count.className = 'n';
      count.textContent = String(n);
      bar.appendChild(count);
      bars.appendChild(bar);
    });
    row.append(label, bars);
    if (b.misconception) {   // the wrong rule that gives this answer (contract §8; after Reveal)
      const why = document.createElement('span');
      why.className = 'bar-misconception';
      why.dataset.misconception = b.misconception.id;
      why.textContent = t(b.misconception.name);
      row.append(why);
    }
    return row;
  });
  const r = chart.right, n = chart.answers, last = r.length - 1;
  const sum = document.createElement('p');
  sum.className = 'chart-sum';
  sum.textContent = r.length > 1 ? TEXT.moved(r[0], r[last], n[last]) : TEXT.right(r[0], n[0]);
  if (chart.rounds > 1) {
    const legend = document.createElement('p');
    legend.className = 'chart-legend';
    for (let k = 1; k <= chart.rounds; k++) {
      const key = document.createElement('span');
      key.className = `key r${k}${k === chart.rounds ? ' last' : ''}`;
      key.textContent = TEXT.round(k);
      legend.appendChild(key);
    }
    head.replaceChildren(sum, legend);
  } else head.replaceChildren(sum);
  el.replaceChildren(...rows);
}
