// The page narrator's summary, as app/search/narrate_summary.py says it: the
// `done` event (value, best move, principal variation, what was evaluated and
// cut, the counts) and its closing sentence. It reads the narrator's shared
// run state (`run`) and the cut-offs' counts (`cuts`: narrate-cuts.js).

import { SENTENCES as S } from './algorithms.js';   // the sentences, by kind (app/search/sentences.py)
import { fmt, jv } from './narrate-numbers.js';

/** makeSummary(run, cuts) -> {done(minimaxEvaluated, step)}. */
export function makeSummary(run, cuts) {
  const { say, rootPhrase, move, isChance, linesOf, bestChild, evaluated, iterations } = run;

  function principalVariation() {
    const pv = [run.root];
    while (bestChild.has(pv[pv.length - 1].id)) pv.push(bestChild.get(pv[pv.length - 1].id));
    return pv.map((n) => n.id);
  }

  function counts(n, plain, saved) {
    const one = n === 1, oneCut = cuts.cutoffs === 1;
    const fields = { n, cutoffs: cuts.cutoffs, plain, saved };
    if (!run.bounds) return one ? say(S.count_1, fields) : say(S.count_n, fields);
    if (run.leafBounds) {
      if (one && oneCut) return say(S.star_1_1, fields);
      if (one) return say(S.star_1_n, fields);
      if (oneCut) return say(S.star_n_1, fields);
      return say(S.star_n_n, fields);
    }
    if (one && oneCut) return say(S.plain_1_1, fields);
    if (one) return say(S.plain_1_n, fields);
    if (oneCut) return say(S.plain_n_1, fields);
    return say(S.plain_n_n, fields);
  }

  function done(minimaxEvaluated, step) {
    let best = bestChild.get(run.root.id) || null;
    if (isChance(run.root)) best = null;
    const n = evaluated.length;
    const stats = {
      entered: run.entered, evaluated: n, cutoffs: cuts.cutoffs, pruned_nodes: cuts.prunedNodes,
      minimax_evaluated: minimaxEvaluated, saved: minimaxEvaluated - n, events: step,
    };
    const value = run.rootValue;
    const head = best
      ? say(S.done_move, { root: rootPhrase(run.root), value: fmt(value), move: move(run.root, best) })
      : say(S.done, { root: rootPhrase(run.root), value: fmt(value) });
    const text = `${head} ${counts(n, minimaxEvaluated, stats.saved)}`;
    const ev = {
      type: 'done', step, value: jv(value), best_move: best ? best.id : null,
      evaluated: [...evaluated], pruned: [...cuts.pruned], pv: principalVariation(), stats,
    };
    if (iterations.length) ev.iterations = iterations;
    ev.lines = linesOf('done', null);
    ev.text = text;
    ev.changes = [];
    return ev;
  }

  return { done };
}
