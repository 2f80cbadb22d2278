// The page /edit and /edit/<id>: build and edit a tree by pointing and by
// keyboard, with the search re-run by the server after every edit (what
// if?). The page keeps the document (editor-doc.js) and its history; each
// edit is sent to POST /api/edit/run (editor-server.js), which checks it
// with the loader's rules and runs the core: an accepted edit is drawn with
// its result (editor-view.js, editor-panels.js), a refused one is not kept
// and its error is shown at its node.

import * as D from './editor-doc.js';
import { drawingJson, fromTreeJson, mergeText } from './editor-convert.js';
import { makeEditorView } from './editor-view.js';
import { fillInspector, fillOptions, fillText, showResult } from './editor-panels.js';
import { makeServer, post, wire } from './editor-server.js';
import { bindKeys } from './editor-keys.js';
import { bindSharing } from './editor-share.js';
import { t } from './i18n.js';

// Words shown to people, kept together.
const TEXT = {
  loadFailed: (m) => t('Could not open the tree: {reason}', { reason: m }),
  textError: (e) => (e.line ? t('line {line}, column {column}: {message}', e) : e.message),
  started: t('Click a node to select it, then add children, set values, drag to reorder: the search re-runs after every edit.'),
};

const MAX_UNDO = 1000;   // edits kept for undo (each a small copy of the tree)
const $ = (sel) => document.querySelector(sel);
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

const server = makeServer(state, {
  withYaml: () => $('details.yaml').open,
  aheadOff: () => page.dataset.ahead === 'off',   // bench/editor.py measures without it too
  useHttp: () => page.dataset.transport === 'http',   // ... and over HTTP beside the socket
});
const view = makeEditorView($('#tree'), $('#stage'), {
  onSelect: (id) => select(keyOf(id)),
  onMove: (id, to) => edit((doc) => D.move(doc, keyOf(id), to)),
  onBusy: (on) => hold(on ? 1 : -1),
});

const keyOf = (id) => Object.keys(state.ids).find((k) => state.ids[k] === id) ?? id;
const idOf = (key) => state.ids[key] ?? key;

// -- edits, one after another -----------------------------------------------------
let queue = Promise.resolve();
let busy = 0, editing = 0;
/** Count work under way (edits, the accessible tree following one): the page is aria-busy meanwhile. */
function hold(by) {
  busy += by;
  page.setAttribute('aria-busy', busy ? 'true' : 'false');
}
/** Run tasks one after another (an edit is made on the document the previous one left). */
function enqueue(task) {
  hold(1);
  editing += 1;
  queue = queue.then(task).catch((err) => showAlert(err.message)).finally(() => { editing -= 1; hold(-1); });
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
    const answer = await (server.prefetched(proposal.doc, options)
      || server.run(proposal.doc, options, proposal.edit));
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
    requestAnimationFrame(() => {   // the frame that shows the edit starts (bench/editor.py)
      const now = performance.now();
      page.dataset.frameAt = now.toFixed(2);
      page.dataset.lastEditMs = (now - started).toFixed(2);
      // ... and the page's part of drawing it is done (the first task after that frame).
      setTimeout(() => { page.dataset.frameDoneAt = performance.now().toFixed(2); });
    });
  });
}

function accept(doc, answer, select) {
  Object.assign(state, {
    doc, ids: answer.ids, result: answer.result, change: answer.change || null,
    yaml: answer.yaml ?? null, token: answer.state, notation: answer.notation,
    algorithms: answer.algorithms,
  });
  server.forget();
  const keys = new Set(Object.keys(answer.ids));
  for (const k of [...state.collapsed]) if (!keys.has(k)) state.collapsed.delete(k);
  state.selected = keys.has(select) ? select : D.walk(doc)[0].node.key;
  state.revision += 1;
  page.dataset.runVia = server.channel.last || '';   // socket or http (the tests look)
  view.clearError();
  render();
}

function refuse(error, proposal) {
  // The node the error concerns, if it is drawn; else the node being edited.
  let key = error.key;
  if (!key || !(key in state.ids)) key = proposal?.edit?.key in state.ids ? proposal.edit.key : state.selected;
  view.showError(key != null ? idOf(key) : null, error.message);
  page.dataset.refusals = String(Number(page.dataset.refusals || 0) + 1);
  fillInspector(state, idOf);   // the fields show the accepted tree again
}

function render() {
  const json = drawingJson(state.doc, state.ids);
  const collapsed = new Set([...state.collapsed].map(idOf));
  view.draw(json, state.result, state.change, { collapsed, selected: idOf(state.selected) });
  page.dataset.revision = String(state.revision);
  $('#change').textContent = state.change?.sentence || (state.undo.length || state.redo.length ? '' : TEXT.started);
  showResult(state);
  fillOptions(state);
  fillInspector(state, idOf);
  fillText(state);
  $('[data-action=undo]').disabled = !state.undo.length;
  $('[data-action=redo]').disabled = !state.redo.length;
  $('[data-edit=title]').value = state.doc.title;
  $('[data-edit=players]').value = D.playersOf(state.doc).join(', ');
}

function select(key) {
  if (key == null || !D.find(state.doc, key)) return;
  state.selected = key;
  view.select(idOf(key));
  fillInspector(state, idOf);
}

function showAlert(message) {
  const alert = $('#page-alert');
  alert.textContent = message || '';
  alert.hidden = !message;
}

// -- history -------------------------------------------------------------------
/** Go back (`from` the undo list) or forward (the redo list) one edit. */
function travel(from, to, kind) {
  enqueue(async () => {
    const entry = from.pop();
    if (!entry) return;
    const answer = await server.run(entry.doc, state.options, { kind });
    if (answer.error) { from.push(entry); refuse(answer.error); return; }
    to.push({ doc: state.doc, select: state.selected });
    accept(entry.doc, answer, entry.select);
  });
}
const undo = () => travel(state.undo, state.redo, 'undo');
const redo = () => travel(state.redo, state.undo, 'redo');

// -- actions -------------------------------------------------------------------
const sharing = bindSharing(state, { yamlText: server.yamlText, enqueue, showAlert });

const ACTIONS = {
  'add-child': () => edit((doc) => D.addChild(doc, state.selected)),
  'add-sibling': () => edit((doc) => D.addSibling(doc, state.selected)),
  delete: () => edit((doc) => D.remove(doc, state.selected)),
  undo, redo,
  collapse: () => toggleCollapse(state.selected),
  'best-order': bestOrder,
  save: sharing.save,
  'apply-yaml': () => applyText('yaml'),
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

bindKeys(state, {
  select, undo, redo,
  act: (name) => ACTIONS[name](),
  move: (key, to) => edit((doc) => D.move(doc, key, to)),
  collapse: toggleCollapse,
});

// The inspector: a field is committed on change (Enter or leaving it); a
// value or eval is asked ahead while it is typed.
for (const field of ['value', 'eval', 'probability', 'label', 'id']) {
  const input = $(`[data-edit="${field}"]`);
  input.addEventListener('change', () => {
    const key = state.selected;
    edit((doc) => D.setField(doc, key, field, input.value));
  });
  if (field === 'value' || field === 'eval') {
    input.addEventListener('input', () => {
      if (!state.doc || editing) return;
      const proposal = D.setField(state.doc, state.selected, field, input.value);
      server.prefetch(proposal.doc, state.options, proposal.edit);
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
    history: false, options, onRefused: () => fillOptions(state),
  });
});

// -- the text boxes: editing either side updates the other ----------------------
const boxes = { notation: $('[data-notation]'), yaml: $('[data-yaml]') };
for (const box of Object.values(boxes)) box.addEventListener('input', () => { box.dataset.dirty = '1'; });
boxes.notation.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); applyText('notation'); }
});
boxes.notation.addEventListener('change', () => applyText('notation'));
boxes.yaml.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); applyText('yaml'); }
});
$('details.yaml').addEventListener('toggle', () => {
  if ($('details.yaml').open && state.yaml == null) {
    enqueue(async () => { await server.yamlText(); fillText(state); });
  }
});

function applyText(format) {
  const text = boxes[format].value;
  if (text === state[format]) return;
  const errorEl = $(`[data-text-error="${format}"]`);
  const fail = (message) => { errorEl.textContent = message; errorEl.hidden = false; };
  enqueue(async () => {
    const answer = await post('/api/edit/parse', { text, format });
    if (answer.error) { fail(TEXT.textError(answer.error)); return; }
    const merged = mergeText(state.doc, state.ids, answer.tree, { notation: format === 'notation', text });
    edit(() => ({ ...merged, select: state.selected }), { onRefused: (err) => fail(err.message) });
  });
}

// -- starting: an empty root, a copy of a tree, a file -----------------------------
$('[data-start=file]').addEventListener('change', async (e) => {
  const file = e.target.files?.[0];
  if (!file) return;
  const text = await file.text();
  const format = /\.json$/i.test(file.name) ? 'json' : /\.ya?ml$/i.test(file.name) ? 'yaml' : null;
  e.target.value = '';
  enqueue(async () => {
    const answer = await post('/api/edit/parse', { text, format });
    if (answer.error) { showAlert(TEXT.loadFailed(TEXT.textError(answer.error))); return; }
    const doc = fromTreeJson(answer.tree);
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
    doc = fromTreeJson(json);
  }
  edit(() => ({ doc, select: doc.root.key, edit: null }), { history: false });
}

start();
