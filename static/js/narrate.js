// The narration in the page: the compact records of a run (app/search/compact.py,
// what the algorithms' raw events carry, a few dozen bytes each) made into
// the very events the server's narrator yields (app/search/narrate.py):
// the sentence from the page's catalogue (i18n.js), the pseudocode lines,
// the view changes, bounds and values at the node. The server then sends
// an eighth of the bytes and makes no sentence; the model (model.js) gets
// the same events either way. This is the JavaScript twin of narrate.py,
// method by method; tests/browser/test_narrate_parity.py holds the two
// equal over the lecture library, every algorithm and option, both
// languages, random trees and the games.
//
//   const narrator = makeNarrator(tree);      // the page's tree (tree.js)
//   run.push(narrator.feed(records));         // records: one pull's array

import { t } from './i18n.js';
import { SENTENCES as S } from './algorithms.js';   // the sentences, by kind (app/search/sentences.py)

const INITIAL = { status: 'unvisited', value: null, alpha: null, beta: null };
const FIELDS = ['status', 'value', 'alpha', 'beta'];
const MINUS = '\u2212';

// -- numbers, as app/search/numbers.py writes them ------------------------------

/** A record's value as a number (infinities come as strings), vectors too. */
function num(x) {
  if (x === 'inf') return Infinity;
  if (x === '-inf') return -Infinity;
  if (Array.isArray(x)) return x.map(num);
  return x;
}

/** numbers.jv: strict JSON (infinities as strings, float noise rounded away). */
export function jv(x) {
  if (x === null || x === undefined) return null;
  if (Array.isArray(x)) return x.map(jv);
  if (typeof x !== 'number') return x;
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (Number.isInteger(x) && Math.abs(x) < 2 ** 53) return x === 0 ? 0 : x;
  return Number(x.toPrecision(12));
}

/** Python's format(x, 'g'): six significant digits, no trailing zeros. */
function pyG(x) {
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [m, e] = x.toExponential(5).split('e');
  const exp = Number(e);
  if (exp < -4 || exp >= 6) {
    const mant = m.includes('.') ? m.replace(/0+$/, '').replace(/\.$/, '') : m;
    return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  let s = x.toFixed(Math.max(0, 5 - exp));
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s;
}

/** numbers.fmt: a value as a lecturer writes it (a true minus sign). */
export function fmt(x) {
  // Most values are whole numbers: the quick way first.
  if (typeof x === 'number' && Number.isInteger(x) && Math.abs(x) < 2 ** 53) {
    return x < 0 ? MINUS + String(-x) : String(x);
  }
  if (x === null || x === undefined) return '—';
  if (x === 'inf' || x === Infinity) return '+∞';
  if (x === '-inf' || x === -Infinity) return '−∞';
  if (Array.isArray(x)) return `(${x.map(fmt).join(', ')})`;
  if (typeof x !== 'number') return String(x);
  const j = jv(x);
  if (typeof j === 'string') return fmt(j);
  return (Number.isInteger(j) ? String(j) : pyG(j)).replace(/-/g, MINUS);
}

/** Python's == on values: numbers, strings, vectors, null. */
function eq(a, b) {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => eq(x, b[i]));
  }
  return false;
}

/** narrate._num: a view value back to a number. */
function unview(x) {
  if (x === 'inf') return Infinity;
  if (x === '-inf') return -Infinity;
  return x;
}

// How a cut-off is written, by the player cut (narrate._CUT): MAX by beta, MIN by alpha.
// (The sentences are the narrator's own kinds: S, app/search/sentences.py.)
const CUT = {
  max: { bound: 'beta', symbol: 'β', sign: '≥', strictSign: '>', test: 'v >= beta', strictTest: 'v > beta' },
  min: { bound: 'alpha', symbol: 'α', sign: '≤', strictSign: '<', test: 'v <= alpha', strictTest: 'v < alpha' },
};

/**
 * makeNarrator(tree, say) -> {feed(records) -> events, header}.
 * `tree` is the page's tree (tree.js readTree: byId, nodes with parent,
 * label, playerIndex, role, probability, depth); a lazily searched game's
 * nodes come in the records instead. `say(msgid, fields)` says a sentence.
 */
export function makeNarrator(tree, say = t) {
  let h = null;                       // the header record
  let alg, bounds, vector, strict, game, lazy, players, height, lines;
  let leafBounds = null;              // Star1 over chance nodes: [L, U] (app/search/star1.py)
  const seen = new Map();             // Star1: a chance node's outcomes searched so far
  let win = null;                     // Star1: the window's arithmetic for the next enter
  let lastDepth = null;
  const maps = { status: new Map(), value: new Map(), alpha: new Map(), beta: new Map() };
  let step = 0;
  const path = [];                    // open frames, root first
  const raw = [];                     // per open frame: [v, alpha, beta] as the algorithm has them
  const bestChild = new Map();
  const boundSet = new Map();         // `${id}\n${bound}` -> the value it set
  const evaluated = [];
  const pruned = [];
  let entered = 0, cutoffs = 0, prunedNodes = 0;
  const iterations = [];
  const cutNodes = new Set();
  let rootValue = null;
  const own = new Map();              // a lazy game's nodes, by id
  const names = new Map();            // a game's positions in words, by label
  const moves = new Map();            // a game's moves in words, by `${parent}\n${child}`
  let root = null;
  let out = null;

  // -- the tree -----------------------------------------------------------
  function node(id) {
    const n = lazy ? own.get(id) : tree.byId.get(id);
    if (!n) throw new Error(`narrate: unknown node ${id}`);
    return n;
  }
  const isChance = (n) => n.role === 'chance';
  function pathOf(n) {
    const p = [n];
    while (p[p.length - 1].parent) p.push(p[p.length - 1].parent);
    return p.reverse();
  }

  // -- helpers (narrate.Narrator) -----------------------------------------
  function role(n) {
    if (isChance(n)) return 'chance';
    if (vector) return 'player';
    return n.playerIndex === 0 ? 'max' : 'min';
  }
  const who = (n) => (isChance(n) ? 'CHANCE' : players[n.playerIndex]);
  function name(n) {
    if (!game) return n.label;
    const said = names.get(n.label);
    return said != null && said !== '' ? said : n.label;
  }
  function move(n, child) {
    if (game) {
      const said = moves.get(`${n.label}\n${child.label}`);
      if (said != null) return said;
    }
    return name(child);
  }
  function nodePhrase(n) {
    if (game && name(n) !== n.label) {
      return say(S.position_phrase, { position: name(n), player: who(n) });
    }
    return say(S.phrase, { player: who(n), node: n.label });
  }
  function rootPhrase(n) {
    const nm = name(n);
    if (nm.trim().toLowerCase() === 'root') return say(S.the_root);
    if (nm !== n.label) return say(S.root_position, { position: nm });
    return say(S.root_node, { node: nm });
  }
  // One object per kind and role, shared by the events (read, never changed: panels.js).
  const noLines = Object.freeze({});
  function linesOf(kind, n) {
    return lines[n ? `${kind}:${role(n)}` : `${kind}:`] || noLines;
  }
  function field(id, f) {
    const m = maps[f];
    return m.has(id) ? m.get(id) : INITIAL[f];
  }
  function set(changes, id, f, now) {
    const old = field(id, f);
    if (!eq(old, now)) changes.push([id, f, old, now]);
  }
  function applyChanges(changes) {
    for (const [id, f, , now] of changes) {
      if (now === null || now === INITIAL[f]) maps[f].delete(id);
      else maps[f].set(id, now);
    }
  }
  function event(kind, n, changes, text, extra = {}) {
    applyChanges(changes);
    step += 1;
    const ev = { type: kind, step };
    if (n) {
      const id = n.id;
      ev.node = id;
      ev.depth = n.depth;
      ev.player = who(n);
      if (bounds && maps.alpha.has(id)) {
        ev.alpha = maps.alpha.get(id);
        ev.beta = maps.beta.has(id) ? maps.beta.get(id) : null;
      }
      if (maps.value.has(id)) ev.v = maps.value.get(id);
    }
    Object.assign(ev, extra);
    ev.lines = linesOf(kind, n);
    ev.text = game ? text.slice(0, 1).toUpperCase() + text.slice(1) : text;
    ev.changes = changes;
    return ev;
  }

  // -- the stream ---------------------------------------------------------
  function onRecord(r) {
    const kind = r[0];
    if (typeof kind === 'string') return onReturn(r);
    switch (kind) {
      case 9: return onHeader(r[1]);
      case 4: {
        const [, id, parentId, label, player] = r;
        const parent = parentId == null ? null : own.get(parentId);
        const n = {
          id, label, playerIndex: player, player: players[player],
          role: player === 0 ? 'max' : 'min', probability: null,
          depth: parent ? parent.depth + 1 : 0, parent, children: [],
        };
        own.set(id, n);
        if (!parent) root = n;
        return null;
      }
      case 5: names.set(r[1], r[2]); return null;
      case 6: moves.set(`${r[1]}\n${r[2]}`, r[3]); return null;
      case 1: return out.push(onEval(root, num(r[1]), r[2]));
      case 2: enterDownTo(root); return out.push(onExit(root, num(r[1])));
      case 3: return out.push(onIter(r[1], num(r[2]), r[3] == null ? null : node(r[3])));
      case 8: return out.push(done(r[1]));
      default: throw new Error(`narrate: unknown record ${JSON.stringify(r)}`);
    }
  }

  function onHeader(header) {
    h = header;
    alg = h.algorithm;
    bounds = h.keeps_bounds;          // (the algorithm's record: app/search/descriptors.py)
    players = h.players;
    vector = players.length > 2 || h.vector;
    leafBounds = h.leaf_bounds;
    strict = h.strict;
    game = h.game;
    lazy = h.lazy;
    height = h.height;
    lines = h.lines;
    for (const key of Object.keys(lines)) Object.freeze(lines[key]);
    lastDepth = h.depth;
    root = lazy ? null : tree.root;
    return null;
  }

  function onReturn(r) {
    const child = node(r[0]);
    const n = child.parent;
    const val = num(r[1]);
    const cutoff = r[2] === 0 ? null : r[2] === 2;
    const vNew = num(r[3]);
    const bNew = bounds ? num(r[4]) : null;
    const skipped = r.length > 5 ? r[5].map(node) : null;
    const top = path[path.length - 1];
    if (!top || (top.id !== n.id && (path.length < 2 || path[path.length - 2].id !== n.id))) {
      enterDownTo(n);
    }
    out.push(cutoff === null ? onExit(child, val) : onEval(child, val, cutoff));
    const frame = raw[raw.length - 1];   // n's, now that the child has gone
    const vOld = frame[0];
    out.push(!eq(vNew, vOld) ? onUpdate(n, vOld, vNew, child) : onKeep(n, vOld, child, val));
    frame[0] = vNew;
    if (leafBounds && isChance(n)) {
      seenOf(n).add(child.id);
      frame[3] = bNew;                  // what n returns if this outcome decided it
      if (skipped && skipped.length) out.push(onChancePrune(n, skipped, bNew, r[6]));
      return null;
    }
    if (isChance(n)) return null;
    if (bounds) {
      const k = n.playerIndex === 0 ? 1 : 2;
      const bOld = frame[k];
      if (!eq(bNew, bOld)) out.push(bound(n, k === 1 ? 'alpha' : 'beta', bOld, bNew));
      frame[k] = bNew;
    }
    if (skipped && skipped.length) out.push(onPrune(n, skipped, r[6]));
    return null;
  }

  function enterDownTo(n) {
    if (path.length && path[path.length - 1].id === n.id) return;
    for (const m of pathOf(n).slice(path.length)) {
      const parent = path.length ? path[path.length - 1] : null;
      let alpha = null, beta = null;
      if (bounds) {
        alpha = parent ? unview(field(parent.id, 'alpha')) : -Infinity;
        beta = parent ? unview(field(parent.id, 'beta')) : Infinity;
      }
      let v0;
      if (isChance(m)) v0 = 0;
      else if (vector) v0 = null;
      else v0 = m.playerIndex === 0 ? -Infinity : Infinity;
      // The algorithm's own bounds: a child starts with its parent's, as they are.
      const up = raw.length ? raw[raw.length - 1] : [null, -Infinity, Infinity];
      let [a, b] = [up[1], up[2]];
      if (leafBounds && parent && isChance(parent)) {   // Star1: the window of this outcome
        win = windowWords(parent, m, up);                 // (the sentence gives its arithmetic)
        [a, b] = starWindow(parent, m, up);
      }
      if (leafBounds) [alpha, beta] = [a, b];
      raw.push([v0, a, b, null]);
      out.push(onEnter(m, alpha, beta, v0));
    }
  }

  // -- Star1 (app/search/star1.py: rest_after, window; narrate.Narrator._window)
  function seenOf(n) {
    let s = seen.get(n.id);
    if (!s) seen.set(n.id, s = new Set());
    return s;
  }
  function restAfter(n, child) {
    const s = seenOf(n);
    let rest = 0;
    for (const c of n.children) if (c !== child && !s.has(c.id)) rest += c.probability;
    return rest;
  }
  function starWindow(n, child, frame) {
    const [lo, hi] = leafBounds;
    const [v, alpha, beta] = frame;
    const p = child.probability, rest = restAfter(n, child);
    const wa = p <= 0 ? -Infinity : (alpha - v - hi * rest) / p;
    const wb = p <= 0 ? Infinity : (beta - v - lo * rest) / p;
    return [wa > lo ? wa : lo, wb < hi ? wb : hi];
  }

  // narrate_cuts.CutSentences._window_words and _formula: where an outcome's α and β come from.
  function windowWords(n, child, frame) {
    const [lo, hi] = leafBounds;
    const [v, alpha, beta] = frame;
    const p = child.probability, rest = restAfter(n, child);
    const wa = p <= 0 ? -Infinity : (alpha - v - hi * rest) / p;
    const wb = p <= 0 ? Infinity : (beta - v - lo * rest) / p;
    return {
      alpha: formula('α', alpha, v, rest, hi, p, wa, 'L', lo, wa > lo),
      beta: formula('β', beta, v, rest, lo, p, wb, 'U', hi, wb < hi),
      p: fmt(p), parent: name(n), palpha: fmt(alpha), pbeta: fmt(beta),
      sum: fmt(v), rest: fmt(rest), hi: fmt(hi), lo: fmt(lo),
    };
  }
  function formula(symbol, bound, v, rest, edge, p, w, clipName, clip, inside) {
    if (!inside) return `${symbol} = ${clipName} = ${fmt(clip)}`;
    const terms = [fmt(bound)];
    if (v) terms.push(v > 0 ? `− ${fmt(v)}` : `+ ${fmt(-v)}`);
    if (rest && edge) terms.push(edge > 0 ? `− ${fmt(rest)} × ${fmt(edge)}` : `+ ${fmt(rest)} × ${fmt(-edge)}`);
    const top = terms.join(' ');
    return `${symbol} = ${terms.length > 1 ? `(${top})` : top} / ${fmt(p)} = ${fmt(w)}`;
  }

  /** narrate_cuts._outcome_cut: Star1 cuts an outcome at its window's edge (no player chooses it). */
  function outcomeCut(n, parent, cut, v, sign, b, names, many) {
    const [lo, hi] = leafBounds;
    const low = cut === 'alpha';
    let why;
    if (b === (low ? lo : hi)) {
      why = low ? say(S.outcome_edge_alpha, { node: name(n) })
        : say(S.outcome_edge_beta, { node: name(n) });
    } else {
      const [, pa, pb] = raw[raw.length - 2];
      why = low
        ? say(S.outcome_why_alpha, { parent: name(parent), bound: fmt(pa) })
        : say(S.outcome_why_beta, { parent: name(parent), bound: fmt(pb) });
    }
    const fields = { node: name(n), v: fmt(v), sign, [cut]: fmt(b), why, names };
    if (low) {
      return many
        ? say(S.outcome_many_alpha, fields)
        : say(S.outcome_one_alpha, fields);
    }
    return many
      ? say(S.outcome_many_beta, fields)
      : say(S.outcome_one_beta, fields);
  }

  // The cut at n, counted, and its skipped children marked pruned (one change
  // each: status on a top holds below it); narrate_cuts.py's _mark_pruned.
  function markPruned(n, skipped, count) {
    cutoffs += 1;
    cutNodes.add(n.id);
    const changes = [];
    for (const c of skipped) {
      pruned.push(c.id);
      set(changes, c.id, 'status', 'pruned');
    }
    prunedNodes = count == null || prunedNodes == null ? null : prunedNodes + count;
    return changes;
  }

  function onChancePrune(n, skipped, reach, count) {
    const [, alpha, beta] = raw[raw.length - 1];
    const [lo, hi] = leafBounds;
    const low = reach <= alpha;
    const s = seenOf(n);
    const terms = n.children.filter((c) => s.has(c.id))
      .map((c) => `${fmt(c.probability)} × ${fmt(field(c.id, 'value'))}`);
    terms.push(`${fmt(restAfter(n, null))} × ${fmt(low ? hi : lo)}`);
    const changes = markPruned(n, skipped, count);
    const limit = low ? alpha : beta;
    const fields = {
      node: name(n), names: skipped.map(name).join(', '), limit: fmt(low ? hi : lo),
      sum: terms.join(' + '), bound: fmt(reach),
      sign: low ? (strict ? '<' : '≤') : (strict ? '>' : '≥'), [low ? 'alpha' : 'beta']: fmt(limit),
    };
    const many = skipped.length > 1;
    let text;
    if (low) {
      text = many
        ? say(S.chance_many_alpha, fields)
        : say(S.chance_one_alpha, fields);
    } else {
      text = many
        ? say(S.chance_many_beta, fields)
        : say(S.chance_one_beta, fields);
    }
    const by = holder(low ? 'alpha' : 'beta', limit, n);
    const ev = event('prune', n, changes, text, {
      skipped: skipped.map((c) => c.id), cut: low ? 'alpha' : 'beta',
      test: low ? (strict ? 'v + U × rest < alpha' : 'v + U × rest <= alpha')
        : (strict ? 'v + L × rest > beta' : 'v + L × rest >= beta'),
      by: by ? by.id : null, bound: jv(limit), reach: jv(reach), pruned_nodes: count ?? null,
    });
    if (!low) ev.lines = linesOf('prune-high', n);
    return ev;
  }

  function onEnter(n, alpha, beta, v0) {
    entered += 1;
    const changes = [];
    const parent = path.length ? path[path.length - 1] : null;
    if (parent) set(changes, parent.id, 'status', 'visited');
    set(changes, n.id, 'status', 'active');
    if (v0 !== null) set(changes, n.id, 'value', jv(v0));
    if (alpha !== null) {
      set(changes, n.id, 'alpha', jv(alpha));
      set(changes, n.id, 'beta', jv(beta));
    }
    path.push(n);
    const phrase = nodePhrase(n);
    let text;
    if (isChance(n)) {
      text = say(S.enter_chance, { node: name(n) });
    } else if (vector) {
      text = say(S.enter_vector, { player: who(n), node: name(n) });
    } else if (alpha !== null) {
      if (parent === null) {
        text = say(S.start_ab, { node: phrase, alpha: fmt(alpha), beta: fmt(beta), v: fmt(v0) });
      } else if (win) {   // Star1: an outcome's window, worked out
        text = say(S.enter_window, { ...win, node: phrase, v: fmt(v0) });
        win = null;
      } else {
        text = say(S.enter_ab, { node: phrase, alpha: fmt(alpha), beta: fmt(beta), v: fmt(v0) });
      }
    } else if (parent === null) {
      text = say(S.start, { node: phrase, v: fmt(v0) });
    } else {
      text = say(S.enter, { node: phrase, v: fmt(v0) });
    }
    return event('enter', n, changes, text, { parent: parent ? parent.id : null });
  }

  function onEval(n, value, cutoff) {
    entered += 1;
    evaluated.push(n.id);
    const changes = [];
    set(changes, n.id, 'status', 'evaluated');
    set(changes, n.id, 'value', jv(value));
    if (n === root) rootValue = value;
    let text;
    if (cutoff) {
      text = say(S.depth, { node: name(n), eval: name(n) === n.label ? `eval(${n.label})` : 'eval(n)', value: fmt(value) });
    } else if (name(n) !== n.label) {
      text = say(S.leaf_position, { position: name(n), value: fmt(value) });
    } else {
      text = say(S.leaf, { node: n.label, value: fmt(value) });
    }
    return event('evaluate', n, changes, text, { value: jv(value), cutoff });
  }

  function onKeep(n, v, child, val) {
    const r = role(n);
    const c = move(n, child);
    let text;
    if (r === 'chance') {
      text = say(S.chance_sum, { node: name(n), old: fmt(v), p: fmt(child.probability), child_value: fmt(val), new: fmt(v) });
    } else if (r === 'player') {
      const p = n.playerIndex;
      text = say(S.keep_vector, { player: who(n), node: name(n), value: fmt(val), child: c, mine: fmt(val[p]), best: fmt(v[p]), v: fmt(v) });
    } else {
      const fields = { player: who(n), node: name(n), value: fmt(val), child: c, v: fmt(v) };
      const tie = eq(val, v);
      if (r === 'max') {
        text = tie
          ? say(S.keep_max_tie, fields)
          : say(S.keep_max, fields);
      } else {
        text = tie
          ? say(S.keep_min_tie, fields)
          : say(S.keep_min, fields);
      }
    }
    return event('update', n, [], text, { child: child.id, old: jv(v), new: jv(v) });
  }

  function onUpdate(n, old, now, child) {
    if (!isChance(n)) bestChild.set(n.id, child);
    const changes = [];
    set(changes, n.id, 'value', jv(now));
    const r = role(n);
    const cv = maps.value.has(child.id) ? maps.value.get(child.id) : null;
    let text;
    if (r === 'chance') {
      text = say(S.chance_sum, { node: name(n), old: fmt(old), p: fmt(child.probability), child_value: fmt(cv), new: fmt(now) });
    } else if (r === 'player') {
      const p = n.playerIndex;
      text = old === null
        ? say(S.first_vector, { player: who(n), node: name(n), value: fmt(now), child: name(child) })
        : say(S.better_vector, { player: who(n), node: name(n), value: fmt(now), child: name(child), mine: fmt(now[p]), best: fmt(old[p]) });
    } else {
      text = say(S.update, { player: who(n), node: name(n), op: r === 'max' ? 'max' : 'min', old: fmt(old), child_value: fmt(cv), new: fmt(now), child: move(n, child) });
    }
    return event('update', n, changes, text, { child: child.id, old: jv(old), new: jv(now) });
  }

  function bound(n, which, old, now) {
    boundSet.set(`${n.id}\n${which}`, now);
    const changes = [];
    set(changes, n.id, which, jv(now));
    const fields = { node: name(n), old: fmt(old), new: fmt(now) };
    const text = which === 'alpha'
      ? say(S.alpha, fields)
      : say(S.beta, fields);
    return event(which, n, changes, text, { old: jv(old), new: jv(now) });
  }

  function onPrune(n, skipped, count) {
    const alpha = unview(field(n.id, 'alpha'));
    const beta = unview(field(n.id, 'beta'));
    const v = unview(field(n.id, 'value'));
    const changes = markPruned(n, skipped, count);
    const names = skipped.map((c) => move(n, c)).join(', ');
    const side = CUT[n.playerIndex === 0 ? 'max' : 'min'];
    const cut = side.bound;
    const b = cut === 'beta' ? beta : alpha;
    const by = holder(cut, b, n);
    const why = by
      ? (cut === 'beta'
        ? say(S.why_beta, { bound: fmt(b), holder: name(by) })
        : say(S.why_alpha, { bound: fmt(b), holder: name(by) })) + through(by)
      : `${side.symbol} = ${fmt(b)}`;
    const fields = { node: name(n), v: fmt(v), names, sign: strict ? side.strictSign : side.sign, [cut]: fmt(b), why };
    const many = skipped.length > 1;
    const parent = leafBounds && path.length > 1 ? path[path.length - 2] : null;
    let text;
    if (parent && isChance(parent)) {   // an outcome, cut by its window: no player chooses it
      text = outcomeCut(n, parent, cut, v, fields.sign, b, names, many);
    } else if (cut === 'beta') {
      text = many
        ? say(S.many_beta, fields)
        : say(S.one_beta, fields);
    } else {
      text = many
        ? say(S.many_alpha, fields)
        : say(S.one_alpha, fields);
    }
    return event('prune', n, changes, text, {
      skipped: skipped.map((c) => c.id), cut, test: strict ? side.strictTest : side.test,
      by: by ? by.id : null, bound: jv(b), pruned_nodes: count ?? null,
    });
  }

  function holder(which, value, n) {
    for (let i = path.length - 2; i >= 0; i--) {
      const frame = path[i];
      const key = `${frame.id}\n${which}`;
      if (boundSet.has(key) && eq(boundSet.get(key), value)) return frame;
    }
    return null;
  }

  function through(frame) {
    const child = bestChild.get(frame.id);
    if (!child) return '';
    return say(S.through, { child: move(frame, child) });
  }

  function onExit(n, value) {
    path.pop();
    const own = raw.pop();
    const changes = [];
    set(changes, n.id, 'status', 'visited');
    const parent = path.length ? path[path.length - 1] : null;
    if (parent) set(changes, parent.id, 'status', 'active');
    let kindLine = 'exit';
    let note = '';
    if (leafBounds && isChance(n)) {
      if (own[3] !== null && own[3] !== undefined) {   // an outcome decided it: a bound, shown as its value
        set(changes, n.id, 'value', jv(value));
        const low = value <= own[1];
        kindLine = low ? 'return-cut' : 'return-cut-high';
        note = low
          ? say(S.at_most, { value: fmt(value) })
          : say(S.at_least, { value: fmt(value) });
      }
    } else if (bounds && !isChance(n)) {
      const a = unview(field(n.id, 'alpha'));
      const b = unview(field(n.id, 'beta'));
      let cut = n.playerIndex === 0 ? value >= b : value <= a;
      if (strict) cut = n.playerIndex === 0 ? value > b : value < a;
      if (cut) {
        kindLine = 'return-cut';
        if (cutNodes.has(n.id)) {
          note = n.playerIndex === 0
            ? say(S.at_least, { value: fmt(value) })
            : say(S.at_most, { value: fmt(value) });
        }
      }
    }
    let text;
    if (parent === null) {
      rootValue = value;
      const phrase = rootPhrase(n);
      text = say(S.root_worth, { root: phrase.slice(0, 1).toUpperCase() + phrase.slice(1), value: fmt(value) });
    } else {
      text = say(S.returns, { node: name(n), value: fmt(value), parent: name(parent), note });
    }
    const ev = event('exit', n, changes, text, { value: jv(value) });
    ev.lines = linesOf(kindLine, n);
    return ev;
  }

  function touched() {
    const seen = new Set();
    for (const f of FIELDS) for (const id of maps[f].keys()) seen.add(id);
    return [...seen];
  }

  function onIter(depth, value, best) {
    const changes = [];
    if (value === null) {
      lastDepth = depth < height ? depth : null;
      for (const id of touched()) for (const f of FIELDS) set(changes, id, f, INITIAL[f]);
      bestChild.clear();
      boundSet.clear();
      const text = depth >= height
        ? say(S.iteration_bottom, { depth })
        : say(S.iteration_limit, { depth });
      return event('iteration', null, changes, text, { depth });
    }
    iterations.push({ depth, value: jv(value), best_move: best ? best.id : null });
    const text = say(S.iteration_done, { depth, value: fmt(value), move: best ? move(root, best) : say(S.none) });
    return event('iteration', null, changes, text, { depth, value: jv(value), best_move: best ? best.id : null });
  }

  function principalVariation() {
    const pv = [root];
    while (bestChild.has(pv[pv.length - 1].id)) pv.push(bestChild.get(pv[pv.length - 1].id));
    return pv.map((n) => n.id);
  }

  function counts(n, plain, saved) {
    const one = n === 1, cuts = cutoffs === 1;
    const fields = { n, cutoffs, plain, saved };
    if (!bounds) return one ? say(S.count_1, fields) : say(S.count_n, fields);
    if (leafBounds) {
      if (one && cuts) return say(S.star_1_1, fields);
      if (one) return say(S.star_1_n, fields);
      if (cuts) return say(S.star_n_1, fields);
      return say(S.star_n_n, fields);
    }
    if (one && cuts) return say(S.plain_1_1, fields);
    if (one) return say(S.plain_1_n, fields);
    if (cuts) return say(S.plain_n_1, fields);
    return say(S.plain_n_n, fields);
  }

  function done(minimaxEvaluated) {
    let best = bestChild.get(root.id) || null;
    if (isChance(root)) best = null;
    const n = evaluated.length;
    const stats = {
      entered, evaluated: n, cutoffs, pruned_nodes: prunedNodes,
      minimax_evaluated: minimaxEvaluated, saved: minimaxEvaluated - n, events: step + 1,
    };
    const value = rootValue;
    const head = best
      ? say(S.done_move, { root: rootPhrase(root), value: fmt(value), move: move(root, best) })
      : say(S.done, { root: rootPhrase(root), value: fmt(value) });
    const text = `${head} ${counts(n, minimaxEvaluated, stats.saved)}`;
    step += 1;
    const ev = {
      type: 'done', step, value: jv(value), best_move: best ? best.id : null,
      evaluated: [...evaluated], pruned: [...pruned], pv: principalVariation(), stats,
    };
    if (iterations.length) ev.iterations = iterations;
    ev.lines = linesOf('done', null);
    ev.text = text;
    ev.changes = [];
    return ev;
  }

  return {
    /** The events the records of one pull make, in order. */
    feed(records) {
      out = [];
      for (const r of records) onRecord(r);
      const made = out;
      out = null;
      return made;
    },
    get header() { return h; },
    /** A node's label as the records gave it (a lazy game's nodes are not in the page's tree). */
    labelOf: (id) => (lazy ? own.get(id) : tree.byId.get(id))?.label ?? null,
    /** A game's position in words, or the move from it to `child` (labels), as the records said it. */
    wordsOf: (label, child = null) => (child == null ? names.get(label) : moves.get(`${label}\n${child}`)) || null,
  };
}
