// The tree being edited, as plain data: the structure of a tree file
// (contract §1) where every node also has a `key` that stays with it while
// ids change. Every edit here returns a NEW document (the old one is kept
// whole for undo) and never checks the loader's rules: the server does, with
// the loader itself (app/whatif), and a refused edit is simply not kept.
// (Conversions to and from tree JSON and text: editor-convert.js.) No DOM here.

import { t } from '../core/i18n.js';
import { algorithm as record } from '../core/algorithms.js';

// Words shown to people, kept together.
export const TEXT = {
  rootSibling: t('The root has no siblings: add a child instead.'),
  newTitle: t('New tree'),
};

let counter = 0;
/** A key no node of the page has had yet. */
export function newKey() {
  counter += 1;
  return `n${counter}`;
}

/** A fresh document: one leaf, the root. */
export function emptyDoc(title = TEXT.newTitle) {
  return { title, root: { key: newKey(), value: 0 } };
}

/** Deep copy (documents are small plain data). */
export function clone(doc) {
  return structuredClone(doc);
}

export const NODE_FIELDS = ['id', 'label', 'player', 'type', 'probability', 'eval', 'value'];
export const TOP_FIELDS = ['title', 'source', 'description', 'algorithm', 'depth', 'players', 'bounds', 'translations'];

/** Every node in preorder, with its parent and depth: [{node, parent, depth}]. */
export function walk(doc) {
  const out = [];
  const stack = [[doc.root, null, 0]];
  while (stack.length) {
    const [node, parent, depth] = stack.pop();
    out.push({ node, parent, depth });
    const kids = node.children || [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], node, depth + 1]);
  }
  return out;
}

/** {node, parent, depth, index} of the node with `key` in `doc`, or null. */
export function find(doc, key) {
  for (const { node, parent, depth } of walk(doc)) {
    if (node.key === key) return { node, parent, depth, index: parent ? parent.children.indexOf(node) : 0 };
  }
  return null;
}

export function playersOf(doc) {
  return doc.players?.length ? doc.players : ['MAX', 'MIN'];
}

/** A leaf value of the right shape: a number, or one number per player. */
function zeroValue(doc) {
  const n = playersOf(doc).length;
  return n > 2 ? new Array(n).fill(0) : 0;
}

const isFraction = (s) => /^\s*\d+\s*\/\s*\d+\s*$/.test(s);

/** A probability as typed: "1/3" stays a fraction (the loader reads it), "0.5" a number. */
export function readProbability(text) {
  const s = String(text).trim();
  if (isFraction(s)) return s.replace(/\s+/g, '');
  const x = Number(s);
  return s !== '' && Number.isFinite(x) ? x : s;
}

/** A value as typed: a number, a vector "[1, 2, 6]" / "1 2 6", else the text (the loader says why not). */
export function readValue(text) {
  const s = String(text).trim();
  const inner = s.replace(/^\[|\]$/g, '');
  const parts = inner.split(/[\s,;]+/).filter(Boolean);
  if (parts.length > 1 || s.startsWith('[')) {
    const nums = parts.map(Number);
    return nums.every(Number.isFinite) && nums.length ? nums : s;
  }
  const x = Number(s);
  return s !== '' && Number.isFinite(x) ? x : s;
}

export function probabilityNumber(p) {
  if (typeof p === 'number') return p;
  const m = /^(\d+)\/(\d+)$/.exec(String(p));
  return m ? Number(m[1]) / Number(m[2]) : NaN;
}

/** Give a chance node's children equal probabilities, written as fractions 1/n. */
export function evenOut(node) {
  const n = node.children.length;
  for (const c of node.children) c.probability = n === 1 ? 1 : `1/${n}`;
}

function allEqual(node) {
  const ps = node.children.map((c) => probabilityNumber(c.probability));
  return ps.every((p) => Math.abs(p - ps[0]) < 1e-12);
}

/** After a child was added to or removed from a chance node: equal shares stay
 * equal; otherwise the others are scaled to sum to 1 again. */
function rebalance(node, wasEqual) {
  if (!node.children.length) return;
  if (wasEqual) { evenOut(node); return; }
  const ps = node.children.map((c) => probabilityNumber(c.probability ?? 0));
  const total = ps.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  if (total > 0) node.children.forEach((c, i) => { c.probability = (Number.isFinite(ps[i]) ? ps[i] : 0) / total; });
}

function makeLeaf(doc, parent) {
  const leaf = { key: newKey(), value: zeroValue(doc) };
  if (parent?.type === 'chance') leaf.probability = 0;
  return leaf;
}

/** Turn a leaf into an inner node (its value and eval go). */
function makeInner(node) {
  delete node.value;
  if (!node.children) node.children = [];
}

/** Turn an inner node into a leaf (its subtree goes). */
function makeLeafNode(doc, node) {
  delete node.children;
  delete node.eval;
  delete node.type;
  delete node.player;
  node.value = zeroValue(doc);
}

// -- edits: (doc, key, ...) -> {doc, select, edit} --------------------------
// `edit` says what happened, for the sentence "changing c2 to 1 adds no cut".

export function addChild(doc0, key) {
  const doc = clone(doc0);
  const { node } = find(doc, key);
  const wasEqual = node.type === 'chance' && node.children?.length ? allEqual(node) : true;
  makeInner(node);
  const leaf = makeLeaf(doc, node);
  node.children.push(leaf);
  if (node.type === 'chance') rebalance(node, wasEqual);
  return { doc, select: leaf.key, edit: { kind: 'add-child', key: leaf.key } };
}

export function addSibling(doc0, key) {
  const doc = clone(doc0);
  const { parent, index } = find(doc, key);
  if (!parent) throw new Error(TEXT.rootSibling);
  const wasEqual = parent.type === 'chance' ? allEqual(parent) : true;
  const leaf = makeLeaf(doc, parent);
  parent.children.splice(index + 1, 0, leaf);
  if (parent.type === 'chance') rebalance(parent, wasEqual);
  return { doc, select: leaf.key, edit: { kind: 'add-sibling', key: leaf.key } };
}

/** Delete a subtree; the root's deletion leaves an empty root. */
export function remove(doc0, key) {
  const doc = clone(doc0);
  const { node, parent, index } = find(doc, key);
  if (!parent) {
    const fresh = { key: newKey(), value: zeroValue(doc) };
    doc.root = fresh;
    return { doc, select: fresh.key, edit: { kind: 'delete', key } };
  }
  const wasEqual = parent.type === 'chance' ? allEqual(parent) : true;
  parent.children.splice(index, 1);
  if (!parent.children.length) makeLeafNode(doc, parent);
  else if (parent.type === 'chance') rebalance(parent, wasEqual);
  const next = parent.children?.[Math.min(index, parent.children.length - 1)] || parent;
  void node;
  return { doc, select: next.key, edit: { kind: 'delete', key } };
}

/** Set one field (value, eval, probability, label, id) from what was typed. */
export function setField(doc0, key, field, text) {
  const doc = clone(doc0);
  const { node } = find(doc, key);
  const old = node[field];
  const s = String(text).trim();
  if (s === '' && field !== 'value') delete node[field];
  else if (field === 'value' || field === 'eval') node[field] = readValue(s);
  else if (field === 'probability') node[field] = readProbability(s);
  else node[field] = s;
  return { doc, select: key, edit: { kind: field, key, old: old ?? null, new: node[field] ?? null } };
}

/** Set all of a chance node's children's probabilities at once: "1/2 1/4 1/4". */
export function setProbabilities(doc0, key, text) {
  const doc = clone(doc0);
  const { node } = find(doc, key);
  const parts = String(text).trim().split(/[\s,;]+/).filter(Boolean);
  (node.children || []).forEach((c, i) => {
    if (i < parts.length) c.probability = readProbability(parts[i]);
  });
  return { doc, select: key, edit: { kind: 'probability', key, old: null, new: parts.join(' ') } };
}

/**
 * A node's kind: 'leaf', 'chance', or a player's name (MAX, MIN, or a max^n
 * name). A leaf made a decision or chance node gets two children.
 */
export function setKind(doc0, key, kind, depth) {
  const doc = clone(doc0);
  const { node } = find(doc, key);
  const old = kindOf(doc, node, depth);
  if (kind === 'leaf') {
    makeLeafNode(doc, node);
  } else {
    const wasLeaf = !node.children;
    makeInner(node);
    if (wasLeaf) node.children.push(makeLeaf(doc, node), makeLeaf(doc, node));
    if (kind === 'chance') {
      node.type = 'chance';
      delete node.player;
      evenOut(node);
    } else {
      if (node.type === 'chance') for (const c of node.children) delete c.probability;
      delete node.type;
      const players = playersOf(doc);
      if (players[depth % players.length] === kind) delete node.player;
      else node.player = kind;
    }
  }
  return { doc, select: key, edit: { kind: 'kind', key, old, new: kind === 'leaf' ? 'a leaf' : kind === 'chance' ? 'a chance node' : `a ${kind} node` } };
}

/** 'leaf', 'chance' or the name of the player to move at `node`. */
export function kindOf(doc, node, depth) {
  if (!node.children) return 'leaf';
  if (node.type === 'chance') return 'chance';
  const players = playersOf(doc);
  return node.player ?? players[depth % players.length];
}

/** Move a node to place `to` among its siblings. */
export function move(doc0, key, to) {
  const doc = clone(doc0);
  const { node, parent, index } = find(doc, key);
  if (!parent) return null;
  to = Math.max(0, Math.min(parent.children.length - 1, to));
  if (to === index) return null;
  parent.children.splice(index, 1);
  parent.children.splice(to, 0, node);
  return { doc, select: key, edit: { kind: 'move', key, old: index, new: to } };
}

/** Reorder children as the server's best ordering says ({parent key: [child keys]}). */
export function reorder(doc0, order, select) {
  const doc = clone(doc0);
  for (const { node } of walk(doc)) {
    const keys = order[node.key];
    if (!keys || !node.children) continue;
    const byKey = new Map(node.children.map((c) => [c.key, c]));
    node.children = keys.map((k) => byKey.get(k)).filter(Boolean);
  }
  return { doc, select, edit: { kind: 'best-order', key: null } };
}

/** New player names: values and evals take the new shape (a number for two
 * players, one number per player for more); a player override that no longer
 * exists goes. */
export function setPlayers(doc0, names, select) {
  const doc = clone(doc0);
  const n = names.length;
  const fit = (v) => {
    if (v == null) return v;
    if (n <= 2) return Array.isArray(v) ? (v[0] ?? 0) : v;
    const vec = Array.isArray(v) ? v.slice(0, n) : [v];
    while (vec.length < n) vec.push(0);
    return vec;
  };
  if (n === 2 && names[0] === 'MAX' && names[1] === 'MIN') delete doc.players;
  else doc.players = names;
  for (const { node } of walk(doc)) {
    if ('value' in node) node.value = fit(node.value);
    if ('eval' in node) node.eval = fit(node.eval);
    if (node.player != null && !names.includes(node.player)) delete node.player;
  }
  // (3+ players: only an algorithm of vectors, max^n, keeps its place)
  if (n > 2 && doc.algorithm && record(doc.algorithm)?.players !== 'vectors') delete doc.algorithm;
  return { doc, select, edit: { kind: 'players', key: null } };
}

export function setTitle(doc0, title, select) {
  const doc = clone(doc0);
  doc.title = title;
  return { doc, select, edit: { kind: 'edit', key: null } };
}
