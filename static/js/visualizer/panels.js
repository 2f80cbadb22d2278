// The side panels: the pseudocode with the running line, the step's
// sentence, the pruning test in force, the call stack and the statistics.
// Each is a small factory whose update() reads the session; all text is set
// with textContent.

import { read, show } from '../core/model.js';
import { lang, t, pageFetch } from '../core/i18n.js';
import { drawPicture, gameOf, pictureSize } from '../core/boards.js';
import { spokenLabel } from '../core/tree.js';
import { algorithm, keepsBounds } from '../core/algorithms.js';
import { afterLayout } from '../painters/fittext.js';
import { setText } from '../core/controls.js';

export { setText };   // the panels' writes and the page's share one (core/controls.js)

/**
 * Show or hide an element only when that changes: Chromium restyles an
 * element whose `hidden` is written, even with the value it has (five
 * panels and cells a step, issue 30).
 */
export function setHidden(el, hidden) {
  if (el.hidden !== hidden) el.hidden = hidden;
}

function h(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

/** The listing of the running algorithm, one <li> per line. */
export function makePseudocode(el, { onStyle } = {}) {
  const list = el.querySelector('ol');
  const switcher = el.querySelector('[data-role=formulation]');
  let listings = {}, style = 'aima', key = null, lit = null, shownKey = null;
  // The running line is measured once the step's frame is laid out (not forced earlier).
  const afterStepLayout = afterLayout(list.parentElement);
  let last = null;   // the event shown, to light its line again in a new listing

  switcher.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-style]');
    if (b && b.dataset.style !== style) onStyle?.(b.dataset.style);
  });

  async function load({ algorithm, strict, depth }) {
    const q = new URLSearchParams({ algorithm, strict: strict ? '1' : '0', lang });
    if (depth != null) q.set('depth', depth);
    const res = await pageFetch(`/api/pseudocode?${q}`);
    listings = res.ok ? await res.json() : {};
    shownKey = null;
  }

  function setStyle(s) {
    style = s;
    const both = Object.keys(listings).length > 1;
    switcher.hidden = !both;
    for (const b of switcher.querySelectorAll('button')) {
      b.setAttribute('aria-pressed', String(b.dataset.style === style));
    }
    key = listings[style] ? style : Object.keys(listings)[0];
    if (key !== shownKey) {
      shownKey = key;
      lit = null;
      list.replaceChildren(...(listings[key] || []).map((line) => h('li', null, line || ' ')));
      update(last);
    }
  }

  function update(ev) {
    last = ev;
    const n = ev?.lines?.[key] ?? null;
    const li = n ? list.children[n - 1] : null;
    if (li === lit) return;
    lit?.classList.remove('running');
    lit = li;
    if (li) li.classList.add('running');
    // Measured when the frame has laid the page out anyway (not forced now).
    afterStepLayout(reveal);
  }

  /** Scroll the listing (only it, not the page) so the running line shows. */
  function reveal() {
    if (!lit) return;
    const box = list.parentElement;
    const b = box.getBoundingClientRect(), r = lit.getBoundingClientRect();
    if (r.top < b.top || r.bottom > b.bottom) {
      box.scrollTop += r.top - b.top - (b.height - r.height) / 3;
    }
  }

  return { load, setStyle, update, reveal, get style() { return style; } };
}

// A node named inside a sentence: a marker the panels split on, to draw a
// game's position as its picture (see nodeParts); the plain text has the label.
const mark = (id) => `\u0001${id}\u0002`;
const MARKED = /\u0001([^\u0002]*)\u0002/;

/**
 * A sentence with node markers as parts: strings, and {node: id} where a
 * node is named (a page draws a game's position there as a picture).
 */
export function nodeParts(text) {
  const parts = text.split(MARKED);
  return parts.map((p, i) => (i % 2 ? { node: p } : p)).filter((p) => p !== '');
}

/** The pruning test at the active node, written out with its numbers (plain text). */
export function pruneTest(session, tree) {
  return nodeParts(pruneTestMarked(session, tree))
    .map((p) => (typeof p === 'string' ? p : label(tree, p.node))).join('');
}

/** The same sentence as parts (nodeParts), for drawing positions as pictures. */
export function pruneTestParts(session, tree) {
  return nodeParts(pruneTestMarked(session, tree));
}

function pruneTestMarked(session, tree) {
  const { run, params } = session;
  const alg = params.algorithm;
  if (!keepsBounds(alg)) return algorithm(alg)?.prunes_nothing ?? '';
  const ev = run?.event;
  if (ev?.type === 'prune') {
    const f = read(run.view, ev.node);
    const rest = t('the rest');   // (a t() inside t()'s fields would escape extraction)
    return t('Cut-off at {node}: {test} holds; not searched: {skipped}.', {
      node: mark(ev.node), test: ev.reach != null ? spellReach(ev) : spell(ev.test, f),
      skipped: (ev.skipped || []).map(mark).join(', ') || rest,
    });
  }
  const id = session.active;
  const node = id != null ? tree.byId.get(id) : null;
  if (!node) return run?.done && run.step === run.total ? t('The search is over.') : '—';
  if (node.role === 'leaf') return t('{node} is a leaf: its value goes back up.', { node: mark(node.id) });
  const f = read(run.view, id);
  const where = t('At {node} ({player}): prune if', { node: mark(node.id), player: node.player });
  const verdict = (holds) => (holds ? t('holds, cut off') : t('does not hold, go on'));
  if (params.style === 'wikipedia') {
    // alpha := max(alpha, v) first, then break when beta <= alpha.
    const op = params.strict ? '<' : '≤';
    let s = `${where} β ${op} α`;
    if (f.alpha != null && f.beta != null) {
      s += '. ' + t('Now β = {beta}, α = {alpha}: {verdict}.',
        { beta: show(f.beta), alpha: show(f.alpha), verdict: verdict(compare(f.beta, op, f.alpha)) });
    }
    return s;
  }
  if (node.role === 'chance') {   // Star1: the outcomes so far, the rest at the leaf bound
    const lo = params.strict ? '<' : '≤', hi = params.strict ? '>' : '≥';
    return `${where} v + U × rest ${lo} α = ${show(f.alpha)}, v + L × rest ${hi} β = ${show(f.beta)}`;
  }
  const max = node.role === 'max';
  const op = max ? (params.strict ? '>' : '≥') : (params.strict ? '<' : '≤');
  const b = max ? f.beta : f.alpha;
  let s = `${where} v ${op} ${max ? 'β' : 'α'} = ${show(b)}`;
  if (f.value != null && b != null) {
    s += '. ' + t('Now v = {v}: {verdict}.', { v: show(f.value), verdict: verdict(compare(f.value, op, b)) });
  }
  return s;
}

function label(tree, id) {
  const n = tree.byId.get(id);
  return n ? spokenLabel(tree, n) : id;
}

function num(x) {
  return x === 'inf' ? Infinity : x === '-inf' ? -Infinity : Number(x);
}

function compare(v, op, b) {
  const a = num(v), c = num(b);
  return op === '≥' ? a >= c : op === '>' ? a > c : op === '≤' ? a <= c : a < c;
}

/** "v <= alpha" -> "v = 2 ≤ α = 3". */
/** A chance cut-off (Star1): the most (least) the chance node can be worth, against the bound. */
function spellReach(ev) {
  const op = ev.test.includes('<=') ? '≤' : ev.test.includes('>=') ? '≥' : ev.test.includes('<') ? '<' : '>';
  return `${show(ev.reach)} ${op} ${ev.cut === 'alpha' ? 'α' : 'β'} = ${show(ev.bound)}`;
}

function spell(test, f) {
  if (!test) return t('the test');
  return test
    .replace(/<=/, '≤').replace(/>=/, '≥')
    .replace(/\bv\b/, `v = ${show(f.value)}`)
    .replace(/\balpha\b/, `α = ${show(f.alpha)}`)
    .replace(/\bbeta\b/, `β = ${show(f.beta)}`);
}

/**
 * Where a panel names a node: its label as text, or a game's position as a
 * small picture (boards.js, as the tree draws it) with the position in
 * words for screen readers and on hover.
 */
export function makeNodeName(tree, session = () => null) {
  const game = gameOf(tree);
  return function nodeName(id) {
    const n = tree.byId.get(id);
    // A game's node the search reached below the drawn tree: its label and
    // words as the run's records gave them (session.labelOf, wordsOf).
    const s = n ? null : session();
    const label = n ? n.label : s?.labelOf?.(id) ?? null;
    const words = n ? spokenLabel(tree, n)
      : (label && (s.wordsOf?.(label) || tree.positions?.[label])) || label || id;
    const size = label && game ? pictureSize(game, label) : null;
    if (!size) return document.createTextNode(words);
    const span = h('span', 'pic-name');
    span.title = words;
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', `-1 -1 ${size.w + 2} ${size.h + 2}`);
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('focusable', 'false');
    // Sized in em: the picture grows with the panel's type (presentation mode).
    svg.style.width = `${(size.w + 2) / 12}em`;
    svg.style.height = `${(size.h + 2) / 12}em`;
    drawPicture(svg, game, label, size.w / 2, size.h / 2)?.querySelector('title')?.remove();
    span.append(svg, h('span', 'sr', words));
    return span;
  };
}

/**
 * Write `parts` (nodeParts) into `el`, each node by `nodeName`; nothing is
 * rewritten when the sentence is the one shown.
 */
export function setParts(el, parts, nodeName) {
  const key = parts.map((p) => (typeof p === 'string' ? p : `\u0001${p.node}`)).join('');
  if (el.partsKey === key) return;
  el.partsKey = key;
  const next = parts.map((p) => (typeof p === 'string' ? document.createTextNode(p) : nodeName(p.node)));
  // All text (a tree's nodes named by their labels, no pictures): the text
  // nodes shown take the new words, one a part as before (see setText; the
  // same nodes, so the same shaping and pixels), the surplus added or dropped.
  const old = el.childNodes;
  const text = (n) => n.nodeType === Node.TEXT_NODE;
  if (next.every(text) && [...old].every(text)) {
    next.forEach((n, i) => {
      if (i >= old.length) el.appendChild(n);
      else if (old[i].data !== n.data) old[i].data = n.data;
    });
    while (old.length > next.length) el.lastChild.remove();
  } else el.replaceChildren(...next);
}

/** The open frames, root first: node, α, β, v each. */
export function makeStack(tbody, nodeName = null) {
  let empty = null;
  // Rows are kept and rewritten in place: a step changes a cell or two, or
  // adds or drops the top row.
  return function update(session, tree) {
    const rows = [];
    const id = session.active;
    for (let n = id != null ? tree.byId.get(id) : null; n; n = n.parent) rows.push(n);
    rows.reverse();
    if (!rows.length && id != null && tree.game) rows.push(...framesBelow(session, tree, id));
    const bounds = keepsBounds(session.params.algorithm);
    if (!rows.length) {
      if (!empty) {
        empty = h('tr', 'empty');
        const td = h('td', null, t('no open call'));
        td.colSpan = 5;
        empty.appendChild(td);
      }
      if (tbody.firstChild !== empty || tbody.children.length !== 1) tbody.replaceChildren(empty);
      return;
    }
    if (empty && empty.parentNode) empty.remove();
    const trs = tbody.children;
    while (trs.length > rows.length) tbody.lastChild.remove();
    while (trs.length < rows.length) {
      const tr = h('tr');
      for (let j = 0; j < 5; j++) tr.appendChild(h('td', j === 2 || j === 3 ? 'b' : null, ''));
      tbody.appendChild(tr);
    }
    rows.forEach((n, i) => {
      const f = read(session.run.view, n.id);
      const cells = [n.said ?? spokenLabel(tree, n), n.player, bounds ? show(f.alpha) : '', bounds ? show(f.beta) : '', show(f.value)];
      const tr = trs[i];
      tr.classList.toggle('top', i === rows.length - 1);
      cells.forEach((c, j) => {
        if (j > 0 || !nodeName || n.said != null) {
          if (j === 0) tr.children[0].nodeId = null;   // (a frame named in words: no picture here)
          setText(tr.children[j], c);
          return;
        }
        const cell = tr.children[0];
        // The id is kept as a property: a data-node attribute here would be a second
        // element with the contract's per-node hook (§4), making [data-node=X] ambiguous.
        if (cell.nodeId !== n.id) { cell.nodeId = n.id; cell.replaceChildren(nodeName(n.id)); }
      });
    });
  };
}

/**
 * The open frames of a game's search below what the page draws: node ids are
 * paths of moves from the root ("X5-O1-X9"), each frame one prefix, named by
 * the position's words the run's records gave (session.wordsOf).
 */
function framesBelow(session, tree, id) {
  const parts = String(id).split('-');
  const start = tree.root.id;
  const ids = [start, ...parts.map((_, k) => parts.slice(0, k + 1).join('-'))].filter((x, i) => i === 0 || x !== start);
  const players = tree.players || ['MAX', 'MIN'];
  const first = tree.root.playerIndex ?? 0;
  return ids.map((nid, depth) => {
    const drawn = tree.byId.get(nid);
    if (drawn) return drawn;
    const label = session.labelOf?.(nid);
    return { id: nid, player: players[(first + depth) % players.length],
      said: (label && (session.wordsOf?.(label) || tree.positions?.[label])) || label || nid };
  });
}

/** Statistics up to the current step; the run's own summary at the end. */
export function makeStats(el, tree) {
  const cells = {};
  for (const name of ['entered', 'evaluated', 'cutoffs', 'saved', 'researches']) {
    cells[name] = el.querySelector(`[data-stat=${name}]`);
  }
  // Plain minimax's count without a run's summary: a walk of the tree, so
  // computed once per depth limit rather than at every step.
  let plainFor = null, plainCount = 0;
  return function update(session) {
    const { run, params } = session;
    if (!run) return;
    const atEnd = run.done && run.step === run.total;
    const c = atEnd ? run.done.stats || {} : run.counts;
    const limit = String(params.depth ?? 'none');
    if (plainFor !== limit) { plainFor = limit; plainCount = minimaxEvaluations(tree, params); }
    const plain = run.done?.stats?.minimax_evaluated ?? plainCount;
    setText(cells.entered, String(c.entered ?? '—'));
    setText(cells.evaluated, String(c.evaluated ?? '—'));
    setText(cells.cutoffs, String(c.cutoffs ?? '—'));
    if (cells.researches) {   // shown for a search whose record has re-search events (PVS)
      const on = Boolean(algorithm(params.algorithm)?.events?.includes('research'));
      setHidden(cells.researches, !on);
      setHidden(cells.researches.previousElementSibling, !on);
      setText(cells.researches, String(c.researches ?? '—'));
    }
    const saved = c.saved ?? 0;
    setText(cells.saved, plain
      ? t('{saved} of {total} ({percent} %)', { saved, total: plain, percent: Math.round((100 * saved) / plain) })
      : String(saved));
  };
}

function minimaxEvaluations(tree, params) {
  let count = 0;
  for (const n of tree.nodes) {
    if (params.depth != null && n.depth > params.depth) continue;
    if (n.children.length === 0 || n.depth === params.depth) count += 1;
  }
  return count;
}
