// The practice page /practice/<id>: draws the tree with the visualizer's own
// modules (tree.js, treeview.js, zoom.js), then hands over to the mode:
// the answer sheet (values, cuts, full), the guided walk, or move ordering.
// Every verdict comes from POST /api/practice/check; nothing is graded here.

import { t, pageFetch } from '../core/i18n.js';
import { algorithm as recordOf, questionsOf } from '../core/algorithms.js';
import { fetchTree, readTree } from '../core/tree.js';
import { makeTreeView } from '../painters/treeview.js';
import { makeZoom } from '../core/zoom.js';
import { makeSheet } from './practice-sheet.js';
import { makeGuide } from './practice-guided.js';
import { makeOrder } from './practice-order.js';
import * as progress from './practice-progress.js';
import { drawHits, explicitJsonOf, onTaps, preorder } from './practice-tree.js';
import { makePracticeA11y } from './practice-a11y.js';
import { assignmentExercise } from '../homework/assignment-exercise.js';

const $ = (sel, root = document) => root.querySelector(sel);

async function main() {
  const page = $('#practice');
  const alertEl = $('#alert');
  const showError = (msg) => { alertEl.textContent = msg || ''; alertEl.hidden = !msg; };
  // An assignment's exercise (/a/<id>/<i>): its tree, mode and grading are the server's.
  let homework = null;
  if (page.dataset.assignment) {
    try { homework = await assignmentExercise(page); } catch (err) { showError(err.message); return; }
  }
  const treeId = page.dataset.tree;
  const mode = page.dataset.mode;
  // On a phone the tree comes first: the instructions fold to one line (a tap opens them).
  if (matchMedia('(max-width: 760px)').matches) $('#instructions') && ($('#instructions').open = false);

  // -- conventions: the query string preselects them, changes go back into it --
  const form = $('#options');
  const q = new URLSearchParams(homework ? '' : location.search);
  if (!homework) form.strict.value = ['1', 'true', 'yes', 'on'].includes((q.get('strict') || '').toLowerCase()) ? '1' : '0';
  if (!homework) form.style.value = q.get('style') === 'wikipedia' ? 'wikipedia' : 'aima';
  if (q.get('depth')) form.depth.value = q.get('depth');
  // [mcts] guided practice of Monte Carlo tree search: "which child does UCB1 select next?"
  const ucbId = questionsOf(q.get('algorithm')).includes('ucb') ? q.get('algorithm') : null;
  const mcts = mode === 'guided' && ucbId
    ? Object.fromEntries(['seed', 'iterations', 'exploration']
      .filter((k) => q.get(k) && Number.isFinite(Number(q.get(k)))).map((k) => [k, Number(q.get(k))]))
    : null;
  // Guided practice walks a pruning search's own run where the server does (checker.py's
  // _walks: one search of a two-player tree; its record says so): PVS's tests and re-searches.
  const rec = recordOf(q.get('algorithm'));
  const ownId = mode === 'guided' && !ucbId && rec?.bounds && rec.one_search
    && rec.chance === 'refuses' && rec.players === 'two' ? rec.id : null;
  const options = () => {
    const depth = parseInt(form.depth.value, 10);
    return {
      strict: form.strict.value === '1',
      style: form.style.value,
      depth: Number.isInteger(depth) && !form.querySelector('.depth').hidden ? depth : null,
    };
  };
  const query = (extra = {}) => {
    const o = options();
    const p = new URLSearchParams({ mode, ...extra });
    if (mcts && p.get('mode') === 'guided') {   // [mcts]
      p.set('algorithm', ucbId);
      for (const [k, v] of Object.entries(mcts)) p.set(k, v);
    }
    if (ownId && p.get('mode') === 'guided') p.set('algorithm', ownId);
    if (o.strict) p.set('strict', '1');
    if (o.style !== 'aima') p.set('style', o.style);
    if (o.depth != null) p.set('depth', o.depth);
    return p;
  };
  const syncLinks = () => {
    history.replaceState(null, '', `${location.pathname}?${query()}`);
    for (const a of document.querySelectorAll('.modes a[data-mode]')) {
      a.href = `?${query({ mode: a.dataset.mode })}`;
    }
    $('[data-action=visualize]').href = `/t/${encodeURIComponent(treeId)}?${visualizerQuery()}`;
    $('[data-action=another]').href = anotherUrl();
    $('.style-note').textContent = form.style.value === 'aima'
      ? t('AIMA formulation: a node that cuts off returns at once, before updating its own α (MAX) or β (MIN).')
      : t('Wikipedia formulation: a node updates its α (MAX) or β (MIN) first, then tests for the cut.');
  };
  const visualizerQuery = () => {
    const o = options();
    const p = new URLSearchParams();
    if (mcts) {   // the UCB1 question's run: its own options
      p.set('algorithm', ucbId);
      for (const [k, v] of Object.entries(mcts)) p.set(k, v);
    } else if (ownId) p.set('algorithm', ownId);
    else if (mode === 'values') { /* the tree's default algorithm fits */ } else if (page.dataset.pruning) p.set('algorithm', page.dataset.pruning);
    if (o.depth != null) p.set('depth', o.depth);
    if (o.strict) p.set('strict', '1');
    if (o.style !== 'aima') p.set('style', o.style);
    return p;
  };
  // "Try another": the same kind of random tree with a new seed.
  const anotherUrl = () => {
    const d = page.dataset;
    const p = new URLSearchParams();
    if (d.random) {
      p.set('branching', d.branching);
      p.set('depth', d.depth);
      p.set('values', d.values);
      if (d.players !== '2') p.set('players', d.players);
      if (d.chance === '1') p.set('chance', '1');
      if (d.evals === '1') p.set('evals', '1');
    } else {
      p.set('branching', '2:3');
      p.set('depth', String(Math.min(Math.max(Number(d.height) || 3, 2), 4)));
    }
    p.set('seed', String(Math.floor(Math.random() * 10000)));
    p.set('mode', mode);
    const o = options();
    if (o.strict) p.set('strict', '1');
    if (o.style !== 'aima') p.set('style', o.style);
    return `/practice/random?${p}`;
  };

  // -- the tree -------------------------------------------------------------
  let tree, json;
  try {
    tree = readTree(await fetchTree(treeId));
  } catch (err) {
    showError(err.message);
    return;
  }
  json = explicitJsonOf(tree);
  page.classList.toggle('has-chance', tree.hasChance);
  page.classList.toggle('multi', tree.multiplayer);
  const svg = $('#tree');
  const viewport = $('.viewport', svg);
  const ctx = {
    page, treeId, mode, svg, viewport, showError, options, progress,
    tree, json, view: null, hits: null, zoom: null,
    /** POST an attempt to the checker; the answer's JSON, or an Error. */
    async post(body) {
      if (homework) { const r = await homework.post(body); showError(''); return r; }
      const o = options();
      const res = await pageFetch('/api/practice/check', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ tree: treeId, mode, strict: o.strict, style: o.style, depth: o.depth,
          ...(mcts ? { algorithm: ucbId, ...mcts } : {}), ...(ownId ? { algorithm: ownId } : {}),
          ...body }),   // [mcts]
      });
      const data = await res.json().catch(() => ({}));
      if (!res.ok) throw new Error(data.error?.message || `HTTP ${res.status}`);
      showError('');
      return data;
    },
    /** (Re)draw the tree from `json` (move ordering redraws in the new order). */
    draw(newJson, { refit = false } = {}) {
      ctx.json = newJson;
      ctx.tree = readTree(newJson);
      ctx.tree.positions = tree.positions;      // a game's positions in words (not in the tree file)
      ctx.view = a11y.follow(makeTreeView(viewport, ctx.tree, { compact: innerWidth < 600 }), ctx.tree);
      ctx.hits = drawHits(ctx);
      // The nodes' text is for eyes: the accessible tree says each node whole
      // (the branches' tap targets stay: they are the keyboard's cut buttons).
      viewport.querySelector('.nodes')?.setAttribute('aria-hidden', 'true');
      if (refit || !ctx.zoom) {
        ctx.zoom = ctx.zoom || makeZoom(svg, viewport);
        ctx.fit();
      }
    },
    // A whole tree shrunk to fit can be too small to read or tap (on a phone
    // especially): it opens at a usable size, the student pans, and a note
    // says that part of it is shown. The Fit button shows all of it
    // (`all`), as on the visualizer; a resize keeps what was asked.
    fit({ all = ctx.wholeAsked } = {}) {
      const b = ctx.view.box;
      ctx.zoom.fit(b, { minK: all ? 0 : innerWidth < 600 ? 0.62 : 0.5 });
      const { k } = ctx.zoom.get(), { width, height } = ctx.zoom.size;
      const part = width > 0 && (k * (b.x1 - b.x0) > width + 1 || k * (b.y1 - b.y0) > height + 1);
      $('[data-fit-note]').hidden = !part;
    },
    wholeAsked: false,
    preorder: () => preorder(ctx.tree),
  };
  // The tree for screen readers and keyboards, kept in step with the drawing.
  const a11y = makePracticeA11y($('#a11y-tree'), ctx, () => handler);
  let handler = null;
  ctx.a11yChanged = a11y.refresh;
  ctx.draw(json, { refit: true });
  $('[data-action=fit]').addEventListener('click', () => { ctx.wholeAsked = true; ctx.fit(); });
  addEventListener('resize', () => ctx.fit());

  handler = mode === 'guided' ? makeGuide(ctx) : mode === 'order' ? makeOrder(ctx) : makeSheet(ctx);
  a11y.refresh();
  onTaps(svg, handler.taps || {});
  if (!homework) {
    form.addEventListener('change', () => { syncLinks(); handler.optionsChanged?.(); });
    syncLinks();
  }
  $('[data-role=progress]').textContent = progress.describe(treeId, mode);
  page.classList.add('ready');
}

main();
