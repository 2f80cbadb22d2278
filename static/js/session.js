// One tree being stepped through: the current run (events + cursor), how
// it is fetched, and how a move reaches the drawing. Moving to a step only
// redraws the nodes whose fields the crossed events change.

import { makeRun, read } from './model.js';
import { closeRun, makeFeeder, startRun, MAX_PULL } from './stream.js';
import { evaluationsBelow } from './tree.js';

const AHEAD = 400;        // keep this many events fetched beyond the step shown
const BATCH = 200;

/**
 * makeSession({socket, tree, treeId, treeView, zoom, onUpdate, onStatus, onFetched}).
 * onUpdate(session) after every move; onStatus({busy, error, streamed,
 * fraction}); onFetched(session) when a batch of events has arrived.
 */
export function makeSession({ socket, tree, treeId, treeView, zoom, onUpdate, onStatus, onFetched }) {
  let run = null, feeder = null, runId = null, params = {};
  let gen = 0;              // bumps on every (re)start; stale work checks it
  let want = 0;             // the step asked for (may not be fetched yet)
  let active = null;        // id of the node ringed
  let playing = false, timer = 0, speed = 2;
  let streaming = null;     // token of the stream to the end (or to a cut) in progress
  let pending = new Set(), raf = 0;

  function savedBy(ev) {
    let n = 0;
    for (const id of ev.skipped || []) {
      const node = tree.byId.get(id);
      if (node) n += evaluationsBelow(node, params.depth ?? null);
    }
    return n;
  }

  /** (Re)start the run with `p` and go to `step` (same step after a switch). */
  async function start(p, step = 0) {
    const my = ++gen;
    pause();
    streaming = null;
    closeRun(socket, runId);
    runId = null;
    params = { ...p };
    onStatus({ busy: 'Starting…' });
    let id;
    try {
      id = await startRun(socket, { tree: treeId, ...params });
    } catch (err) {
      if (my === gen) onStatus({ error: err.message });
      return false;
    }
    if (my !== gen) { closeRun(socket, id); return false; }
    const old = run;
    runId = id;
    run = makeRun({ savedBy });
    // Progress of a stream: static evaluations made or saved so far, out of
    // what plain minimax makes (iterative deepening goes round more than once).
    const plain = evaluationsBelow(tree.root, params.depth ?? null);
    feeder = makeFeeder(socket, id, run, {
      onBatch: () => {
        onFetched?.(api);              // the total may be known now
        if (!streaming) return;
        const c = run.countsAt(run.fetched);
        onStatus({ streamed: run.fetched, fraction: c ? Math.min(1, (c.evaluated + c.saved) / plain) : null });
      },
    });
    // Back to step 0 on screen: every node the old run had changed.
    if (old) old.goTo(0, pending);
    want = 0;
    flush();
    onStatus({});
    await goTo(step);
    return true;
  }

  async function fill(r, f, target, batch = BATCH) {
    try {
      await f.fill(target, batch);
    } catch (err) {
      if (r === run) onStatus({ error: err.message });
    }
  }

  /** Go to step k, fetching what is missing; later calls win. */
  async function goTo(k) {
    const r = run, f = feeder;
    if (!r) return;
    want = Math.max(0, r.total != null ? Math.min(k, r.total) : k);
    if (want > r.fetched && !r.done) {
      onStatus({ busy: 'Fetching steps…' });
      await fill(r, f, want);
      if (r !== run) return;
      onStatus({});
    }
    move(Math.min(want, r.fetched));
    // Prefetch quietly, so that stepping on never waits for the network.
    if (!r.done && r.fetched < r.step + AHEAD / 2 && !f.busy) fill(r, f, r.step + AHEAD);
  }

  function move(k, sync = true) {
    run.goTo(k, pending);
    want = run.step;
    if (sync) flush(); else if (!raf) raf = requestAnimationFrame(() => { raf = 0; flush(); });
  }

  function flush() {
    const r = run;
    let found = null;
    for (const id of pending) {
      const f = read(r.view, id);
      treeView.setNode(id, f);
      if (f.status === 'active') found = id;
    }
    if (found == null && active != null && !pending.has(active)) found = active;
    pending = new Set();
    if (found !== active) {
      active = found;
      treeView.setActive(active);
    }
    const node = active != null ? tree.byId.get(active) : null;
    if (node) zoom.ensureVisible(node.x, node.y);
    treeView.setPath(r.done && r.step === r.total ? r.done.pv : null);
    onUpdate(api);
  }

  // -- playing ----------------------------------------------------------------
  function play() {
    if (playing || !run) return;
    if (atEnd()) return;
    playing = true;
    onUpdate(api);
    tick();
  }

  function tick() {
    timer = setTimeout(async () => {
      if (!playing) return;
      await goTo(want + 1);
      if (atEnd()) pause(); else if (playing) tick();
    }, 1000 / speed);
  }

  function pause() {
    if (!playing) return;
    playing = false;
    clearTimeout(timer);
    onUpdate(api);
  }

  function atEnd() {
    return run && run.done && run.step >= run.total;
  }

  /** Stream every remaining event (progress shown), then show the end. */
  async function toEnd() {
    if (!run) return;
    pause();
    const r = run, f = feeder, my = {};
    streaming = my;
    if (!r.done) {
      onStatus({ streamed: r.fetched });
      // The view stays put while the events stream in: applying them is
      // cheap, but redrawing a big tree for every batch is not.
      await fill(r, f, Infinity, MAX_PULL);
      if (r !== run || my !== streaming) return;   // restarted or interrupted
    }
    streaming = null;
    onStatus({});
    if (r.done) move(r.total);
  }

  /** Go to the next cut-off (a prune event) after the current step. */
  async function nextCut() {
    if (!run) return;
    pause();
    const r = run, f = feeder, my = {};
    streaming = my;
    let k = r.step;
    for (;;) {
      while (k < r.fetched && r.events[k].type !== 'prune') k++;
      if (k < r.fetched || r.done) break;
      onStatus({ busy: 'Looking for the next cut-off…' });
      await fill(r, f, r.fetched + 3 * MAX_PULL, MAX_PULL);
      if (r !== run || my !== streaming) return;
    }
    streaming = null;
    onStatus({});
    move(k < r.fetched ? k + 1 : r.fetched);
  }

  // Every other move interrupts a stream to the end.
  function interrupt() {
    if (streaming) { streaming = null; feeder?.stop(); onStatus({}); }
  }
  const step = (d) => { interrupt(); return goTo(want + d); };
  const api = {
    start,
    goTo: (k) => { interrupt(); return goTo(k); },
    forward: () => step(1),
    back: () => { pause(); return step(-1); },
    toStart: () => { pause(); return step(-Infinity); },
    toEnd, nextCut, play, pause,
    toggle: () => (playing ? pause() : play()),
    setSpeed(s) { speed = s; },
    get run() { return run; },
    get params() { return params; },
    get active() { return active; },
    get playing() { return playing; },
    get streaming() { return streaming !== null; },
  };
  socket.on('connect', () => {
    // A reconnect lost the server's run: start it again where we were.
    if (runId != null) start(params, run ? run.step : 0);
  });
  return api;
}
