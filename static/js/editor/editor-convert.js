// The edited document (editor-doc.js) to and from what else speaks of the
// tree: the tree JSON of the API and of a parsed text (ids written), the
// drawing's input (treeview.js via readTree), and a tree file for download.
// No DOM here.

import {
  NODE_FIELDS, TEXT, TOP_FIELDS, evenOut, newKey, playersOf, probabilityNumber, walk,
} from './editor-doc.js';

/**
 * A document from tree JSON (GET /api/trees/<id>, or a parsed text): every
 * node gets a key; `named(id)` says whether to keep its id written (the
 * others are left for the loader to make, so they follow the tree's shape).
 */
export function fromTreeJson(json, named = () => true) {
  const doc = {};
  for (const f of TOP_FIELDS) if (json[f] != null && json[f] !== '') doc[f] = json[f];
  if (!doc.title) doc.title = TEXT.newTitle;
  const convert = (raw) => {
    if (typeof raw === 'number' || Array.isArray(raw)) raw = { value: raw };
    const node = { key: newKey() };
    for (const f of NODE_FIELDS) if (raw[f] != null) node[f] = raw[f];
    if (node.id != null && !named(node.id, raw)) delete node.id;
    return node;
  };
  doc.root = convert(json.root);
  const stack = [[json.root, doc.root]];
  while (stack.length) {
    const [raw, node] = stack.pop();
    if (raw && Array.isArray(raw.children)) {
      node.children = raw.children.map(convert);
      raw.children.forEach((c, i) => stack.push([c, node.children[i]]));
    }
  }
  return doc;
}

/**
 * A tree typed as text (parsed by the server: every id written) merged into
 * the document: a node whose id was already drawn keeps its key; an id is
 * written only where `text` wrote it and it was not the loader's before;
 * with `notation`, what the notation
 * cannot say (labels, evals, chance nodes, probabilities, players' turns) is
 * kept from the node of the same id.
 */
export function mergeText(doc0, ids, parsed, { notation = false, text = '' } = {}) {
  const byId = new Map();
  for (const { node } of walk(doc0)) byId.set(ids[node.key], node);
  const written = writtenIds(text, notation);
  const doc = fromTreeJson(parsed, (id) => {
    const old = byId.get(id);
    return written.has(id) && (!old || old.id != null);
  });
  if (notation) {
    for (const f of ['source', 'description', 'algorithm']) if (doc0[f] != null) doc[f] = doc0[f];
    doc.title = doc0.title;
    if (!parsed.players && doc0.players?.length === 2) doc.players = doc0.players;
  }
  // Walk both (the new document's nodes were made in the parsed tree's preorder).
  const parsedNodes = [];
  const stack = [parsed.root];
  while (stack.length) {
    const raw = stack.pop();
    parsedNodes.push(raw);
    const kids = raw.children || [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  walk(doc).forEach(({ node, parent }, i) => {
    const id = parsedNodes[i]?.id;
    const old = id != null ? byId.get(String(id)) : null;
    if (!old) return;
    node.key = old.key;
    if (!notation) return;
    if (old.label != null && node.label == null) node.label = old.label;
    if (old.player != null && node.children) node.player = old.player;
    if (old.children && node.children) {
      if (old.eval != null) node.eval = old.eval;
      if (old.type === 'chance') node.type = 'chance';
    }
    if (parent?.type === 'chance' && old.probability != null) node.probability = old.probability;
  });
  // A chance node whose children changed in number gets equal shares.
  if (notation) {
    for (const { node } of walk(doc)) {
      if (node.type === 'chance' && node.children?.some((c) => c.probability == null)) evenOut(node);
    }
  }
  return { doc, edit: { kind: 'text', key: null } };
}

/** The ids a text writes out (the parsed tree holds every id, made ones too). */
function writtenIds(text, notation) {
  const pattern = notation ? /([A-Za-z_][A-Za-z0-9_']*)\s*[(=]/g
    : /(?:^|[\s{,])"?id"?\s*:\s*["']?([^,}\s"'\]]+)/gm;
  return new Set([...text.matchAll(pattern)].map((m) => m[1]));
}

/**
 * The tree as the drawing reads it (readTree in tree.js): the document with
 * each node's id as the server named it, children of collapsed nodes kept.
 */
export function drawingJson(doc, ids) {
  const convert = (node) => {
    const out = { id: ids[node.key] ?? node.key };
    for (const f of ['label', 'player', 'type', 'probability', 'eval', 'value']) {
      if (node[f] != null) out[f] = f === 'probability' ? probabilityNumber(node[f]) : node[f];
    }
    return out;
  };
  const json = { players: playersOf(doc), title: doc.title, root: convert(doc.root) };
  const stack = [[doc.root, json.root]];
  while (stack.length) {
    const [node, out] = stack.pop();
    if (node.children) {
      out.children = node.children.map(convert);
      node.children.forEach((c, i) => stack.push([c, out.children[i]]));
    }
  }
  return json;
}

/** The document as a tree file's data (no keys): for downloads. */
export function fileData(doc) {
  const strip = (node) => {
    const out = {};
    for (const f of NODE_FIELDS) if (node[f] != null) out[f] = node[f];
    if (node.children) out.children = node.children.map(strip);
    return out;
  };
  const out = {};
  for (const f of TOP_FIELDS) if (doc[f] != null) out[f] = doc[f];
  out.root = strip(doc.root);
  return out;
}
