// [mcts] The page narrator's Monte Carlo tree search, as
// app/search/narrate_mcts.py says it: the records of app/search/compact_mcts.py
// (a selection is the index of the child it picks, a back-propagation
// nothing) made into the select, expand, simulate and backpropagate events
// and the summary. The page holds the search tree: each node's children
// tried, in order, its visits and total; the UCB1 rows are worked out here
// with the operations of app/search/mcts.py ucb_rows, in the same order
// (IEEE doubles both; ln N as the server's records give it: Math.log is 1
// ulp off Python's for some N), and rounded as the server rounds them
// (round: half to even on the exact value). It reads the narrator's shared run state
// (`run`: see narrate.js makeNarrator) and says through `run.say`.

import { fmt, jv, num, round } from './narrate-numbers.js';
import { playoutWords } from './move-words.js';

/** A mean or UCB1 number as the events carry it (narrate_mcts.r3). */
const r3 = (x) => round(x, 3) || 0;   // (never −0: Python's r3 gives the int 0)
/** A number in a sentence: 2 decimals (MctsNarrator.two). */
const two = (x) => fmt(jv(round(x, 2)));

/**
 * makeMcts(run, h) -> {record(r) -> event, done(step) -> event}. `h`: the
 * header's `mcts` ({iterations, exploration, range, words}; `playout_words`: n,
 * a game's playouts come as their moves' names and the first n are said here in
 * words, move-words.js).
 */
export function makeMcts(run, h) {
  const { say, name, move, who, rootPhrase, set, event, linesOf } = run;
  const c = num(h.exploration);
  const [lo, hi] = h.range.map(num);
  const n = h.iterations;
  const scale = hi > lo ? 1.0 / (hi - lo) : 0.0;
  let k = 0;              // the iteration under way (1-based)
  let ended = true;       // the next event starts an iteration
  let root = null;        // the search tree's root: {node, parent, children, visits, total}
  let at = null;          // where the iteration stands
  let result = null, leaf = false;   // the simulation's result; its node ended it itself
  const logs = new Map();             // visits N -> ln N, as the server has it

  const stat = (node, parent) => ({ node, parent, children: [], visits: 0, total: 0 });

  function tick() {
    if (!ended) return;
    k += 1;
    ended = false;
    if (!root) root = stat(run.root, null);
    at = root;
  }

  function moveActive(changes, from, to) {
    set(changes, from.id, 'status', 'visited');
    set(changes, to.id, 'status', 'active');
  }

  function mcEvent(kind, node, changes, text, extra) {
    const ev = event(kind, node, changes, text, extra);
    ev.lines = linesOf(kind, null);   // (one line a kind, whatever the node)
    return ev;
  }

  /** mcts.ucb_rows: each tried child with its UCB1 numbers, unrounded. */
  function rows(parent) {
    const ln = parent.visits ? logs.get(parent.visits) : 0.0;
    const ismax = parent.node.playerIndex === 0;
    return parent.children.map((ch) => {
      const v = ch.visits;
      const mean = ch.total / v;
      const exploit = (ismax ? mean - lo : hi - mean) * scale;
      const explore = c * Math.sqrt(ln / v);
      return { ch, visits: v, mean, exploit, explore, ucb: exploit + explore };
    });
  }

  function onSelect(i, ln) {
    const parent = at, child = parent.children[i];
    if (ln !== undefined) logs.set(parent.visits, ln);
    const node = parent.node, cnode = child.node;
    const all = rows(parent);
    const mine = all[i];
    const changes = [];
    moveActive(changes, node, cnode);
    const [worst, best] = node.playerIndex === 0 ? [lo, hi] : [hi, lo];
    const text = say("Iteration {k}: {player} at {node} selects {child}, the highest UCB1: {exploit} + {c} × √(ln {parent_visits} / {visits}) = {ucb} (n = {visits}; its mean {mean} for MAX is {exploit} on {player}'s scale from {worst} to {best}).", {
      k, player: who(node), node: name(node), child: move(node, cnode), exploit: two(mine.exploit),
      c: two(c), parent_visits: parent.visits, visits: mine.visits, ucb: two(mine.ucb),
      mean: two(mine.mean), worst: fmt(jv(worst)), best: fmt(jv(best)),
    });
    const shown = all.map((r) => {
      const row = { id: r.ch.node.id, visits: r.visits, mean: r3(r.mean), exploit: r3(r.exploit), explore: r3(r.explore), ucb: r3(r.ucb) };
      if (h.words) row.move = move(node, r.ch.node);   // the panel's rows, in words
      return row;
    });
    at = child;
    return mcEvent('select', cnode, changes, text, {
      parent: node.id, iteration: k, parent_visits: parent.visits, exploration: r3(c),
      range: [jv(lo), jv(hi)], children: shown,
    });
  }

  function onExpand(cnode) {
    const parent = at, node = parent.node;
    const child = stat(cnode, parent);
    parent.children.push(child);
    const changes = [];
    moveActive(changes, node, cnode);
    const text = say('Iteration {k}: {node} has an untried move, so the search tree grows by {child}.',
      { k, node: name(node), child: move(node, cnode) });
    at = child;
    return mcEvent('expand', cnode, changes, text, { parent: node.id, iteration: k });
  }

  function onSimulate(value, ids, cutoff, moves) {
    const node = at.node;
    result = value;
    leaf = ids.length === 0;
    const changes = [];
    set(changes, node.id, 'status', 'active');
    const res = fmt(jv(value));
    const count = ids.length;
    const at1 = { node: name(node), result: res };
    let text;
    if (!count) {
      text = cutoff
        ? say('{node} is on the depth limit: its eval {result} is the result, with no playout.', at1)
        : say('{node} is a leaf worth {result}: that is the result, with no playout.', at1);
    } else if (run.lazy) {   // a game's playout gives its moves, not nodes
      if (cutoff) {
        text = count === 1
          ? say('Playout from {node}: one random move, stopped by the depth limit: its eval {result} is the result.', at1)
          : say('Playout from {node}: {count} random moves, stopped by the depth limit: its eval {result} is the result.', { ...at1, count });
      } else {
        text = count === 1
          ? say('Playout from {node}: one random move to the end of the game, worth {result} for MAX.', at1)
          : say('Playout from {node}: {count} random moves to the end of the game, worth {result} for MAX.', { ...at1, count });
      }
    } else {
      const end = name(run.node(ids[count - 1]));
      if (cutoff) {
        text = count === 1
          ? say('Playout from {node}: one random move to {end}, where the depth limit stops it: its eval {result} is the result.', { ...at1, end })
          : say('Playout from {node}: {count} random moves to {end}, where the depth limit stops it: its eval {result} is the result.', { ...at1, count, end });
      } else {
        text = count === 1
          ? say('Playout from {node}: one random move to leaf {end}, worth {result} for MAX.', { ...at1, end })
          : say('Playout from {node}: {count} random moves to leaf {end}, worth {result} for MAX.', { ...at1, count, end });
      }
    }
    const extra = { iteration: k, result: jv(value), playout: ids, cutoff };
    if (moves) extra.moves = moves;
    return mcEvent('simulate', node, changes, text, extra);
  }

  function onBackup() {
    const start = at;
    const changes = [];
    const path = [];
    for (let s = start; s; s = s.parent) {
      s.visits += 1;
      s.total += result;
      path.push(s.node.id);
      set(changes, s.node.id, 'visits', s.visits);
      set(changes, s.node.id, 'mean', r3(s.total / s.visits));
    }
    set(changes, start.node.id, 'status', leaf ? 'evaluated' : 'visited');
    set(changes, root.node.id, 'status', k >= n ? 'visited' : 'active');
    ended = true;
    const res = fmt(jv(result));
    const fields = { result: res, root: name(root.node), visits: root.visits, mean: two(root.total / root.visits) };
    const text = start === root
      ? say('Back-propagate {result} at the root {root}: now N = {visits}, mean {mean} for MAX.', fields)
      : say('Back-propagate {result} from {node} up to the root: {count} nodes get one more visit; at {root} now N = {visits}, mean {mean} for MAX.', { ...fields, node: name(start.node), count: path.length });
    at = root;
    return mcEvent('backpropagate', start.node, changes, text, { iteration: k, result: jv(result), path });
  }

  /** A lazy game's playout from `node`: its moves' names -> the ids of the positions it passed
   * (paths of move names from the start, as app/games/lazy.py names its nodes). */
  function idsOf(node, names) {
    let prefix = node.parent ? `${node.id}-` : '';
    return names.map((name) => { prefix += name; const id = prefix; prefix += '-'; return id; });
  }

  /** A playout's first moves in words, said here when the header says so (`playout_words`:
   * a game whose rules name its moves; the records give their names), else null. */
  function saidHere(names) {
    if (!h.playout_words || !run.lazy || !names.length) return null;
    return playoutWords(run.game, at.node.label, names.slice(0, h.playout_words), say);
  }

  /** The record's event (kinds 10 to 13, app/search/compact_mcts.py). */
  function record(r) {
    if (r[0] !== 13) tick();   // (a selection, an expansion or a playout may start an iteration)
    switch (r[0]) {
      case 10: return onSelect(r[1], r[2]);
      case 11: return onExpand(r.length > 1 ? run.addNode(r[1], at.node.id, r[2], r[3])
        : at.node.children[at.children.length]);
      case 12: return onSimulate(num(r[1]), run.lazy ? idsOf(at.node, r[2]) : r[2], r[3], r.length > 4 ? r[4] : saidHere(r[2]));
      default: return onBackup();
    }
  }

  /** MctsNarrator.done: the most visited move, every node's visits and mean. */
  function done(step) {
    const visits = {}, means = {};
    let best = null;
    if (root) {
      const stack = [root];
      while (stack.length) {   // preorder, children in their order
        const s = stack.pop();
        visits[s.node.id] = s.visits;
        means[s.node.id] = s.visits ? r3(s.total / s.visits) : null;
        for (let i = s.children.length - 1; i >= 0; i--) stack.push(s.children[i]);
      }
      for (const ch of root.children) if (best === null || ch.visits > best.visits) best = ch;   // ties to the first
    }
    const pv = [];
    for (let s = root; s;) {
      pv.push(s.node.id);
      let next = null;
      for (const ch of s.children) if (next === null || ch.visits > next.visits) next = ch;
      s = next;
    }
    const value = root && root.visits ? r3(root.total / root.visits) : null;
    const rphrase = rootPhrase(run.root);
    const text = best
      ? say('Done after {n} iterations: the most visited move from {root} is {move}, with {visits} of {n} visits (mean {mean} for MAX).',
        { n, root: rphrase, move: move(root.node, best.node), visits: best.visits, mean: two(best.total / best.visits) })
      : say('Done after {n} iterations: {root} has mean {mean} for MAX.', { n, root: rphrase, mean: fmt(value) });
    return {
      type: 'done', step, value, best_move: best ? best.node.id : null, visits, means,
      evaluated: [], pruned: [], pv,
      stats: { iterations: n, nodes: Object.keys(visits).length, exploration: r3(c), events: step },
      lines: linesOf('done', null), text, changes: [],
    };
  }

  return { record, done };
}
