// Move ordering: the student rearranges each node's children (arrow buttons,
// keyboard or touch) and the tree is redrawn in that order; the checker runs
// alpha-beta on it and compares the work with best-first ordering.

import { t } from '../core/i18n.js';
import { show } from '../core/model.js';
import { explicitJsonOf } from './practice-tree.js';

const earlier = (label) => t('Move {node} earlier', { node: label });
const later = (label) => t('Move {node} later', { node: label });

export function makeOrder(ctx) {
  const { page, treeId, progress } = ctx;
  page.querySelector('[data-panel=answers]').hidden = true;
  const panel = page.querySelector('[data-panel=order]');
  panel.hidden = false;
  const list = panel.querySelector('#order-list');
  const feedback = page.querySelector('#feedback');
  const revealBtn = panel.querySelector('[data-action=reveal-order]');
  const original = ctx.tree;

  // node id -> child ids in the student's order (the file's order at first)
  const order = new Map();
  const reset = () => {
    order.clear();
    for (const n of original.nodes) if (n.children.length > 1) order.set(n.id, n.children.map((c) => c.id));
  };
  reset();

  function redraw() {
    const json = explicitJsonOf(original, (n) => (order.get(n.id) || n.children.map((c) => c.id))
      .map((id) => original.byId.get(id)));
    ctx.draw(json);
    for (const n of ctx.tree.nodes) {
      ctx.view.setNode(n.id, { status: 'visited', value: null, alpha: null, beta: null });
    }
  }

  function label(n) {
    return n.children.length ? n.label : `${n.label} (${show(n.value)})`;
  }

  function build() {
    list.replaceChildren();
    for (const n of ctx.preorder()) {
      if (!order.has(n.id)) continue;
      const li = document.createElement('li');
      li.dataset.orderNode = n.id;
      const head = document.createElement('span');
      head.className = 'order-head';
      head.textContent = `${n.label} (${n.player})`;
      const kids = document.createElement('ol');
      kids.className = 'kids';
      const ids = order.get(n.id);
      ids.forEach((id, i) => {
        const c = original.byId.get(id);
        const item = document.createElement('li');
        item.dataset.child = id;
        const name = document.createElement('span');
        name.textContent = label(c);
        item.append(button('←', earlier(c.label), i === 0, () => move(n.id, i, -1)),
          name, button('→', later(c.label), i === ids.length - 1, () => move(n.id, i, 1)));
        kids.append(item);
      });
      li.append(head, kids);
      list.append(li);
    }
  }

  function button(text, aria, disabled, onClick) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'move';
    b.textContent = text;
    b.setAttribute('aria-label', aria);
    b.disabled = disabled;
    b.addEventListener('click', onClick);
    return b;
  }

  function move(nodeId, i, d) {
    const ids = order.get(nodeId);
    const j = i + d;
    if (j < 0 || j >= ids.length) return;
    [ids[i], ids[j]] = [ids[j], ids[i]];
    redraw();
    build();
    // Keep the keyboard where it was: on the moved child's same arrow.
    const item = list.querySelector(`[data-order-node="${CSS.escape(nodeId)}"] [data-child="${CSS.escape(ids[j])}"]`);
    item?.querySelectorAll('button.move')[d < 0 ? 0 : 1]?.focus();
    feedback.classList.add('stale');
  }

  async function check(reveal = false) {
    let r;
    try {
      r = await ctx.post({ ordering: Object.fromEntries(order), reveal });
    } catch (err) {
      ctx.showError(err.message);
      return;
    }
    // Draw what alpha-beta cut in the student's order.
    const pruned = new Set();
    for (const id of r.mine.pruned) {
      const stack = [ctx.tree.byId.get(id)];
      while (stack.length) {
        const n = stack.pop();
        pruned.add(n.id);
        stack.push(...n.children);
      }
    }
    for (const n of ctx.tree.nodes) {
      ctx.view.setNode(n.id, { status: pruned.has(n.id) ? 'pruned' : 'visited', value: null, alpha: null, beta: null });
    }
    feedback.hidden = false;
    feedback.classList.remove('stale');
    feedback.classList.toggle('solved', r.solved);
    feedback.querySelector('[data-score]').textContent =
      t('{n} of {leaves} leaves evaluated', { n: r.mine.evaluated, leaves: r.leaves });
    feedback.querySelector('[data-role=summary]').textContent = r.summary;
    feedback.querySelector('[data-role=mistake]').hidden = true;
    const extra = feedback.querySelector('[data-role=extra]');
    extra.replaceChildren(table(r), links(r));
    if (reveal && r.best_order) {
      for (const [id, ids] of Object.entries(r.best_order)) if (order.has(id)) order.set(id, ids);
      redraw();
      build();
    } else {
      progress.record(treeId, 'order', r.solved ? 1 : 0, 1, r.solved);
      page.querySelector('[data-role=progress]').textContent = progress.describe(treeId, 'order');
    }
    revealBtn.hidden = false;
    feedback.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }

  function table(r) {
    const tbl = document.createElement('table');
    tbl.className = 'order-stats';
    const head = document.createElement('thead');
    const hr = document.createElement('tr');
    for (const text of [t('order'), t('evaluations'), t('cut-offs')]) {
      const th = document.createElement('th');
      th.textContent = text;
      hr.append(th);
    }
    head.append(hr);
    tbl.append(head);
    const body = document.createElement('tbody');
    for (const [name, key] of [[t('yours'), 'mine'], [t('best-first'), 'best'], [t('as given'), 'given'], [t('worst-first'), 'worst']]) {
      const tr = document.createElement('tr');
      if (key === 'mine') tr.className = 'mine';
      for (const text of [name, r[key].evaluated, r[key].cutoffs]) {
        const td = document.createElement('td');
        td.textContent = String(text);
        tr.append(td);
      }
      body.append(tr);
    }
    tbl.append(body);
    return tbl;
  }

  function links(r) {
    const p = document.createElement('p');
    if (r.links) {
      const a = document.createElement('a');
      a.href = r.links.best;
      a.target = '_blank';
      a.rel = 'noopener';
      a.textContent = t('Watch best-first ordering in the visualizer ↗');
      p.append(a);
    }
    return p;
  }

  panel.querySelector('[data-action=check-order]').addEventListener('click', () => check(false));
  revealBtn.addEventListener('click', () => check(true));
  panel.querySelector('[data-action=reset-order]').addEventListener('click', () => {
    reset();
    redraw();
    build();
    feedback.hidden = true;
  });

  redraw();
  build();
  return { taps: {}, optionsChanged() { feedback.classList.add('stale'); } };
}
