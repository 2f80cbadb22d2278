// The page /edit and /edit/<id>: build and edit a tree by pointing and by
// keyboard, with the search re-run after every edit (what if?). The page
// keeps the document (editor-doc.js) and its history; each edit is sent to
// the server (editor-server.js), which checks it with the loader's rules and
// runs the core: an accepted edit is drawn with its result (editor-view.js,
// editor-panels.js), a refused one is not kept and its error is shown at its
// node. A tree the page knows to be valid is searched in the page first
// (localsearch.js) and drawn in the frame after the edit; the server's
// answer follows, brings the sentence and the text, and where it differs
// (or refuses the edit) the page takes the server's.

import * as D from './editor-doc.js';
import { drawingJson, fromTreeJson, mergeText } from './editor-convert.js';
import { makeEditorView } from './editor-view.js';
import { fillInspector, fillOptions, fillText, showResult } from './editor-panels.js';
import { makeServer, post, wire } from './editor-server.js';
import { agrees, localRun } from '../core/localsearch.js';
import { buildTree } from '../core/localtree.js';
import { bindKeys } from './editor-keys.js';
import { bindSharing } from './editor-share.js';
import { makeDraft } from './editor-draft.js';
import { t, pageFetch } from '../core/i18n.js';

// Words shown to people, kept together.
const TEXT = {
  loadFailed: (m) => t('Could not open the tree: {reason}', { reason: m }),
  textError: (e) => (e.line ? t('line {line}, column {column}: {message}', e) : e.message),
  draft: (when) => t('Your edited draft from {when} is back (kept in this browser).', { when }),
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

// The last accepted tree, kept in this browser once the person has edited it.
const draft = makeDraft(page.dataset.tree);
const edited = () => state.undo.length > 0 || state.redo.length > 0;
const keepDraft = () => { if (edited()) draft.keep(state.doc, state.options); };

const keyOf = (id) => Object.keys(state.ids).find((k) => state.ids[k] === id) ?? id;
const idOf = (key) => state.ids[key] ?? key;

// -- edits, one after another -----------------------------------------------------
let queue = Promise.resolve();
let busy = 0, editing = 0;
// Edits drawn from the page's own search, waiting for the server's word:
// confirmed one after another (each run compared with the one before it).
let confirming = Promise.resolve();
let pending = 0;
let generation = 0;   // goes up when an edit is undone by the server's refusal: later ones go too
/** Count work under way (edits, the accessible tree following one): the page is aria-busy meanwhile. */
function hold(by) {
  busy += by;
  page.setAttribute('aria-busy', busy ? 'true' : 'false');
}
/**
 * Run tasks one after another (an edit is made on the document the previous
 * one left); a task starts once the edits drawn ahead are confirmed, unless
 * `ahead` (an edit that may itself be drawn ahead: it waits when it needs to).
 */
function enqueue(task, { ahead = false } = {}) {
  hold(1);
  editing += 1;
  const run = ahead ? task : async () => { await settled(); return task(); };
  queue = queue.then(run).catch((err) => showAlert(err.message)).finally(() => { editing -= 1; hold(-1); });
  return queue;
}

/** Once every edit drawn ahead has the server's word (a confirmation, or its refusal undone). */
async function settled() {
  while (pending) await confirming;
}

/**
 * Propose a new document: `make(doc)` -> {doc, select, edit} (or null: no
 * change). Kept only if the server accepts it; `history` false for undo/redo.
 */
function edit(make, { history = true, options = state.options, onRefused } = {}) {
  const started = performance.now();
  performance.mark('edit-start');
  return enqueue(async () => {
    const propose = () => {
      try {
        const made = make(state.doc);
        // (A rename or a typed text says which ids the nodes have.)
        const own = ['id', 'text'].includes(made?.edit?.kind);
        return made && (own ? made : { ...made, doc: keepIds(made.doc) });
      } catch (err) {
        refuse({ message: err.message, key: state.selected });
        return null;
      }
    };
    let proposal = propose();
    if (!proposal) return;
    // The server's answer, asked while the value was typed, may be here already: no need to search.
    const local = !server.arrived(proposal.doc, options) && searchHere(proposal.doc, options);
    if (local) {      // drawn now; the server's word follows
      const asked = server.prefetched(proposal.doc, options);
      const before = snapshot();
      if (history && state.doc) remember();
      state.options = options;
      acceptHere(proposal.doc, local, proposal.select ?? state.selected);
      shown(started);
      confirm({ before, doc: proposal.doc, options, edit: proposal.edit, local, asked, onRefused });
      return;
    }
    if (pending) {    // the server's way: on the tree the confirmed edits leave
      await settled();
      proposal = propose();
      if (!proposal) return;
    }
    const answer = await (server.prefetched(proposal.doc, options)
      || server.run(proposal.doc, options, proposal.edit));
    if (answer.error) {
      refuse(answer.error, proposal);
      onRefused?.(answer.error);
      return;
    }
    performance.mark('edit-answered');
    if (history && state.doc) remember();
    state.options = options;
    accept(proposal.doc, answer, proposal.select ?? state.selected);
    shown(started);
  }, { ahead: true });
}

function remember() {
  state.undo.push({ doc: state.doc, select: state.selected });
  if (state.undo.length > MAX_UNDO) state.undo.shift();
  state.redo.length = 0;
}

/** Note when the frame that shows the edit starts (bench/editor.py reads it). */
function shown(started) {
  performance.mark('edit-drawn');
  requestAnimationFrame(() => {
    const now = performance.now();
    page.dataset.frameAt = now.toFixed(2);
    page.dataset.lastEditMs = (now - started).toFixed(2);
    // ... and the page's part of drawing it is done (the first task after that frame).
    setTimeout(() => { page.dataset.frameDoneAt = performance.now().toFixed(2); });
  });
}

// -- the page's own search, and the server's word on it -------------------------------
/** The what-if run of `doc` made in the page, or null (not sure of the tree: ask the server). */
function searchHere(doc, options) {
  if (!state.doc || !state.result) return null;
  try {
    const local = localRun(doc, wire(options), { accepted: state.doc, before: { ids: state.ids, result: state.result } });
    if (local) performance.mark('edit-local');     // (bench/editor.py tells these edits apart)
    return local;
  } catch (err) {
    console.warn('the page could not search this tree; the server will', err);
    return null;
  }
}

/**
 * Automatic ids are given once: a node the loader named for its place keeps
 * that id when an edit moves it (or its siblings), written into the document
 * as its own (a node that changes between leaf and inner node is named anew). Only ids the edit would change are written, so the notation
 * shows an id only where the place no longer gives it. A tree the page is not
 * sure of (localtree.js) keeps the loader's naming.
 */
function keepIds(doc) {
  const before = state.ids;
  if (!before || !state.doc) return doc;
  // A leaf given children (or an inner node left without) is a new kind of
  // node: it takes the name its new place gives it, as a textbook names it (a1 becomes B over b1).
  const inner = new Map(D.walk(state.doc).map(({ node }) => [node.key, !!node.children?.length]));
  const copy = D.clone(doc);
  const written = new Set(D.walk(copy).map(({ node }) => node.id).filter((id) => id != null));
  let changed = false;
  // A node written its id gives its unnamed children theirs (b1 under B): again until none changes.
  for (let round = 0; round < 8; round++) {
    const built = buildTree(copy, state.doc);
    if (!built) return changed ? copy : doc;
    const moved = D.walk(copy).filter(({ node }) => node.id == null && before[node.key] != null
      && inner.get(node.key) === !!node.children?.length
      && built.ids[node.key] !== before[node.key] && !written.has(before[node.key]));
    if (!moved.length) break;
    // Top-most first: its children may get their old ids back from it.
    const top = Math.min(...moved.map((m) => m.depth));
    for (const { node, depth } of moved) {
      if (depth !== top) continue;
      node.id = before[node.key];
      written.add(node.id);
      changed = true;
    }
  }
  return changed ? copy : doc;
}

/** What an edit drawn ahead replaces (put back if the server refuses it). */
function snapshot() {
  const { doc, ids, result, change, notation, yaml, algorithms, options, selected } = state;
  return {
    doc, ids, result, change, notation, yaml, algorithms, options, selected,
    collapsed: new Set(state.collapsed), undo: [...state.undo], redo: [...state.redo],
  };
}

/** Draw the page's own run of `doc` (its sentence, text and token come with the server's answer). */
function acceptHere(doc, local, select) {
  accept(doc, { ...local, notation: state.notation, state: state.token }, select, 'local');
  state.yaml = null;          // asked again when needed: the server's YAML of this tree
  page.dataset.drawnAhead = String(Number(page.dataset.drawnAhead || 0) + 1);   // (the tests count)
}

/**
 * Ask the server about an edit drawn ahead (after the ones before it). Its
 * answer brings what the page does not make (the sentence in the reader's
 * language, the notation and YAML, the run's token); a result that differs
 * from the page's is drawn again as the server has it (counted in
 * data-local-disagreements); a refusal undoes the edit (and any made on it).
 */
function confirm(entry) {
  pending += 1;
  hold(1);
  const gen = generation;
  confirming = confirming.then(async () => {
    if (gen !== generation) return;
    const answer = await (entry.asked
      || server.run(entry.doc, entry.options, entry.edit, entry.before.doc));
    if (gen !== generation) return;
    if (answer.error) {
      generation += 1;
      const { before } = entry;
      Object.assign(state, before);
      state.revision += 1;
      server.forget();
      keepDraft();
      render();
      refuse(answer.error, entry);
      entry.onRefused?.(answer.error);
      return;
    }
    state.token = answer.state;
    server.forget();
    page.dataset.runVia = server.channel.last || '';
    const latest = state.doc === entry.doc;
    const agree = agrees(answer, entry.local);
    if (!agree) {
      page.dataset.localDisagreements = String(Number(page.dataset.localDisagreements || 0) + 1);
      console.warn('the page and the server differ on this edit; the server is followed');
    }
    if (!latest) return;          // a later edit's answer will say how things stand
    if (!agree) {
      accept(entry.doc, answer, state.selected);
      return;
    }
    Object.assign(state, {
      change: answer.change || null, notation: answer.notation, yaml: answer.yaml ?? null,
      result: answer.result, algorithms: answer.algorithms,
    });
    told();
    showResult(state);
    fillText(state);
  }).catch((err) => showAlert(err.message)).finally(() => { pending -= 1; hold(-1); });
}

function accept(doc, answer, select, via = server.channel.last) {
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
  page.dataset.runVia = via || '';   // local, socket or http (the tests look)
  view.clearError();
  stale(false);
  keepDraft();
  render();
}

/**
 * Mark the drawing as not the text's (a typed text the loader refused):
 * a note over the tree and the page's data-stale, until an edit is accepted.
 */
function stale(on) {
  const note = $('.stale-note');     // (not '[data-stale]': the page itself carries that hook while stale)
  if (note.hidden === !on) return;
  note.hidden = !on;
  page.toggleAttribute('data-stale', on);
  if (!on) for (const box of Object.values(boxes)) box.removeAttribute('aria-invalid');
}

/** The sentence of the last edit (an edit drawn ahead keeps the one before until its own comes). */
function told() {
  if (state.change && state.change.sentence == null) return;
  $('#change').textContent = state.change?.sentence || (state.undo.length || state.redo.length ? '' : TEXT.started);
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
  told();
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
  const started = performance.now();
  enqueue(async () => {
    const next = from.at(-1);
    const local = next && searchHere(next.doc, state.options);
    if (local) {
      const before = snapshot();
      from.pop();
      to.push({ doc: state.doc, select: state.selected });
      acceptHere(next.doc, local, next.select);
      shown(started);
      confirm({ before, doc: next.doc, options: state.options, edit: { kind }, local });
      return;
    }
    await settled();
    const entry = from.pop();
    if (!entry) return;
    const answer = await server.run(entry.doc, state.options, { kind });
    if (answer.error) { from.push(entry); refuse(answer.error); return; }
    to.push({ doc: state.doc, select: state.selected });
    accept(entry.doc, answer, entry.select);
    shown(started);
  }, { ahead: true });
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
      if (!state.doc || editing || pending) return;
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
  const fail = (message) => {
    errorEl.textContent = message;
    errorEl.hidden = false;
    boxes[format].setAttribute('aria-invalid', 'true');
    stale(true);
    // In view, next to the box (the panel may have been scrolled away from it).
    errorEl.scrollIntoView({ block: 'nearest' });
  };
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

async function start({ restore = true } = {}) {
  const kept = restore && draft.read();
  if (kept) {
    const doc = D.clone(kept.doc);
    for (const { node } of D.walk(doc)) node.key = D.newKey();   // this page's keys, not the last one's
    const options = { algorithm: null, depth: null, strict: false, ...kept.options };
    showDraft(kept.at);
    // A draft the server now refuses (a budget changed): start as the address says.
    edit(() => ({ doc, select: doc.root.key, edit: null }), {
      history: false, options, onRefused: () => { draft.drop(); showDraft(null); start({ restore: false }); },
    });
    return;
  }
  const id = page.dataset.tree;
  let doc = D.emptyDoc();
  if (id) {
    const res = await pageFetch(`/api/trees/${encodeURIComponent(id)}`);
    const json = await res.json().catch(() => ({}));
    if (!res.ok) { showAlert(TEXT.loadFailed(json.error?.message || `HTTP ${res.status}`)); return; }
    doc = fromTreeJson(json);
  }
  edit(() => ({ doc, select: doc.root.key, edit: null }), { history: false });
}

/** The note over a restored draft (`at`: when it was kept; null hides it). */
function showDraft(at) {
  const note = $('[data-draft]');
  note.hidden = at == null;
  if (at != null) {
    const when = new Date(at).toLocaleString(document.documentElement.lang || undefined,
      { dateStyle: 'medium', timeStyle: 'short' });
    note.querySelector('[data-role=draft-text]').textContent = TEXT.draft(when);
  }
}
$('[data-action=discard-draft]').addEventListener('click', () => {
  draft.drop();
  showDraft(null);
  state.undo.length = 0;
  state.redo.length = 0;
  start({ restore: false });
});

start();
