// The state of a run in the browser: the events fetched so far, the current
// step, and the view (every node's status, value, alpha, beta) at that step.
//
// `apply` and `undo` are the JavaScript twin of app.search.View.apply/undo:
// an event's `changes` are [node, field, old, new] rows, so stepping forward
// sets `new`, stepping back restores `old`, and jumping to step k is a replay.
// This module touches no DOM, so a test can import it in any page.
//
// A cut-off marks each subtree it skips with one change on the subtree's
// top: status 'pruned' there holds for all below it. The maps keep what the
// changes say; `read` shows a node under a pruned top as 'pruned', and
// `apply`/`undo` add the drawn nodes below such a top to `touched` (both
// need the view's tree: nodes with `parent` and `children`, by id).

export const FIELDS = ['status', 'value', 'alpha', 'beta'];
export const EMPTY = { status: 'unvisited', value: null, alpha: null, beta: null };
// [mcts] Monte Carlo tree search's statistics: read only where set (as View.state does).
export const EXTRA = ['visits', 'mean'];

/**
 * A view with every node unvisited and no values (step 0). `tree` (optional:
 * {byId: Map of nodes with parent, children}) lets it show pruned subtrees.
 */
export function makeView(tree = null) {
  return { status: new Map(), value: new Map(), alpha: new Map(), beta: new Map(),
    visits: new Map(), mean: new Map(), tree };
}

/** Apply one event's changes; add each node touched to the `touched` set. */
export function apply(view, changes, touched) {
  for (const [id, field, old, now] of changes) {
    set(view[field], id, field, now);
    if (touched) touch(view, touched, id, field, old, now);
  }
}

/** Undo one event's changes (in reverse order, so repeated fields unwind). */
export function undo(view, changes, touched) {
  for (let i = changes.length - 1; i >= 0; i--) {
    const [id, field, old, now] = changes[i];
    set(view[field], id, field, old);
    if (touched) touch(view, touched, id, field, old, now);
  }
}

function touch(view, touched, id, field, old, now) {
  touched.add(id);
  if (field !== 'status' || (old !== 'pruned' && now !== 'pruned') || !view.tree) return;
  const top = view.tree.byId.get(id);
  const stack = top ? [...top.children] : [];
  while (stack.length) {
    const n = stack.pop();
    touched.add(n.id);
    for (const c of n.children) stack.push(c);
  }
}

function set(map, id, field, x) {
  if (map === undefined) throw new Error(`unknown view field ${field}`);
  // Keep maps small: a field back at its step-0 default is simply absent.
  if (x === null || x === undefined || x === EMPTY[field]) map.delete(id);
  else map.set(id, x);
}

/** One node's fields at the view's step: {status, value, alpha, beta} (and visits, mean where set). */
export function read(view, id) {
  const out = {};
  for (const f of FIELDS) out[f] = view[f].has(id) ? view[f].get(id) : EMPTY[f];
  for (const f of EXTRA) if (view[f].has(id)) out[f] = view[f].get(id);
  if (out.status === 'unvisited' && underPruned(view, id)) out.status = 'pruned';
  return out;
}

function underPruned(view, id) {
  if (!view.tree) return false;
  for (let n = view.tree.byId.get(id)?.parent; n; n = n.parent) {
    if (view.status.get(n.id) === 'pruned') return true;
  }
  return false;
}

/** The view after `events[0..step)`, replayed from step 0. */
export function replay(events, step, tree = null) {
  const view = makeView(tree);
  for (let i = 0; i < step; i++) apply(view, events[i].changes);
  return view;
}

// -- formatting shared by the page and the data-* hooks -----------------------

/** A value or bound as the data-* hooks spell it: '' if none, '-inf'/'inf'. */
export function hook(x) {
  if (x === null || x === undefined) return '';
  if (Array.isArray(x)) return JSON.stringify(x);
  return String(x);
}

/** A value or bound for people: ∞ signs, vectors as (1, 2, 6). */
export function show(x) {
  if (x === null || x === undefined) return '';
  if (x === 'inf' || x === Infinity) return '+∞';
  if (x === '-inf' || x === -Infinity) return '−∞';
  if (Array.isArray(x)) return `(${x.map(show).join(', ')})`;
  if (typeof x === 'number') {
    const s = Number.isInteger(x) ? String(x) : String(Math.round(x * 1000) / 1000);
    return s.replace('-', '−');
  }
  return String(x);
}

// -- the run: events so far plus a cursor ------------------------------------

// Which statistics each event type counts (as the core's done.stats does:
// a node "entered" is any node reached, evaluated leaves included).
const COUNTED = {
  enter: ['entered'], evaluate: ['entered', 'evaluated'], prune: ['cutoffs'],
  research: ['researches'],   // (principal variation search's re-searches)
};

/**
 * A run's events and the current step. `options.savedBy(event)` says how many
 * static evaluations a prune event spares (the page knows the tree's shape);
 * `options.tree` is the view's tree (see makeView).
 *
 * `options.keep` (default: all) bounds what a long run holds: the events
 * (and running statistics) more than `keep` steps behind the current step
 * are dropped by trim(), leaving holes (undefined) in `events`. A move to a
 * step below `low` cannot be undone from here: the page starts the run
 * again (session.js). The whole of tic-tac-toe is 1.4 million events.
 */
export function makeRun(options = {}) {
  const savedBy = options.savedBy || (() => 0);
  const keep = options.keep ?? Infinity;
  const events = [];
  // counts[k] = running statistics after step k, so any step reads in O(1).
  const counts = [{ entered: 0, evaluated: 0, cutoffs: 0, saved: 0, researches: 0 }];
  let last = counts[0];
  const view = makeView(options.tree || null);
  let step = 0;
  let done = null;
  let low = 0;             // events[0..low) and counts[0..low) are dropped

  function push(batch) {
    for (const ev of batch) {
      if (done) throw new Error('event after done');
      if (ev.step !== events.length + 1) {
        throw new Error(`expected step ${events.length + 1}, got ${ev.step}`);
      }
      events.push(ev);
      const c = { ...last };
      for (const key of COUNTED[ev.type] || []) c[key] += 1;
      if (ev.type === 'prune') c.saved += savedBy(ev);
      counts.push(c);
      last = c;
      if (ev.type === 'done') done = ev;
    }
  }

  /** Move to step k (clamped to what is fetched); returns the nodes touched. */
  function goTo(k, touched = new Set()) {
    k = Math.max(low, Math.min(k, events.length));
    while (step < k) apply(view, events[step++].changes, touched);
    while (step > k) undo(view, events[--step].changes, touched);
    return touched;
  }

  /** Drop what lies more than `keep` steps behind the current step. */
  function trim() {
    const to = Math.min(step, events.length) - keep;
    if (to <= low) return;
    for (let i = low; i < to; i++) { events[i] = undefined; counts[i] = undefined; }
    low = to;
  }

  return {
    view,
    events,
    push,
    goTo,
    trim,
    /** The lowest step this run can still move to (0 unless trimmed). */
    get low() { return low; },
    get windowed() { return keep !== Infinity; },
    get step() { return step; },
    get fetched() { return events.length; },
    /** The total number of steps, known once `done` has arrived. */
    get total() { return done ? done.step : null; },
    get done() { return done; },
    /** The event that led to the current step (null at step 0). */
    get event() { return step > 0 ? events[step - 1] : null; },
    /** Running statistics after the current step. */
    get counts() { return counts[step]; },
    /** Running statistics after step k (k <= fetched). */
    countsAt: (k) => counts[k],
  };
}
