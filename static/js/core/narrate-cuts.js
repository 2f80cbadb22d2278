// The page narrator's sentences of bounds and cut-offs, as
// app/search/narrate_cuts.py says them: a bound that moves, alpha-beta's cut at
// a MAX or MIN node (the test, the ancestor whose bound cut, what is skipped),
// and Star1's windows and cuts at chance nodes with their arithmetic. An
// object with its own state (the cuts counted, the nodes pruned, the bounds
// each frame set, Star1's outcomes seen); it reads the narrator's shared run
// state (`run`: see narrate.js makeNarrator) and says through `run.say`.

import { SENTENCES as S } from './algorithms.js';   // the sentences, by kind (app/search/sentences.py)
import { eq, fmt, jv, unview } from './narrate-numbers.js';

// How a cut-off is written, by the player cut (narrate._CUT): MAX by beta, MIN by alpha.
// (The sentences are the narrator's own kinds: S, app/search/sentences.py.)
const CUT = {
  max: { bound: 'beta', symbol: 'β', sign: '≥', strictSign: '>', test: 'v >= beta', strictTest: 'v > beta' },
  min: { bound: 'alpha', symbol: 'α', sign: '≤', strictSign: '<', test: 'v <= alpha', strictTest: 'v < alpha' },
};

/** makeCuts(run) -> the narrator's cut-offs: {bound, onPrune, onChancePrune, Star1's window, ...}. */
export function makeCuts(run) {
  const { say, name, move, field, set, event, linesOf, isChance, path, raw, bestChild } = run;
  const seen = new Map();             // Star1: a chance node's outcomes searched so far
  const boundSet = new Map();         // `${id}\n${bound}` -> the value it set
  const cutNodes = new Set();         // nodes that cut (their return is a bound)
  const pruned = [];                  // the skipped children, in order
  let cutoffs = 0, prunedNodes = 0;

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
    const [lo, hi] = run.leafBounds;
    const [v, alpha, beta] = frame;
    const p = child.probability, rest = restAfter(n, child);
    const wa = p <= 0 ? -Infinity : (alpha - v - hi * rest) / p;
    const wb = p <= 0 ? Infinity : (beta - v - lo * rest) / p;
    return [wa > lo ? wa : lo, wb < hi ? wb : hi];
  }

  // narrate_cuts.CutSentences._window_words and _formula: where an outcome's α and β come from.
  function windowWords(n, child, frame) {
    const [lo, hi] = run.leafBounds;
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
    const [lo, hi] = run.leafBounds;
    const low = cut === 'alpha';
    let why;
    if (b === (low ? lo : hi)) {
      why = say(S[`outcome_edge_${cut}`], { node: name(n) });
    } else {
      const [, pa, pb] = raw[raw.length - 2];
      why = say(S[`outcome_why_${cut}`], { parent: name(parent), bound: fmt(low ? pa : pb) });
    }
    const fields = { node: name(n), v: fmt(v), sign, [cut]: fmt(b), why, names };
    return say(S[`outcome_${many ? 'many' : 'one'}_${cut}`], fields);
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
    const [lo, hi] = run.leafBounds;
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
      sign: low ? (run.strict ? '<' : '≤') : (run.strict ? '>' : '≥'), [low ? 'alpha' : 'beta']: fmt(limit),
    };
    const many = skipped.length > 1;
    const text = say(S[`chance_${many ? 'many' : 'one'}_${low ? 'alpha' : 'beta'}`], fields);
    const by = holder(low ? 'alpha' : 'beta', limit, n);
    const ev = event('prune', n, changes, text, {
      skipped: skipped.map((c) => c.id), cut: low ? 'alpha' : 'beta',
      test: low ? (run.strict ? 'v + U × rest < alpha' : 'v + U × rest <= alpha')
        : (run.strict ? 'v + L × rest > beta' : 'v + L × rest >= beta'),
      by: by ? by.id : null, bound: jv(limit), reach: jv(reach), pruned_nodes: count ?? null,
    });
    if (!low) ev.lines = linesOf('prune-high', n);
    return ev;
  }

  function bound(n, which, old, now) {
    boundSet.set(`${n.id}\n${which}`, now);
    const changes = [];
    set(changes, n.id, which, jv(now));
    const fields = { node: name(n), old: fmt(old), new: fmt(now) };
    const text = say(S[which], fields);   // (the kinds alpha and beta)
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
    const why = by ? say(S[`why_${cut}`], { bound: fmt(b), holder: name(by) }) + through(by)
      : `${side.symbol} = ${fmt(b)}`;
    const fields = { node: name(n), v: fmt(v), names, sign: run.strict ? side.strictSign : side.sign, [cut]: fmt(b), why };
    const many = skipped.length > 1;
    const parent = run.leafBounds && path.length > 1 ? path[path.length - 2] : null;
    let text;
    if (parent && isChance(parent)) {   // an outcome, cut by its window: no player chooses it
      text = outcomeCut(n, parent, cut, v, fields.sign, b, names, many);
    } else {
      text = say(S[`${many ? 'many' : 'one'}_${cut}`], fields);
    }
    return event('prune', n, changes, text, {
      skipped: skipped.map((c) => c.id), cut, test: run.strict ? side.strictTest : side.test,
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

  return {
    seenOf, starWindow, windowWords, onChancePrune, bound, onPrune, cutNodes, boundSet, pruned,
    get cutoffs() { return cutoffs; },
    get prunedNodes() { return prunedNodes; },
  };
}
