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
//
// Split by kind of sentence as narrate.py is: entering, leaves, updates,
// returns and iterations here; bounds and cut-offs (Star1's too) in
// narrate-cuts.js, an object with its own state; the summary in
// narrate-summary.js; numbers in narrate-numbers.js; Monte Carlo tree
// search's own records (app/search/compact_mcts.py) in narrate-mcts.js. They
// share the run's state through one named object, `run` (below).

import { t } from './i18n.js';
import { SENTENCES as S } from './algorithms.js';   // the sentences, by kind (app/search/sentences.py)
import { makeCuts } from './narrate-cuts.js';
import { makeSummary } from './narrate-summary.js';
import { makeMcts } from './narrate-mcts.js';
import { moveWords } from './move-words.js';
import { eq, fmt, jv, num, unview } from './narrate-numbers.js';

export { fmt, jv } from './narrate-numbers.js';

// (visits and mean: [mcts]'s statistics, app/search/view.py INITIAL)
const INITIAL = { status: 'unvisited', value: null, alpha: null, beta: null, visits: null, mean: null };
const FIELDS = ['status', 'value', 'alpha', 'beta'];

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
  let win = null;                     // Star1: the window's arithmetic for the next enter
  let lastDepth = null;
  const maps = { status: new Map(), value: new Map(), alpha: new Map(), beta: new Map(), visits: new Map(), mean: new Map() };
  let step = 0;
  const path = [];                    // open frames, root first
  const raw = [];                     // per open frame: [v, alpha, beta] as the algorithm has them
  const bestChild = new Map();
  const evaluated = [];
  let entered = 0;
  const iterations = [];
  let rootValue = null;
  const own = new Map();              // a lazy game's nodes, by id
  const names = new Map();            // a game's positions in words, by label
  const moves = new Map();            // a game's moves in words, by `${parent}\n${child}`
  let root = null;
  let out = null;
  let mcts = null;                   // [mcts] its records' narrator (narrate-mcts.js), from the header

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
      const said = moveSaid(n.label, child.label);
      if (said != null) return said;
    }
    return name(child);
  }
  /** A game's move from label to label in words, as the records said it (or null). */
  function moveSaid(from, to) {
    const key = `${from}\n${to}`;
    let said = moves.get(key);
    if (said === undefined && h?.mcts?.move_words) {   // [mcts] no [6] records: said here, once
      said = moveWords(game, from, to, say);
      moves.set(key, said);
    }
    return said;
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

  /** A lazily searched game's node, as its record names it. */
  function addNode(id, parentId, label, player) {
    const parent = parentId == null ? null : own.get(parentId);
    const n = {
      id, label, playerIndex: player, player: players[player],
      role: player === 0 ? 'max' : 'min', probability: null,
      depth: parent ? parent.depth + 1 : 0, parent, children: [],
    };
    own.set(id, n);
    if (!parent) root = n;
    return n;
  }

  // -- the run's shared state, named: what the parts (cuts, summary, mcts) read --
  const run = {
    say, name, move, who, rootPhrase, field, set, event, linesOf, isChance, node, addNode,
    path, raw, bestChild, evaluated, iterations,
    get bounds() { return bounds; },
    get strict() { return strict; },
    get leafBounds() { return leafBounds; },
    get root() { return root; },
    get rootValue() { return rootValue; },
    get entered() { return entered; },
    get lazy() { return lazy; },
    get game() { return game; },
  };
  const cuts = makeCuts(run);
  const summary = makeSummary(run, cuts);

  // -- the stream ---------------------------------------------------------
  function onRecord(r) {
    const kind = r[0];
    if (typeof kind === 'string') return onReturn(r);
    switch (kind) {
      case 9: return onHeader(r[1]);
      case 4: addNode(r[1], r[2], r[3], r[4]); return null;
      case 5: names.set(r[1], r[2]); return null;
      case 6: moves.set(`${r[1]}\n${r[2]}`, r[3]); return null;
      case 1: return out.push(onEval(root, num(r[1]), r[2]));
      case 2: enterDownTo(root); return out.push(onExit(root, num(r[1])));
      case 3: return out.push(onIter(r[1], num(r[2]), r[3] == null ? null : node(r[3])));
      case 8: step += 1; return out.push(mcts ? mcts.done(step) : summary.done(r[1], step));
      case 10: case 11: case 12: case 13: return out.push(mcts.record(r));   // [mcts]
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
    if (h.mcts) mcts = makeMcts(run, h.mcts);
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
      cuts.seenOf(n).add(child.id);
      frame[3] = bNew;                  // what n returns if this outcome decided it
      if (skipped && skipped.length) out.push(cuts.onChancePrune(n, skipped, bNew, r[6]));
      return null;
    }
    if (isChance(n)) return null;
    if (bounds) {
      const k = n.playerIndex === 0 ? 1 : 2;
      const bOld = frame[k];
      if (!eq(bNew, bOld)) out.push(cuts.bound(n, k === 1 ? 'alpha' : 'beta', bOld, bNew));
      frame[k] = bNew;
    }
    if (skipped && skipped.length) out.push(cuts.onPrune(n, skipped, r[6]));
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
        win = cuts.windowWords(parent, m, up);                 // (the sentence gives its arithmetic)
        [a, b] = cuts.starWindow(parent, m, up);
      }
      if (leafBounds) [alpha, beta] = [a, b];
      raw.push([v0, a, b, null]);
      out.push(onEnter(m, alpha, beta, v0));
    }
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
      text = say(S[`keep_${r}${tie ? '_tie' : ''}`], fields);   // (r: max or min)
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
        if (cuts.cutNodes.has(n.id)) {
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
      cuts.boundSet.clear();
      const text = depth >= height
        ? say(S.iteration_bottom, { depth })
        : say(S.iteration_limit, { depth });
      return event('iteration', null, changes, text, { depth });
    }
    iterations.push({ depth, value: jv(value), best_move: best ? best.id : null });
    const text = say(S.iteration_done, { depth, value: fmt(value), move: best ? move(root, best) : say(S.none) });
    return event('iteration', null, changes, text, { depth, value: jv(value), best_move: best ? best.id : null });
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
    wordsOf: (label, child = null) => (child == null ? names.get(label) : game && moveSaid(label, child)) || null,
  };
}
