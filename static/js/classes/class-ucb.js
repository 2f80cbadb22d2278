// [mcts] A UCB1 question's numbers on the projector and the phones
// (templates/_class.html's ucb_givens): while students answer, the formula
// (C, N, the scale) and each child's n and mean, as the board shows them;
// at the reveal, the selection's table (exploit, explore, UCB1), the chosen
// child marked. The answer is in none of it before the reveal: the server
// sends the table only then (app/classes/service.py).

import { show } from '../core/model.js';
import { givensOf } from './class-words.js';

/** Fill `box` (a [data-role=ucb] block) from question `q`; hide it for other questions. */
export function drawUcb(box, q) {
  if (!box) return;
  const g = q?.givens;
  box.hidden = !g;
  if (!g) return;
  box.querySelector('[data-role=ucb-formula]').textContent = givensOf(q);
  const full = !!(q.revealed && q.table);
  box.dataset.revealed = String(full);
  for (const th of box.querySelectorAll('th[data-reveal]')) th.hidden = !full;
  const body = box.querySelector('tbody');
  body.replaceChildren();
  for (const r of full ? q.table : g.children) {
    const tr = document.createElement('tr');
    tr.dataset.child = r.id;
    if (full && r.id === q.answer) tr.className = 'chosen';
    const cells = [r.label, r.visits, show(r.mean)];
    if (full) cells.push(show(r.exploit), show(r.explore), show(r.ucb));
    for (const x of cells) {
      const td = document.createElement('td');
      td.textContent = String(x);
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}
