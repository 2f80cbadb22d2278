// The edited document (editor-doc.js) as the loader would build its tree:
// the ids it would make for the unnamed nodes (app/treefile/build.py), the
// players to move, values, evals and probabilities read, for the page's own
// what-if run (localsearch.js). Only what the page is sure the loader
// accepts: a strict subset of its rules (app/treefile/build.py, fields.py,
// app/whatif/document.py); null for anything else (a field it is unsure of,
// text it might refuse, more than 1,000 nodes), and the server decides. No
// DOM here.

import { ALGORITHMS, algorithm as record } from './algorithms.js';

const MAX_NODES = 1000;      // beyond this the server answers (its budget: 2,000 nodes)
const MAX_DEPTH = 200;
const MAX_NUMBER = 1e15;
const MAX_KEY = 40;
const MAX_ID = 64;
const MAX_TEXT = 200;        // a title's and a label's length
const MAX_PLAYER_NAME = 32;
const MAX_PLAYERS = 26;
const NODE_KEYS = new Set(['key', 'id', 'label', 'player', 'type', 'probability', 'eval', 'value', 'children']);
// Top-level fields taken as the accepted tree had them (the server checked them).
const KEPT_TOP = ['source', 'description', 'depth', 'translations'];
const TOP_KEYS = new Set(['title', 'players', 'algorithm', 'bounds', 'root', ...KEPT_TOP]);
const SAFE_ID = /^[A-Za-z0-9_.'#+-]+$/;
// Text the loader may refuse: controls, bidirectional controls, UTF-16 halves.
const UNSAFE_TEXT = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]/;
const FRACTION = /^([0-9]{1,15})\/([0-9]{1,15})$/;

const isObject = (x) => typeof x === 'object' && x !== null && !Array.isArray(x);
const has = (obj, k) => obj[k] !== undefined;     // JSON drops undefined fields
const safeText = (s, most) => typeof s === 'string' && s.length <= most && !UNSAFE_TEXT.test(s);
const number = (x) => typeof x === 'number' && Number.isFinite(x) && Math.abs(x) <= MAX_NUMBER;

/** A value or eval: a number (two players) or one number per player (more). */
function readValue(v, n) {
  if (n === 2) return number(v) ? v : undefined;
  return Array.isArray(v) && v.length === n && v.every(number) ? v : undefined;
}

function readProbability(p) {
  let x;
  if (typeof p === 'number') x = p;
  else if (typeof p === 'string') {
    const m = FRACTION.exec(p);
    if (!m || Number(m[2]) === 0) return undefined;
    x = Number(m[1]) / Number(m[2]);
  } else return undefined;
  return Number.isFinite(x) && x >= 0 && x <= 1 ? x : undefined;
}

function readPlayers(doc) {
  if (!has(doc, 'players') || doc.players === null) return ['MAX', 'MIN'];
  const names = doc.players;
  if (!Array.isArray(names) || names.length < 2 || names.length > MAX_PLAYERS) return null;
  for (const name of names) {
    if (!safeText(name, MAX_PLAYER_NAME) || !name.trim() || name === 'CHANCE') return null;
  }
  return new Set(names).size === names.length ? names : null;
}

const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The tree of `doc` as the loader would build it (ids made where absent, as
 * app/treefile/build.py makes them), or null when the loader might refuse it
 * (or it is not sure). `accepted`: a document the server accepted, whose
 * top-level fields other than the title, players and algorithm this one keeps.
 */
export function buildTree(doc, accepted) {
  if (!isObject(doc) || !isObject(doc.root)) return null;
  for (const k of Object.keys(doc)) if (has(doc, k) && !TOP_KEYS.has(k)) return null;
  for (const k of KEPT_TOP) if (!same(doc[k], accepted?.[k])) return null;
  if (!safeText(doc.title, MAX_TEXT) || !doc.title.trim()) return null;
  const players = readPlayers(doc);
  if (!players) return null;
  const n = players.length;
  let algorithm = null;
  if (doc.algorithm != null) {
    algorithm = doc.algorithm;
    if (!ALGORITHMS.includes(algorithm) || (n > 2 && record(algorithm).players === 'two')) return null;
  }
  const nodes = [];          // records, in preorder
  const keys = new Set(), given = new Set();
  const stack = [[doc.root, null, 1]];
  while (stack.length) {
    const [item, parent, index] = stack.pop();
    const depth = parent ? parent.depth + 1 : 0;
    if (!isObject(item) || depth > MAX_DEPTH || nodes.length >= MAX_NODES) return null;
    for (const k of Object.keys(item)) {
      if (!has(item, k)) continue;
      if (!NODE_KEYS.has(k) || item[k] === null) return null;
    }
    const { key } = item;
    if (typeof key !== 'string' || !key.length || key.length > MAX_KEY || keys.has(key)) return null;
    keys.add(key);
    const rec = {
      key, id: null, label: null, player: depth % n, depth, parent, index, children: [],
      value: null, eval: null, chance: false, probability: null,
    };
    if (has(item, 'id')) {
      if (typeof item.id !== 'string' || item.id.length > MAX_ID || !SAFE_ID.test(item.id)
          || given.has(item.id)) return null;
      rec.id = item.id;
      given.add(item.id);
    }
    if (has(item, 'label')) {
      if (!safeText(item.label, MAX_TEXT)) return null;
      rec.label = item.label;
    }
    if (has(item, 'type')) {
      if (item.type !== 'chance') return null;
      rec.chance = true;
    }
    if (has(item, 'player')) {
      const p = players.indexOf(item.player);
      if (rec.chance || typeof item.player !== 'string' || p < 0) return null;
      rec.player = p;
    }
    const underChance = parent !== null && parent.chance;
    if (underChance !== has(item, 'probability')) return null;
    if (underChance) {
      rec.probability = readProbability(item.probability);
      if (rec.probability === undefined) return null;
    }
    const kids = item.children;
    if (kids !== undefined) {
      if (!Array.isArray(kids) || !kids.length || has(item, 'value')) return null;
      if (has(item, 'eval')) {
        rec.eval = readValue(item.eval, n);
        if (rec.eval === undefined) return null;
      }
      for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], rec, i + 1]);
    } else {
      if (rec.chance || has(item, 'eval') || !has(item, 'value')) return null;
      rec.value = readValue(item.value, n);
      if (rec.value === undefined) return null;
    }
    if (parent) parent.children.push(rec);
    nodes.push(rec);
  }
  for (const rec of nodes) {
    if (!rec.chance) continue;
    const total = rec.children.reduce((s, c) => s + c.probability, 0);
    if (Math.abs(total - 1) > 1e-10) return null;    // (the loader allows 1e-9 of an exact sum)
  }
  // `bounds: [L, U]` (build.py _bounds, _within): two numbers L < U holding every leaf value.
  let bounds = null;
  if (has(doc, 'bounds')) {
    const b = doc.bounds;
    if (!Array.isArray(b) || b.length !== 2 || !b.every(number) || !(b[0] < b[1])) return null;
    for (const r of nodes) {
      const v = Array.isArray(r.value) ? r.value[0] : r.value;
      if (!r.children.length && !(b[0] <= v && v <= b[1])) return null;
    }
    bounds = b;
  }
  nameNodes(nodes, given);
  const chance = nodes.some((r) => r.chance);
  const tree = {
    root: nodes[0], nodes, players, multiplayer: n > 2, chance, algorithm, bounds,
    height: Math.max(...nodes.map((r) => r.depth)),
    // (Two players: every value is a number; more: every value is a vector.)
    scalarLeaf: n === 2 ? nodes.find((r) => !r.children.length) : null,
    ids: {},
  };
  for (const r of nodes) tree.ids[r.key] = r.id;
  return tree;
}

/** Ids for the unnamed nodes, as the loader gives them (build.py `name`). */
function nameNodes(nodes, given) {
  const used = new Set(given);
  const inner = nodes.filter((r) => r.id == null && r.children.length);
  const letters = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].filter((c) => !used.has(c));
  if (inner.length <= letters.length) {
    inner.sort((a, b) => a.depth - b.depth);      // stable: breadth-first order
    inner.forEach((r, i) => { r.id = letters[i]; used.add(letters[i]); });
  }
  const prefixes = new Map();
  nodes.forEach((rec, number) => {
    if (rec.id != null) return;
    const parent = rec.parent;
    let wanted;
    if (!parent) wanted = 'A';
    else {
      let prefix = prefixes.get(parent);
      if (prefix === undefined) {
        prefix = /^[A-Z]$/.test(parent.id) ? parent.id.toLowerCase() : `${parent.id}.`;
        prefixes.set(parent, prefix);
      }
      wanted = prefix + rec.index;
      if (wanted.length > MAX_ID) wanted = `n${number}`;
    }
    if (used.has(wanted)) {
      let k = 2;
      while (used.has(`${wanted}_${k}`)) k += 1;
      wanted = `${wanted}_${k}`;
    }
    rec.id = wanted;
    used.add(wanted);
  });
}
