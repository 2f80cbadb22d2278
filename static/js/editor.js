// The page /edit and /edit/<id>: build and edit a tree by pointing and by
// keyboard, with the search re-run by the server after every edit (what
// if?). The page keeps the document (editor-doc.js) and its history; each
// edit is sent to POST /api/edit/run, which checks it with the loader's
// rules and runs the core: an accepted edit is drawn with its result, a
// refused one is not kept and its error is shown at its node.

import * as D from './editor-doc.js';
import { makeEditorView } from './editor-view.js';
import { show } from './model.js';

// Words shown to people, kept together.
const TEXT = {
  kinds: { leaf: 'leaf', chance: 'chance' },
  algorithms: { alphabeta: 'alpha-beta', minimax: 'minimax', expectiminimax: 'expectiminimax', maxn: 'max^n', iterative: 'iterative deepening' },
  none: '—',
  saveFailed: (m) => `Could not save: ${m}`,
  loadFailed: (m) => `Could not open the tree: ${m}`,
  textError: (e) => (e.line ? `line ${e.line}, column ${e.column}: ${e.message}` : e.message),
  started: 'Click a node to select it, then add children, set values, drag to reorder: the search re-runs after every edit.',
  ofMinimax: (n) => `of ${n} for minimax`,
  network: 'The server did not answer; the edit was not kept.',
  classFailed: (m) => `The class could not start: ${m}`,
};

const MAX_UNDO = 1000;   // edits kept for undo (each a small copy of the tree)
const $ = (sel, root = document) => root.querySelector(sel);
const page = $('#editor');

const state = {
  doc: null,            // the accepted document
  ids: {},              // key -> id, as the server named the nodes
  result: null,         // the search of the accepted document
  change: null,         // what the last edit changed
  yaml: null,           // the YAML text, fetched when it is shown or saved (null: not yet)
  notation: '',
  token: null,          // the server's name of the accepted run (its previous_state next time)
  algorithms: [],
  options: { algorithm: null, depth: null, strict: false },
  selected: null,       // key of the selected node
  collapsed: new Set(), // keys of collapsed nodes
  undo: [], redo: [],
  revision: 0,
};

const view = makeEditorView($('#tree'), $('#stage'), {
  onSelect: (id) => select(keyOf(id)),
  onMove: (id, to) => edit((doc) => D.move(doc, keyOf(id), to)),
});

const keyOf = (id) => Object.keys(state.ids).find((k) => state.ids[k] === id) ?? id;
const idOf = (key) => state.ids[key] ?? key;

// -- talking to the server -----------------------------------------------------
async function post(url, body) {
  let res;
  performance.mark('edit-sent');
  try {
    res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  } catch {
    return { error: { message: TEXT.network } };
  }
  const json = await res.json().catch(() => ({ error: { message: `HTTP ${res.status}` } }));
  return res.ok ? json : { error: json.error || { message: `HTTP ${res.status}` } };
}

let queue = Promise.resolve();
let busy = 0;
/** Run tasks one after another (an edit is made on the document the previous one left). */
function enqueue(task) {
  busy += 1;
  page.setAttribute('aria-busy', 'true');
  queue = queue.then(task).catch((err) => showAlert(err.message)).finally(() => {
    busy -= 1;
    if (!busy) page.setAttribute('aria-busy', 'false');
  });
  return queue;
}

/**
 * Propose a new document: `make(doc)` -> {doc, select, edit} (or null: no
 * change). Kept only if the server accepts it; `history` false for undo/redo.
 */
function edit(make, { history = true, options = state.options, onRefused } = {}) {
  const started = performance.now();
  performance.mark('edit-start');
  return enqueue(async () => {
    let proposal;
    try {
      proposal = make(state.doc);
    } catch (err) {
      refuse({ message: err.message, key: state.selected });
      return;
    }
    if (!proposal) return;
    const answer = await (prefetched(proposal.doc, options) || runTree(proposal.doc, options, proposal.edit));
    if (answer.error) {
      refuse(answer.error, proposal);
      onRefused?.(answer.error);
      return;
    }
    performance.mark('edit-answered');
    if (history && state.doc) {
      state.undo.push({ doc: state.doc, select: state.selected });
      if (state.undo.length > MAX_UNDO) state.undo.shift();
      state.redo.length = 0;
    }
    state.options = options;
    accept(proposal.doc, answer, proposal.select ?? state.selected);
    performance.mark('edit-drawn');
    frameAfter(started);
  });
}

/**
 * POST /api/edit/run for `doc`, compared with the accepted run (by its token;
 * the whole tree before only if the server no longer remembers it).
 */
async function runTree(doc, options, edit) {
  const body = { tree: doc, options: wire(options), edit, text: yamlShown() ? 'all' : 'notation' };
  if (state.token) body.previous_state = state.token;
  let answer = await post('/api/edit/run', body);
  if (answer.previous_missing && state.doc) {
    answer = await post('/api/edit/run', { ...body, previous_state: undefined, previous: state.doc });
  }
  return answer;
}

const yamlShown = () => $('details.yaml').open;

// -- what if, while typing --------------------------------------------------------
// A value or eval being typed is sent ahead (one request at a time, the latest
// text winning): by the time Enter commits it, the server's answer for that
// very tree is usually in, and the edit is drawn in the next frame. Answers are
// kept per tree, options and accepted run, so only an exact match is used.
const ahead = { answers: new Map(), flying: false, wanted: null };

const aheadKey = (doc, options) => JSON.stringify([state.token, wire(options), doc]);

function prefetch(doc, options, edit) {
  if (page.dataset.ahead === 'off') return;   // bench/editor.py measures without it too
  const key = aheadKey(doc, options);
  if (ahead.answers.has(key)) return;
  ahead.wanted = { key, doc, options, edit };
  if (!ahead.flying) sendAhead();
}

function sendAhead() {
  const w = ahead.wanted;
  ahead.wanted = null;
  if (!w || !state.doc) return;
  ahead.flying = true;
  const answer = runTree(w.doc, w.options, w.edit);
  ahead.answers.set(w.key, answer);
  while (ahead.answers.size > 8) ahead.answers.delete(ahead.answers.keys().next().value);
  answer.finally(() => { ahead.flying = false; sendAhead(); });
}

/** The answer sent ahead for exactly this tree and these options (a promise), or null. */
function prefetched(doc, options) {
  return ahead.answers.get(aheadKey(doc, options)) || null;
}

/** The accepted tree's YAML (asked for when first needed: it is shown or saved). */
async function yamlText() {
  if (state.yaml == null) {
    const answer = await post('/api/edit/run', { tree: state.doc, options: wire(state.options), text: 'all' });
    if (answer.error) throw new Error(answer.error.message);
    state.yaml = answer.yaml;
  }
  return state.yaml;
}

function wire(options) {
  const out = { strict: !!options.strict };
  if (options.algorithm) out.algorithm = options.algorithm;
  if (options.depth != null) out.depth = options.depth;
  return out;
}

/** Note when the frame that shows the edit starts (bench/editor.py reads it). */
function frameAfter(started) {
  requestAnimationFrame(() => {
    const now = performance.now();
    page.dataset.frameAt = now.toFixed(2);
    page.dataset.lastEditMs = (now - started).toFixed(2);
  });
}

function accept(doc, answer, select) {
  state.doc = doc;
  state.ids = answer.ids;
  state.result = answer.result;
  state.change = answer.change || null;
  state.yaml = answer.yaml ?? null;
  state.token = answer.state;
  ahead.answers.clear();
  state.notation = answer.notation;
  state.algorithms = answer.algorithms;
  const keys = new Set(Object.keys(answer.ids));
  for (const k of [...state.collapsed]) if (!keys.has(k)) state.collapsed.delete(k);
  state.selected = keys.has(select) ? select : D.walk(doc)[0].node.key;
  state.revision += 1;
  view.clearError();
  render();
}

function refuse(error, proposal) {
  // The node the error concerns, if it is drawn; else the node being edited.
  let key = error.key;
  if (!key || !(key in state.ids)) key = proposal?.edit?.key in state.ids ? proposal.edit.key : state.selected;
  view.showError(key != null ? idOf(key) : null, error.message);
  page.dataset.refusals = String(Number(page.dataset.refusals || 0) + 1);
  fillInspector();   // the fields show the accepted tree again
}

// -- drawing and panels --------------------------------------------------------
function render() {
  const json = D.drawingJson(state.doc, state.ids);
  const collapsed = new Set([...state.collapsed].map(idOf));
  view.draw(json, state.result, state.change, { collapsed, selected: idOf(state.selected) });
  page.dataset.revision = String(state.revision);
  $('#change').textContent = state.change?.sentence || (state.undo.length || state.redo.length ? '' : TEXT.started);
  showResult();
  fillOptions();
  fillInspector();
  fillText();
  $('[data-action=undo]').disabled = !state.undo.length;
  $('[data-action=redo]').disabled = !state.redo.length;
  $('[data-edit=title]').value = state.doc.title;
  $('[data-edit=players]').value = D.playersOf(state.doc).join(', ');
}

function showResult() {
  const r = state.result;
  const set = (name, text) => { $(`[data-result="${name}"]`).textContent = text; };
  set('value', show(r.value) || TEXT.none);
  set('best-move', r.best_move || TEXT.none);
  set('evaluated', `${r.stats.evaluated} ${TEXT.ofMinimax(r.stats.minimax_evaluated)}`);
  set('cutoffs', String(r.stats.cutoffs));
  set('saved', String(r.stats.saved));
  const note = $('[data-result="note"]');
  note.textContent = state.change ? '' : r.text;
  note.hidden = !note.textContent;
  if (state.change === null && state.revision > 1) note.hidden = true;
}

function fillOptions() {
  const form = $('#options');
  const select = form.elements.algorithm;
  const ran = state.result.options;
  const names = [...state.algorithms];
  if (!names.includes(ran.algorithm)) names.push(ran.algorithm);
  if (select.dataset.list !== names.join()) {
    select.replaceChildren(...names.map((a) => new Option(TEXT.algorithms[a] || a, a)));
    select.dataset.list = names.join();
  }
  select.value = ran.algorithm;
  form.elements.depth.value = ran.depth ?? '';
  form.elements.strict.value = ran.strict ? '1' : '0';
}

function selectedInfo() {
  const found = D.find(state.doc, state.selected);
  return found;
}

function fillInspector() {
  const found = selectedInfo();
  if (!found) return;
  const { node, parent, depth } = found;
  const panel = $('#inspector');
  $('[data-role=selected-id]').textContent = idOf(node.key);
  const leaf = !node.children;
  const chance = node.type === 'chance';
  const shown = {
    value: leaf, eval: !leaf, probability: parent?.type === 'chance',
    probabilities: chance, label: true, id: true, kind: true,
  };
  for (const [field, on] of Object.entries(shown)) $(`[data-for="${field}"]`, panel).hidden = !on;
  const kind = $('[data-edit=kind]', panel);
  const kinds = ['leaf', 'chance', ...D.playersOf(state.doc)];
  if (kind.dataset.list !== kinds.join()) {
    kind.replaceChildren(...kinds.map((k) => new Option(TEXT.kinds[k] || k, k)));
    kind.dataset.list = kinds.join();
  }
  kind.value = D.kindOf(state.doc, node, depth);
  const text = (v) => (v == null ? '' : Array.isArray(v) ? `[${v.join(', ')}]` : String(v));
  $('[data-edit=value]', panel).value = text(node.value);
  $('[data-edit=eval]', panel).value = text(node.eval);
  $('[data-edit=probability]', panel).value = text(node.probability);
  $('[data-edit=probabilities]', panel).value = chance ? node.children.map((c) => text(c.probability)).join(' ') : '';
  $('[data-edit=label]', panel).value = node.label ?? '';
  $('[data-edit=id]', panel).value = node.id ?? '';
  $('[data-edit=id]', panel).placeholder = node.id == null ? `${idOf(node.key)} (automatic)` : '';
  $('[data-action=collapse]').setAttribute('aria-pressed', String(state.collapsed.has(node.key)));
}

function fillText() {
  const notation = $('[data-notation]');
  if (document.activeElement !== notation || !notation.dataset.dirty) notation.value = state.notation;
  delete notation.dataset.dirty;
  const yaml = $('[data-yaml]');
  if (state.yaml != null && (document.activeElement !== yaml || !yaml.dataset.dirty)) yaml.value = state.yaml;
  delete yaml.dataset.dirty;
  for (const e of document.querySelectorAll('[data-text-error]')) { e.hidden = true; e.textContent = ''; }
}

function select(key) {
  if (key == null || !D.find(state.doc, key)) return;
  state.selected = key;
  view.select(idOf(key));
  fillInspector();
}

function showAlert(message) {
  const alert = $('#page-alert');
  alert.textContent = message || '';
  alert.hidden = !message;
}

// -- history -------------------------------------------------------------------
function undo() {
  enqueue(async () => {
    const entry = state.undo.pop();
    if (!entry) return;
    const answer = await runTree(entry.doc, state.options, { kind: 'undo' });
    if (answer.error) { state.undo.push(entry); refuse(answer.error); return; }
    state.redo.push({ doc: state.doc, select: state.selected });
    accept(entry.doc, answer, entry.select);
  });
}

function redo() {
  enqueue(async () => {
    const entry = state.redo.pop();
    if (!entry) return;
    const answer = await runTree(entry.doc, state.options, { kind: 'redo' });
    if (answer.error) { state.redo.push(entry); refuse(answer.error); return; }
    state.undo.push({ doc: state.doc, select: state.selected });
    accept(entry.doc, answer, entry.select);
  });
}

// -- actions -------------------------------------------------------------------
const ACTIONS = {
  'add-child': () => edit((doc) => D.addChild(doc, state.selected)),
  'add-sibling': () => edit((doc) => D.addSibling(doc, state.selected)),
  delete: () => edit((doc) => D.remove(doc, state.selected)),
  undo, redo,
  collapse: () => toggleCollapse(state.selected),
  'best-order': bestOrder,
  save: () => share('visualizer'),
  'apply-yaml': applyYaml,
};

function toggleCollapse(key) {
  const found = D.find(state.doc, key);
  if (!found?.node.children) return;
  if (state.collapsed.has(key)) state.collapsed.delete(key); else state.collapsed.add(key);
  render();
}

function bestOrder() {
  enqueue(async () => {
    const answer = await post('/api/edit/best-order', { tree: state.doc, options: wire(state.options) });
    if (answer.error) { refuse(answer.error); return; }
    edit((doc) => D.reorder(doc, answer.order, state.selected));
  });
}

for (const button of document.querySelectorAll('[data-action]')) {
  const act = ACTIONS[button.dataset.action];
  if (act) button.addEventListener('click', () => act());
}

// The inspector: a field is committed on change (Enter or leaving it).
for (const field of ['value', 'eval', 'probability', 'label', 'id']) {
  const input = $(`[data-edit="${field}"]`);
  input.addEventListener('change', () => {
    const key = state.selected;
    edit((doc) => D.setField(doc, key, field, input.value));
  });
  if (field === 'value' || field === 'eval') {
    input.addEventListener('input', () => {
      if (!state.doc || busy) return;
      const proposal = D.setField(state.doc, state.selected, field, input.value);
      prefetch(proposal.doc, state.options, proposal.edit);
    });
  }
}
$('[data-edit=probabilities]').addEventListener('change', (e) => {
  const key = state.selected;
  edit((doc) => D.setProbabilities(doc, key, e.target.value));
});
$('[data-edit=kind]').addEventListener('change', (e) => {
  const key = state.selected;
  const depth = D.find(state.doc, key).depth;
  edit((doc) => D.setKind(doc, key, e.target.value, depth));
});
$('[data-edit=title]').addEventListener('change', (e) => {
  const title = e.target.value.trim();
  if (title) edit((doc) => D.setTitle(doc, title, state.selected));
});
$('[data-edit=players]').addEventListener('change', (e) => {
  const names = e.target.value.split(/[,\s]+/).map((s) => s.trim()).filter(Boolean);
  edit((doc) => D.setPlayers(doc, names, state.selected), {
    options: { ...state.options, algorithm: names.length > 2 ? 'maxn' : null },
  });
});

// The search options: a change re-runs the same tree (refused: the old option stays).
$('#options').addEventListener('change', () => {
  const form = $('#options');
  const depthText = form.elements.depth.value.trim();
  const options = {
    algorithm: form.elements.algorithm.value || null,
    depth: depthText === '' ? null : Math.max(0, Math.floor(Number(depthText))),
    strict: form.elements.strict.value === '1',
  };
  edit((doc) => ({ doc, select: state.selected, edit: { kind: 'options', key: null } }), {
    history: false, options, onRefused: fillOptions,
  });
});

// -- the text boxes --------------------------------------------------------------
const notationBox = $('[data-notation]');
notationBox.addEventListener('input', () => { notationBox.dataset.dirty = '1'; });
notationBox.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); applyText('notation'); }
});
notationBox.addEventListener('change', () => applyText('notation'));
const yamlBox = $('[data-yaml]');
yamlBox.addEventListener('input', () => { yamlBox.dataset.dirty = '1'; });
yamlBox.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); applyYaml(); }
});

function applyYaml() { applyText('yaml'); }

function applyText(format) {
  const box = format === 'notation' ? notationBox : yamlBox;
  const text = box.value;
  if (text === (format === 'notation' ? state.notation : state.yaml)) return;
  const errorEl = $(`[data-text-error="${format}"]`);
  enqueue(async () => {
    const answer = await post('/api/edit/parse', { text, format });
    if (answer.error) {
      errorEl.textContent = TEXT.textError(answer.error);
      errorEl.hidden = false;
      return;
    }
    const merged = D.mergeText(state.doc, state.ids, answer.tree, { notation: format === 'notation', text });
    edit(() => ({ ...merged, select: state.selected }), {
      onRefused: (err) => { errorEl.textContent = err.message; errorEl.hidden = false; },
    });
  });
}

// -- keyboard ------------------------------------------------------------------
document.addEventListener('keydown', (e) => {
  const typing = e.target.closest?.('input, textarea, select, [contenteditable]');
  const mod = e.ctrlKey || e.metaKey;
  if (mod && !typing && (e.key === 'z' || e.key === 'Z')) {
    e.preventDefault();
    if (e.shiftKey) redo(); else undo();
    return;
  }
  if (mod && !typing && (e.key === 'y' || e.key === 'Y')) { e.preventDefault(); redo(); return; }
  if (typing || mod || e.altKey && !e.key.startsWith('Arrow') || !state.doc) return;
  const found = selectedInfo();
  if (!found) return;
  const { node, parent, index } = found;
  const go = (n) => { if (n) { e.preventDefault(); select(n.key); } };
  switch (e.key) {
    case 'ArrowUp': go(parent); break;
    case 'ArrowDown':
      if (node.children && state.collapsed.has(node.key)) toggleCollapse(node.key);
      go(node.children?.[0]); break;
    case 'ArrowLeft':
      if (e.altKey && parent) { e.preventDefault(); edit((doc) => D.move(doc, node.key, index - 1)); } else go(parent?.children[index - 1]);
      break;
    case 'ArrowRight':
      if (e.altKey && parent) { e.preventDefault(); edit((doc) => D.move(doc, node.key, index + 1)); } else go(parent?.children[index + 1]);
      break;
    case 'a': case 'A': case 'Insert': e.preventDefault(); ACTIONS['add-child'](); break;
    case 's': case 'S': e.preventDefault(); ACTIONS['add-sibling'](); break;
    case 'Delete': case 'Backspace': e.preventDefault(); ACTIONS.delete(); break;
    case 'c': case 'C': e.preventDefault(); toggleCollapse(node.key); break;
    case 'Enter': case 'F2': {
      e.preventDefault();
      const input = $(node.children ? '[data-edit=eval]' : '[data-edit=value]');
      input.focus();
      input.select();
      break;
    }
    default:
  }
});

// -- keep and share ------------------------------------------------------------
function download(link, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  link.href = url;
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
$('[data-download=yaml]').addEventListener('click', (e) => {
  const link = e.currentTarget;
  if (link.dataset.ready) { delete link.dataset.ready; return; }   // the click below
  e.preventDefault();
  enqueue(async () => {
    download(link, await yamlText(), 'text/yaml');
    link.download = `${slug(state.doc.title)}.yaml`;
    link.dataset.ready = '1';
    link.click();
  });
});
$('details.yaml').addEventListener('toggle', () => {
  if (yamlShown() && state.yaml == null) enqueue(async () => { await yamlText(); fillText(); });
});
$('[data-download=json]').addEventListener('click', (e) => {
  download(e.currentTarget, `${JSON.stringify(D.fileData(state.doc), null, 2)}\n`, 'application/json');
  e.currentTarget.download = `${slug(state.doc.title)}.json`;
});
const slug = (s) => (s || 'tree').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'tree';

for (const button of document.querySelectorAll('[data-share]')) {
  button.addEventListener('click', () => share(button.dataset.share));
}

/** Save the tree as an upload (the same content-derived id as uploading the file), then open it. */
function share(where) {
  enqueue(async () => {
    const res = await fetch('/api/trees', { method: 'POST', headers: { 'Content-Type': 'application/x-yaml' }, body: await yamlText() });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) { showAlert(TEXT.saveFailed(body.error?.message || `HTTP ${res.status}`)); return; }
    const id = body.id;
    const o = state.result.options;
    const query = new URLSearchParams({ algorithm: o.algorithm });
    if (o.depth != null) query.set('depth', o.depth);
    if (o.strict) query.set('strict', '1');
    if (where === 'practice') { location.assign(`/practice/${encodeURIComponent(id)}`); return; }
    if (where === 'class') {
      const made = await fetch('/api/classes', {
        method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ tree: id, algorithm: o.algorithm, depth: o.depth, strict: o.strict }),
      }).catch(() => null);
      const c = await made?.json().catch(() => ({}));
      if (made?.status === 201) {
        try { localStorage.setItem(`class-token:${c.code}`, c.instructor); } catch { /* the fragment carries it */ }
        location.assign(`/c/${encodeURIComponent(c.code)}/present#${encodeURIComponent(c.instructor)}`);
        return;
      }
      if (made && made.status !== 404) { showAlert(TEXT.classFailed(c?.error?.message || `HTTP ${made.status}`)); return; }
    }
    location.assign(`/t/${encodeURIComponent(id)}?${query}`);
  });
}

// -- starting ------------------------------------------------------------------
$('[data-start=file]').addEventListener('change', async (e) => {
  const file = e.target.files?.[0];
  if (!file) return;
  const text = await file.text();
  const format = /\.json$/i.test(file.name) ? 'json' : /\.ya?ml$/i.test(file.name) ? 'yaml' : null;
  e.target.value = '';
  enqueue(async () => {
    const answer = await post('/api/edit/parse', { text, format });
    if (answer.error) { showAlert(TEXT.loadFailed(TEXT.textError(answer.error))); return; }
    const doc = D.fromTreeJson(answer.tree);
    edit(() => ({ doc, select: doc.root.key, edit: { kind: 'text', key: null } }), {
      options: { algorithm: null, depth: null, strict: false },
    });
  });
});

async function start() {
  const id = page.dataset.tree;
  let doc = D.emptyDoc();
  if (id) {
    const res = await fetch(`/api/trees/${encodeURIComponent(id)}`);
    const json = await res.json().catch(() => ({}));
    if (!res.ok) { showAlert(TEXT.loadFailed(json.error?.message || `HTTP ${res.status}`)); return; }
    doc = D.fromTreeJson(json);
  }
  edit(() => ({ doc, select: doc.root.key, edit: null }), { history: false });
}

start();
