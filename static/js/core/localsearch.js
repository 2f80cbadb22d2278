// The editor's what-if run, in the page: the same search the server's core
// makes (app/search/algorithms.py, narrate.py: values, cut-offs, statuses,
// counts) and the same comparison with the run before the edit
// (app/whatif/compare.py, without its sentence), for the trees people edit
// by hand, so that an edit is drawn in the frame that follows it. The
// server's answer follows and stays authoritative: it checks the tree by the
// loader's rules, says the sentence in the reader's language, and where it
// differs from this the page takes the server's (editor.js, `agrees`).
// tests/editor/test_local_parity.py holds the two to the same results.
//
// localRun() answers only for a tree localtree.js is sure the loader
// accepts, with options the server would take, and not for iterative
// deepening; else it returns null and the page waits for the server as
// before. No DOM here.

import { buildTree } from './localtree.js';
import { ALGORITHMS, algorithm as record, defaultFor } from './algorithms.js';
const isObject = (x) => typeof x === 'object' && x !== null && !Array.isArray(x);
const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

// -- numbers as the core writes them (app/search/numbers.py jv) -------------------
/** A value rounded as jv() rounds it (whole numbers kept, 12 significant digits), infinities kept. */
function round(x) {
  if (x == null) return x;
  if (Array.isArray(x)) return x.map(round);
  if (!Number.isFinite(x) || (Number.isInteger(x) && Math.abs(x) < 2 ** 53)) return x;
  return Number(x.toPrecision(12));
}
/** A rounded value as strict JSON: infinities as "inf" / "-inf". */
function out(x) {
  if (Array.isArray(x)) return x.map(out);
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return x;
}
const jv = (x) => out(round(x));

// -- the options (app/search/options.py, app/whatif/__init__.py) --------------------
function defaultAlgorithm(tree) {
  return tree.algorithm || defaultFor(tree.multiplayer, tree.chance);
}

/** Does SearchOptions(algorithm, depth).check(tree) pass? */
function fits(tree, algorithm, depth) {
  const a = record(algorithm);     // (app/search/descriptors.py; options.py's check)
  if (tree.multiplayer && a.players !== 'vectors') return false;
  if (a.players === 'vectors' && tree.scalarLeaf) return false;
  if (tree.chance && a.chance === 'refuses') return false;
  if (a.leaf_bounds && !tree.bounds) return false;
  const missing = new Set();     // depths of inner nodes without an eval
  for (const r of tree.nodes) if (r.children.length && r.eval == null) missing.add(r.depth);
  if (a.evals === 'every') {
    const deepest = Math.max(depth ?? tree.height, 1);
    for (let limit = 1; limit <= deepest; limit++) if (missing.has(limit)) return false;
    return true;
  }
  return depth == null || !missing.has(depth);
}

/** The algorithms that fit the tree without a depth limit, its default first. */
export function algorithmsFor(tree) {
  // (only those whose record offers the what-if: options.py's algorithms_for)
  const found = ALGORITHMS.filter((a) => (record(a).chance !== 'accepts' || tree.chance)
    && record(a).whatif !== false && fits(tree, a, null));
  const first = defaultAlgorithm(tree);
  return [...found.filter((a) => a === first), ...found.filter((a) => a !== first)];
}

/** The page's options, read and fitted as the server does; null if it would refuse them. */
function fitOptions(tree, raw, fitting) {
  raw = raw || {};
  if (!isObject(raw) || Object.keys(raw).some((k) => !['algorithm', 'depth', 'strict', 'order'].includes(k))) return null;
  let algorithm = raw.algorithm || null;
  const order = raw.order || 'given';
  if ((algorithm !== null && !ALGORITHMS.includes(algorithm)) || !['given', 'best', 'worst'].includes(order)) return null;
  const depth = raw.depth ?? null;
  if (depth !== null && !(Number.isInteger(depth) && depth >= 0 && depth <= 10000)) return null;
  let note = null;
  // (app/whatif: an algorithm of every depth is kept, and refused at the node without an eval)
  const extra = ALGORITHMS.filter((a) => record(a).evals === 'every' && !tree.multiplayer
    && (!tree.chance || record(a).chance === 'accepts'));
  if (algorithm === null) algorithm = fitting[0] ?? defaultAlgorithm(tree);
  else if (fitting.length && !fitting.includes(algorithm) && !extra.includes(algorithm)) {
    note = `${algorithm} does not fit this tree: using ${fitting[0]}`;
    algorithm = fitting[0];
  }
  if (!fits(tree, algorithm, depth)) return null;     // refused at its node: the server says so
  return { algorithm, depth, order, strict: raw.strict === true, note };
}

// -- orderings (app/search/ordering.py) -----------------------------------------------
const scalar = (v) => (Array.isArray(v) ? v[0] : v);

function trueValues(tree, limit) {
  const values = new Map();
  for (let i = tree.nodes.length - 1; i >= 0; i--) {     // children before their parent
    const r = tree.nodes[i];
    if (!r.children.length) { values.set(r, tree.multiplayer ? r.value : scalar(r.value)); continue; }
    if (limit != null && r.depth >= limit) { values.set(r, tree.multiplayer ? r.eval : scalar(r.eval)); continue; }
    const kids = r.children.map((c) => values.get(c));
    let v;
    if (r.chance) v = r.children.reduce((s, c, k) => s + c.probability * kids[k], 0);
    else if (tree.multiplayer) {
      v = kids[0];
      for (const x of kids.slice(1)) if (x[r.player] > v[r.player]) v = x;
    } else v = r.player === 0 ? Math.max(...kids) : Math.min(...kids);
    values.set(r, v);
  }
  return values;
}

function makeOrder(tree, order, limit) {
  if (order === 'given') return null;
  const values = trueValues(tree, limit);
  const cache = new Map();
  return (r) => {
    let kids = cache.get(r);
    if (kids) return kids;
    if (r.chance) kids = r.children;
    else {
      const p = r.player;
      const base = tree.multiplayer ? (c) => -values.get(c)[p]
        : p === 0 ? (c) => -scalar(values.get(c)) : (c) => scalar(values.get(c));
      const key = order === 'worst' ? (c) => -base(c) : base;
      kids = [...r.children].sort((a, b) => { const x = key(a), y = key(b); return x < y ? -1 : x > y ? 1 : 0; });
    }
    cache.set(r, kids);
    return kids;
  };
}

// -- the search, and what it leaves (algorithms.py, narrate.py, whatif/result.py) ------
/** The record of a run: each node's final view, the lists and counts of `done`. */
function makeRecorder(tree, opts) {
  const bounds = record(opts.algorithm).bounds;
  const rec = {
    path: [], evaluated: [], pruned: [], cuts: [], best: new Map(), boundSet: new Map(),
    entered: 0, cutoffs: 0, prunedNodes: 0, steps: 0, rootValue: null,
  };
  for (const r of tree.nodes) { r.st = 'unvisited'; r.v = null; r.a = null; r.b = null; }
  rec.enter = (r, a, b) => {
    rec.entered += 1; rec.steps += 1;
    rec.path.push(r);
    r.st = 'active';
    if (bounds) { r.a = round(a); r.b = round(b); }
  };
  rec.evaluate = (r, val) => {
    rec.entered += 1; rec.steps += 1;
    rec.evaluated.push(r.id);
    r.st = 'evaluated'; r.v = round(val);
  };
  rec.exit = (r, val) => {
    rec.steps += 1;
    rec.path.pop();
    r.st = 'visited'; r.v = round(val);
  };
  // One raw RET event (algorithms.py): `child`'s value came back to `node`.
  rec.ret = (node, child, val, cutoff, vOld, vNew, bOld, bNew, skipped) => {
    if (cutoff === null) rec.exit(child, val); else rec.evaluate(child, val);
    rec.steps += 1;       // the update (or "v stays") line
    if (Array.isArray(vNew) ? !same(vNew, vOld) : vNew !== vOld) {
      node.v = round(vNew);
      if (!node.chance) rec.best.set(node, child);
    }
    if (bNew !== bOld) {
      rec.steps += 1;
      const name = node.player === 0 ? 'alpha' : 'beta';
      rec.boundSet.set(`${name} ${node.id}`, bNew);
      node[name[0]] = round(bNew);
    }
    if (skipped) {
      rec.steps += 1;
      rec.cutoffs += 1;
      for (const c of skipped) {
        rec.pruned.push(c.id);
        c.st = 'pruned';
        rec.prunedNodes += sizeOf(c);
      }
      const max = node.player === 0;
      const cut = max ? 'beta' : 'alpha';
      const bound = max ? node.b : node.a;
      let by = null;       // the nearest open frame above that set this bound to this value
      for (let i = rec.path.length - 2; i >= 0; i--) {
        if (rec.boundSet.get(`${cut} ${rec.path[i].id}`) === bound) { by = rec.path[i].id; break; }
      }
      const test = max ? (opts.strict ? 'v > beta' : 'v >= beta') : (opts.strict ? 'v < alpha' : 'v <= alpha');
      rec.cuts.push({ node: node.id, skipped: skipped.map((c) => c.id), cut, bound: out(bound), by, test });
    }
  };
  return rec;
}

function sizeOf(r) {
  if (r.size === undefined) r.size = 1 + r.children.reduce((s, c) => s + sizeOf(c), 0);
  return r.size;
}

/** The root evaluated where it stands (a leaf, or a depth limit of 0), else false. */
function staticRoot(tree, opts, rec) {
  const root = tree.root;
  if (root.children.length && opts.depth !== 0) return false;
  let val = root.children.length ? root.eval : root.value;
  if (record(opts.algorithm).players !== 'vectors' && Array.isArray(val)) val = val[0];
  rec.evaluate(root, val);
  rec.rootValue = val;
  return true;
}

/** Alpha-beta (AIMA Fig. 5.7, fail-soft, the "aima" formulation), optionally depth-limited. */
function alphabeta(tree, opts, rec, order) {
  if (staticRoot(tree, opts, rec)) return;
  const { depth: limit, strict } = opts;
  let node = tree.root, ismax = node.player === 0, a = -Infinity, b = Infinity;
  let v = ismax ? -Infinity : Infinity;
  let kids = order ? order(node) : node.children, i = 0, n = kids.length;
  rec.enter(node, a, b);
  const stack = [];
  for (;;) {
    let child, val, cutoff;
    if (i < n) {
      child = kids[i];
      i += 1;
      if (child.children.length) {
        if (child.depth !== limit) {   // descend
          stack.push([node, ismax, a, b, v, kids, i, n]);
          node = child;
          ismax = child.player === 0;
          v = ismax ? -Infinity : Infinity;
          kids = order ? order(child) : child.children;
          i = 0; n = kids.length;
          rec.enter(node, a, b);
          continue;
        }
        val = child.eval; cutoff = true;
      } else {
        val = child.value; cutoff = false;
      }
    } else {
      if (!stack.length) { rec.exit(node, v); rec.rootValue = v; return; }
      val = v; child = node; cutoff = null;
      [node, ismax, a, b, v, kids, i, n] = stack.pop();
    }
    const ov = v;
    let skipped = null, ob;
    if (ismax) {
      ob = a;
      if (val > v) v = val;
      if (strict ? v > b : v >= b) { if (i < n) skipped = kids.slice(i); i = n; } else if (v > a) a = v;
      rec.ret(node, child, val, cutoff, ov, v, ob, a, skipped);
    } else {
      ob = b;
      if (val < v) v = val;
      if (strict ? v < a : v <= a) { if (i < n) skipped = kids.slice(i); i = n; } else if (v < b) b = v;
      rec.ret(node, child, val, cutoff, ov, v, ob, b, skipped);
    }
  }
}

/** Minimax, expectiminimax and max^n: every child searched, no bounds. */
function backedUp(tree, opts, rec, order) {
  if (staticRoot(tree, opts, rec)) return;
  const limit = opts.depth, multi = record(opts.algorithm).players === 'vectors';
  const start = (r) => (r.chance ? 0 : multi ? null : r.player === 0 ? -Infinity : Infinity);
  const root = tree.root;
  const stack = [[root, start(root), order ? order(root) : root.children, 0]];
  rec.enter(root, null, null);
  let back = null, val = null;
  for (;;) {
    const frame = stack[stack.length - 1];
    const [node, v, kids, i] = frame;
    let child, cutoff;
    if (back !== null) {
      child = back; cutoff = null; back = null;
    } else if (i < kids.length) {
      child = kids[i];
      frame[3] = i + 1;
      if (child.children.length && child.depth !== limit) {
        stack.push([child, start(child), order ? order(child) : child.children, 0]);
        rec.enter(child, null, null);
        continue;
      }
      cutoff = child.children.length > 0;
      val = cutoff ? child.eval : child.value;
      if (!multi && Array.isArray(val)) val = val[0];
    } else {
      stack.pop();
      if (!stack.length) { rec.exit(node, v); rec.rootValue = v; return; }
      back = node; val = v;
      continue;
    }
    let next;
    if (node.chance) next = v + child.probability * val;
    else if (multi) next = v === null || val[node.player] > v[node.player] ? val : v;
    else if (node.player === 0) next = val > v ? val : v;
    else next = val < v ? val : v;
    frame[1] = next;
    rec.ret(node, child, val, cutoff, v, next, null, null, null);
  }
}

/** How many static values plain minimax uses with depth limit `limit`. */
function staticCount(tree, limit) {
  let count = 0;
  for (const r of tree.nodes) {
    if (r.children.length) count += r.depth === limit ? 1 : 0;
    else if (limit == null || r.depth <= limit) count += 1;
  }
  return count;
}

// The core's generators this file has a twin of, by the records' `raw` (descriptors.py).
const LOCAL = { 'algorithms:alphabeta': alphabeta, 'algorithms:backed_up': backedUp };

/** Search the checked tree: the `result` of an answer of POST /api/edit/run (without its sentence). */
function search(tree, opts) {
  const rec = makeRecorder(tree, opts);
  const order = makeOrder(tree, opts.order, opts.depth);
  LOCAL[record(opts.algorithm).raw](tree, opts, rec, order);
  const root = tree.root;
  const best = root.chance ? null : rec.best.get(root) ?? null;
  const pv = [root.id];
  for (let r = root; rec.best.has(r);) { r = rec.best.get(r); pv.push(r.id); }
  const plain = staticCount(tree, opts.depth);
  const evaluated = rec.evaluated.length;
  const nodes = {};
  let pruned = null;    // the top of the pruned subtree being walked (preorder)
  for (const r of tree.nodes) {
    if (pruned && !isBelow(r, pruned)) pruned = null;
    if (r.st === 'pruned' && !pruned) pruned = r;
    nodes[r.id] = pruned ? ['pruned', null, null, null] : [r.st, out(r.v), out(r.a), out(r.b)];
  }
  return {
    options: { algorithm: opts.algorithm, depth: opts.depth, order: opts.order, strict: opts.strict },
    value: jv(rec.rootValue), best_move: best ? best.id : null, pv,
    evaluated: rec.evaluated, pruned: rec.pruned,
    stats: {
      entered: rec.entered, evaluated, cutoffs: rec.cutoffs, pruned_nodes: rec.prunedNodes,
      minimax_evaluated: plain, saved: plain - evaluated, events: rec.steps + 1,
    },
    nodes, cuts: rec.cuts, text: null,
  };
}

function isBelow(r, top) {
  for (let p = r.parent; p; p = p.parent) if (p === top) return true;
  return false;
}

// -- what the edit changed (app/whatif/compare.py, without the sentence) ----------------
/** `before` and `after`: {ids (key -> id), result}. */
export function compareRuns(before, after) {
  const keyOf = (ids) => { const m = new Map(); for (const [k, id] of Object.entries(ids)) m.set(id, k); return m; };
  const oldKeys = keyOf(before.ids), newKeys = keyOf(after.ids);
  const shared = (k) => k in before.ids && k in after.ids;
  const oldCut = new Set(before.result.pruned.map((id) => oldKeys.get(id)));
  const newCut = new Set(after.result.pruned.map((id) => newKeys.get(id)));
  const gained = after.result.pruned.map((id) => newKeys.get(id)).filter((k) => !oldCut.has(k) && shared(k));
  const lost = before.result.pruned.map((id) => oldKeys.get(id)).filter((k) => !newCut.has(k) && shared(k));
  const ids = (ks) => ks.filter((k) => k in after.ids).map((k) => after.ids[k]);
  const bestKey = (run, keys) => (run.result.best_move ? keys.get(run.result.best_move) ?? null : null);
  const oldBest = bestKey(before, oldKeys), newBest = bestKey(after, newKeys);
  return {
    new_cuts: ids(gained), lost_cuts: ids(lost),
    best_move: { before: before.result.best_move, after: after.result.best_move,
      changed: oldBest !== newBest && !(oldBest === null && newBest === null) },
    value: { before: before.result.value, after: after.result.value },
    evaluated: { before: before.result.stats.evaluated, after: after.result.stats.evaluated },
  };
}

/**
 * The what-if run of `doc` with the page's `options` ({algorithm, depth,
 * strict, order}), as the server would answer it: {ids, result, algorithms,
 * note, change?} (no sentence, notation, YAML or state token: those come
 * with the server's answer). `accepted`: the document the server last
 * accepted; `before`: {ids, result} of the run to compare with. Null when
 * the page cannot be sure of the answer (the server is asked as before).
 */
export function localRun(doc, options, { accepted = null, before = null } = {}) {
  const tree = buildTree(doc, accepted);
  if (!tree) return null;
  const algorithms = algorithmsFor(tree);
  const opts = fitOptions(tree, options, algorithms);
  // Only the core's generators written here (not iterative deepening, Star1): else the server's.
  if (!opts || !Object.hasOwn(LOCAL, record(opts.algorithm).raw)) return null;
  const answer = { ids: tree.ids, result: search(tree, opts), algorithms, note: opts.note };
  if (before) answer.change = compareRuns(before, answer);
  return answer;
}

/** Does the server's answer say what the page's run said (all but the words)? */
export function agrees(answer, local) {
  const { text: _a, ...theirs } = answer.result;
  const { text: _b, ...mine } = local.result;
  const marks = (c) => c && [c.new_cuts, c.lost_cuts, c.best_move];
  return equal(answer.ids, local.ids) && equal(theirs, mine) && equal(answer.algorithms, local.algorithms)
    && equal(marks(answer.change), marks(local.change));
}

/** Deep equality of JSON data, whatever the order of keys. */
function equal(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]));
}
