// The answer sheet of the modes values, cuts and full: one row per inner node
// (v, and in full mode α and β), the pruned branches the student marked, and
// the checker's verdict drawn back onto the sheet and the tree.

import { t } from '../core/i18n.js';
import { show } from '../core/model.js';
import { spokenLabel } from '../core/tree.js';

const SVG = 'http://www.w3.org/2000/svg';
const FIELDS = { values: ['value'], cuts: ['value'], full: ['value', 'alpha', 'beta'] };
const STATUS_TEXT = {
  right: t('right'), wrong: t('wrong'), missing: t('missing'), unreadable: t('not a number'),
  extra: t('not pruned'), ignored: t('not needed'),
};
const HINT = t(' (a hint, not scored)');

/** An entry as the drawing shows it: infinities spelled as the core spells them. */
function tidy(raw) {
  const s = String(raw ?? '').trim().replace(/[−–]/g, '-');
  const low = s.toLowerCase().replace(/^\+/, '');
  if (['inf', 'infinity', '∞'].includes(low)) return 'inf';
  if (['-inf', '-infinity', '-∞'].includes(low)) return '-inf';
  return s && Number.isFinite(Number(s)) ? Number(s) : s;
}

export function makeSheet(ctx) {
  const { page, treeId, mode, progress } = ctx;
  const fields = FIELDS[mode];
  const cuts = mode === 'cuts' || mode === 'full';
  const rowsEl = page.querySelector('#answer-rows');
  const cutList = page.querySelector('#cut-list');
  const feedback = page.querySelector('#feedback');
  const revealBtn = page.querySelector('[data-action=reveal]');
  page.querySelector('[data-show=cuts]').hidden = !cuts;
  page.querySelector('[data-panel=answers]').classList.toggle('bounds', fields.length > 1);

  const draft = progress.loadDraft(treeId, mode) || {};
  // Keyed by node id: null-prototype objects, so that ids such as __proto__,
  // constructor or toString are plain keys, not Object.prototype's members.
  const fresh = () => Object.create(null);
  const entries = { value: fresh(), alpha: fresh(), beta: fresh() };
  for (const [f, saved] of Object.entries(draft.entries || {})) {
    if (Object.hasOwn(entries, f) && saved && typeof saved === 'object') Object.assign(entries[f], saved);
  }
  const marked = new Set(cuts ? (draft.pruned || []).filter((id) => ctx.tree.byId.has(id)) : []);
  let checked = false;
  const verdicts = new Map();   // node id -> all right there (the last check's ✓ / ✗)
  const cutVerdicts = new Map();   // branch (child id) -> the check's status of its cut

  const limit = () => ctx.options().depth;
  const answerable = (n) => n.children.length > 0 && (limit() == null || n.depth < limit());
  const inputs = new Map();   // "id|field" -> input

  // -- building the rows ------------------------------------------------------
  function build() {
    rowsEl.replaceChildren();
    inputs.clear();
    for (const n of ctx.preorder()) {
      if (!answerable(n)) continue;
      const tr = document.createElement('tr');
      tr.dataset.row = n.id;
      const th = document.createElement('th');
      th.scope = 'row';
      const pick = document.createElement('button');
      pick.type = 'button';
      pick.className = 'pick';
      pick.textContent = n.label;
      pick.title = t('Show {node} in the tree', { node: n.label });
      const said = spokenLabel(ctx.tree, n);    // a board is read as its marks, not its cells
      if (said !== n.label) pick.setAttribute('aria-label', said);
      pick.addEventListener('click', () => select(n.id, false));
      const who = document.createElement('small');
      who.textContent = n.role === 'chance' ? t('chance') : n.player;
      th.append(pick, ' ', who);
      tr.append(th);
      for (const f of ['value', 'alpha', 'beta']) {
        const td = document.createElement('td');
        td.className = f === 'value' ? 'col-value' : 'col-bound';
        if (fields.includes(f)) {
          const input = document.createElement('input');
          Object.assign(input, { type: 'text', autocomplete: 'off', spellcheck: false });
          input.setAttribute('inputmode', 'text');
          input.setAttribute('autocapitalize', 'off');
          input.setAttribute('enterkeyhint', 'next');
          input.dataset.for = n.id;
          input.dataset.field = f;
          input.setAttribute('aria-label', t('{field} at {node}', { field: f === 'value' ? 'v' : f === 'alpha' ? 'α' : 'β', node: n.label }));
          input.placeholder = f === 'value' ? 'v' : f === 'alpha' ? 'α' : 'β';
          input.value = entries[f][n.id] ?? '';
          input.addEventListener('input', () => {
            entries[f][n.id] = input.value;
            delete input.dataset.status;
            input.removeAttribute('aria-invalid');
            stale();
            paint();
          });
          input.addEventListener('focus', () => select(n.id, true));
          input.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); next(input); } });
          td.append(input);
          inputs.set(`${n.id}|${f}`, input);
        }
        tr.append(td);
      }
      const mark = document.createElement('td');
      mark.className = 'col-mark';
      tr.append(mark);
      rowsEl.append(tr);
    }
  }

  function next(input) {
    const all = [...inputs.values()].filter((i) => !i.disabled);
    const k = all.indexOf(input);
    if (k >= 0 && k + 1 < all.length) all[k + 1].focus();
    else page.querySelector('[data-action=check]').focus();
  }

  function select(id, fromInput) {
    const n = ctx.tree.byId.get(id);
    if (!n) return;
    ctx.view.setActive(id);
    ctx.zoom.ensureVisible(n.x, n.y);
    if (!fromInput) {
      const input = [...inputs.entries()].find(([k, i]) => k.startsWith(`${id}|`) && !i.disabled)?.[1];
      input?.focus({ preventScroll: false });
    }
  }

  // -- the drawing follows the sheet ---------------------------------------------
  function insideMarked(n) {
    for (let m = n; m; m = m.parent) if (marked.has(m.id)) return m;
    return null;
  }

  function paint() {
    const lim = limit();
    ctx.view.setDepthLimit(lim);
    for (const n of ctx.tree.nodes) {
      const cut = cuts && insideMarked(n);
      let f;
      if (cut) f = { status: 'pruned', value: null, alpha: null, beta: null };
      else if (n.children.length && lim != null && n.depth >= lim) f = { status: 'evaluated', value: n.depth === lim ? n.eval : null, alpha: null, beta: null };
      else if (!n.children.length) f = { status: 'visited', value: null, alpha: null, beta: null };
      else {
        const get = (k) => (fields.includes(k) && tidy(entries[k][n.id])) || null;
        f = { status: 'visited', value: get('value'), alpha: get('alpha'), beta: get('beta') };
      }
      ctx.view.setNode(n.id, f);
      const hit = ctx.hits?.get(n.id);
      if (hit) {
        hit.setAttribute('aria-pressed', marked.has(n.id) ? 'true' : 'false');
        hit.classList.toggle('inside', !!cut && !marked.has(n.id));
      }
    }
    for (const [key, input] of inputs) {
      const n = ctx.tree.byId.get(key.split('|')[0]);
      input.disabled = !!(cuts && insideMarked(n));
      input.closest('tr').classList.toggle('inside-cut', input.disabled);
    }
    listCuts();
    progress.saveDraft(treeId, mode, { entries, pruned: [...marked] });
  }

  function listCuts() {
    if (!cuts) return;
    cutList.replaceChildren();
    if (!marked.size) {
      const li = document.createElement('li');
      li.className = 'empty';
      li.textContent = t('None marked yet.');
      cutList.append(li);
    }
    for (const n of ctx.preorder()) {
      if (!marked.has(n.id)) continue;
      const li = document.createElement('li');
      li.dataset.cutItem = n.id;
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'chip';
      b.textContent = `${n.parent.label} → ${n.label} ✕`;
      b.setAttribute('aria-label', t('Unmark the branch {from} to {to}', { from: n.parent.label, to: n.label }));
      b.addEventListener('click', () => toggle(n.id));
      li.append(b);
      cutList.append(li);
    }
  }

  function toggle(id) {
    const n = ctx.tree.byId.get(id);
    if (!cuts || !n?.parent) return;
    if (marked.has(id)) marked.delete(id);
    else {
      if (insideMarked(n.parent)) return;   // already inside a pruned subtree
      marked.add(id);
      for (const m of [...marked]) {        // a cut above makes the cuts below it moot
        if (m !== id && insideMarked(ctx.tree.byId.get(m).parent) ) marked.delete(m);
      }
    }
    stale();
    paint();
  }

  // -- checking ------------------------------------------------------------------
  function answers() {
    const pick = (f) => Object.fromEntries(Object.entries(entries[f])
      .filter(([id, v]) => v != null && String(v).trim() !== '' && inputs.has(`${id}|${f}`) && !inputs.get(`${id}|${f}`).disabled));
    const out = { values: pick('value') };
    if (fields.includes('alpha')) { out.alpha = pick('alpha'); out.beta = pick('beta'); }
    if (cuts) out.pruned = [...marked];
    return out;
  }

  async function check(reveal = false) {
    let result;
    try {
      result = await ctx.post({ answers: answers(), reveal });
    } catch (err) {
      ctx.showError(err.message);
      return;
    }
    checked = true;
    render(result, reveal);
    if (!reveal) {
      progress.record(treeId, mode, result.score.right, result.score.total, result.solved);
      page.querySelector('[data-role=progress]').textContent = progress.describe(treeId, mode);
    }
  }

  function clearMarks() {
    for (const input of inputs.values()) {
      delete input.dataset.status;
      input.removeAttribute('aria-invalid');
      input.title = '';
      input.parentElement.querySelector('.expected')?.remove();
    }
    for (const td of rowsEl.querySelectorAll('.col-mark')) td.textContent = '';
    for (const el of ctx.viewport.querySelectorAll('.badge')) el.remove();
    for (const el of ctx.viewport.querySelectorAll('line.edge')) el.classList.remove('mark-right', 'mark-extra', 'mark-missed');
    for (const el of ctx.viewport.querySelectorAll('.node')) el.classList.remove('ok', 'bad');
    verdicts.clear();
    cutVerdicts.clear();
  }

  function render(result, reveal) {
    clearMarks();
    const perNode = new Map();
    for (const e of result.entries) {
      if (!e.graded && e.status !== 'right' && e.status !== 'wrong') continue;
      if (e.kind === 'cut') {
        const line = ctx.viewport.querySelector(`line.edge[data-edge="${CSS.escape(e.node)}"]`);
        line?.classList.add(e.status === 'right' ? 'mark-right' : e.status === 'extra' ? 'mark-extra' : 'mark-missed');
        cutVerdicts.set(e.node, e.status);
        const chip = cutList.querySelector(`[data-cut-item="${CSS.escape(e.node)}"]`);
        if (chip) chip.dataset.status = e.status;
        const n = ctx.tree.byId.get(e.node);
        if (n?.parent && e.graded) bump(perNode, n.parent.id, e.status === 'right');
        continue;
      }
      const input = inputs.get(`${e.node}|${e.kind}`);
      if (input) {
        input.dataset.status = e.status;
        input.title = STATUS_TEXT[e.status] + (e.graded ? '' : HINT);
        if (e.status !== 'right') input.setAttribute('aria-invalid', 'true');
        if (reveal && e.expected !== undefined && e.status !== 'right') {
          const span = document.createElement('span');
          span.className = 'expected';
          span.textContent = show(e.expected);
          span.title = e.sentence || '';
          input.after(span);
        }
      }
      if (e.graded) bump(perNode, e.node, e.status === 'right');
    }
    for (const [id, ok] of perNode) {
      verdicts.set(id, ok);
      badge(id, ok);
      const td = rowsEl.querySelector(`tr[data-row="${CSS.escape(id)}"] .col-mark`);
      if (td) { td.textContent = ok ? '✓' : '✗'; td.dataset.ok = ok ? '1' : '0'; td.title = ok ? t('all right here') : t('a mistake here'); }
    }
    showFeedback(result);
    revealBtn.hidden = false;
    ctx.a11yChanged?.();
  }

  /** What a screen reader hears at node `n` (after its kind and name): the
   *  given value or the student's answer, the cuts marked, the last check. */
  function a11y(n, f) {
    const parts = [];
    const cut = cuts && insideMarked(n);
    if (cut) parts.push(marked.has(n.id) ? t('you marked this branch pruned') : t('inside a branch you marked pruned'));
    if (!n.children.length) parts.push(t('value {v}', { v: show(n.value) }));
    else if (f.status === 'evaluated' && f.value != null) parts.push(t('eval {v}', { v: show(f.value) }));
    else if (answerable(n) && !cut) {
      const own = (k) => String(entries[k][n.id] ?? '').trim();
      // The checker's word on each entry as its input shows it ("wrong", "right (a hint, not scored)").
      const graded = (k) => { const i = inputs.get(`${n.id}|${k}`); if (i?.dataset.status) parts.push(i.title); };
      parts.push(own('value') ? t('your value {v}', { v: own('value') }) : t('no value written yet'));
      graded('value');
      if (fields.includes('alpha')) {
        parts.push(own('alpha') ? t('your α {v}', { v: own('alpha') }) : t('no α written yet'));
        graded('alpha');
        parts.push(own('beta') ? t('your β {v}', { v: own('beta') }) : t('no β written yet'));
        graded('beta');
      }
    }
    const cutSaid = cutVerdicts.get(n.id);
    if (cutSaid) {
      parts.push(cutSaid === 'right' ? t('checked: this cut is right')
        : cutSaid === 'extra' ? t('checked: this branch is not pruned') : t('checked: this branch is pruned, and not marked'));
    }
    if (verdicts.has(n.id)) parts.push(verdicts.get(n.id) ? t('checked: right') : t('checked: a mistake here'));
    else if (!checked && (answerable(n) || marked.has(n.id))) parts.push(t('not checked yet'));
    return parts;
  }

  function bump(map, id, ok) { map.set(id, (map.has(id) ? map.get(id) : true) && ok); }

  function badge(id, ok) {
    const g = ctx.view.nodeEl(id);
    if (!g) return;
    g.classList.add(ok ? 'ok' : 'bad');
    const t = document.createElementNS(SVG, 'text');
    t.setAttribute('class', `badge ${ok ? 'ok' : 'bad'}`);
    // Beside the shape, clear of the node's labels (treeview decides where).
    const spot = ctx.view.markSpot?.(id) ?? { x: -30, y: 16 };
    t.setAttribute('x', String(spot.x));
    t.setAttribute('y', String(spot.y));
    t.textContent = ok ? '✓' : '✗';
    g.appendChild(t);
  }

  function showFeedback(result) {
    feedback.hidden = false;
    feedback.classList.remove('stale');
    feedback.classList.toggle('solved', result.solved);
    feedback.querySelector('[data-score]').textContent = `${result.score.right} / ${result.score.total}`;
    feedback.querySelector('[data-role=summary]').textContent = result.summary;
    const m = result.first_mistake;
    const box = feedback.querySelector('[data-role=mistake]');
    box.hidden = !m;
    if (m) {
      feedback.querySelector('[data-role=mistake-text]').textContent = m.sentence;
      const a = feedback.querySelector('[data-role=mistake-link]');
      a.href = m.link;
      a.textContent = t('Open the visualizer at step {step} ↗', { step: m.step });
    }
    showMisconception(result.misconception);
    feedback.querySelector('[data-role=extra]').replaceChildren();
    feedback.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }

  /** The wrong rule the answer follows (contract §8), under the score; its node's step
   *  in the visualizer when the answer carries a link (homework keeps the key back). */
  function showMisconception(m) {
    const box = feedback.querySelector('[data-role=misconception]');
    box.hidden = !m;
    if (!m) { delete box.dataset.misconception; return; }
    box.dataset.misconception = m.id;
    box.dataset.node = m.node;
    feedback.querySelector('[data-role=misconception-text]').textContent = m.text;
    const a = feedback.querySelector('[data-role=misconception-link]');
    a.hidden = !m.link;
    if (m.link) {
      a.href = m.link;
      a.textContent = t('See it at step {step} in the visualizer ↗', { step: m.step });
    }
  }

  function stale() {
    if (checked) feedback.classList.add('stale');
  }

  // -- wiring ------------------------------------------------------------------
  page.querySelector('[data-action=check]').addEventListener('click', () => check(false));
  revealBtn.addEventListener('click', () => check(true));
  page.querySelector('[data-action=clear]').addEventListener('click', () => {
    for (const f of Object.keys(entries)) entries[f] = fresh();
    marked.clear();
    build();
    clearMarks();
    feedback.hidden = true;
    revealBtn.hidden = true;
    progress.clearDraft(treeId, mode);
    paint();
  });
  ctx.svg.addEventListener('keydown', (e) => {
    const id = e.target.dataset?.cut;
    if (id && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); toggle(id); }
  });

  build();
  paint();
  return {
    a11y,
    taps: { edge: toggle, node: (id) => select(id, false) },
    optionsChanged() { build(); paint(); clearMarks(); stale(); },
  };
}
