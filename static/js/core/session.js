// One tree being stepped through: the current run (events + cursor), how
// it is fetched, and how a move reaches the drawing. Moving to a step only
// redraws the nodes whose fields the crossed events change.

import { lang, t } from './i18n.js';
import { makeRun, read } from './model.js';
import { closeRun, makeFeeder, startRun, MAX_PULL } from './stream.js';
import { makeNarrator } from './narrate.js';
import { compact } from './algorithms.js';
import { evaluationsBelow } from './tree.js';

const AHEAD = 400;        // keep this many events fetched beyond the step shown
const BATCH = 200;
const BIG = 2000;         // nodes to redraw beyond which the page draws in slices
const SLICE_MS = 200;     // ... of about this long, yielding to the page between
const STATUS_MS = 100;    // a stream's progress is shown at most this often
// A run holds at most this many events behind the step it is at (model.js
// keep): the whole of tic-tac-toe is 1.4 million events, more than a page
// should hold. A stream far ahead of the step moves the run's view along
// (the drawing catches up when the stream stops); a move back beyond what
// is held starts the run again and streams to that step.
const KEEP = 50000;

/** Let the page handle input and paint before going on. */
const yieldToPage = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Start a run on the server before the page has a session (the page opening:
 * the server sets the run up while the tree is laid out and drawn). Returns
 * a ticket for the session's first start(p, step, ticket) with the same
 * options, which then waits for this run instead of asking for another.
 */
export function startEarly(socket, treeId, p) {
  // A server shedding load asks to wait: said by the session once it holds the ticket.
  const ticket = { params: { ...p }, waiting: false, onWait: null };
  ticket.id = startRun(socket, { tree: treeId, ...ticket.params, lang }, {
    onWait: () => { ticket.waiting = true; ticket.onWait?.(); },
  });
  ticket.id.catch(() => {});      // (its error is the session's, when it takes the ticket)
  return ticket;
}

const sameParams = (a, b) => {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if ((a[k] ?? null) !== (b[k] ?? null)) return false;
  return true;
};

/**
 * makeSession({socket, tree, treeId, treeView, zoom, onUpdate, onStatus, onFetched}).
 * onUpdate(session) after every move; onStatus({busy, error, streamed,
 * fraction}); onFetched(session) when a batch of events has arrived.
 * `narrate` (default true): the page narrates the run's raw events
 * (narrate.js); false: the server sends them narrated.
 */
export function makeSession({ socket, tree, treeId, treeView, zoom, onUpdate, onStatus, onFetched, narrate = true }) {
  let run = null, feeder = null, runId = null, params = {};
  let gen = 0;              // bumps on every (re)start; stale work checks it
  let want = 0;             // the step asked for (may not be fetched yet)
  let active = null;        // id of the node ringed
  let labels = null;        // the current run's narrator: labels of nodes the page does not draw
  let playing = false, timer = 0, speed = 2;
  let streaming = null;     // token of the stream to the end (or to a cut) in progress
  let pending = new Set(), raf = 0;
  let drawing = 0;          // token of the sliced redraw in progress (0: none)
  let sliceMs = SLICE_MS;
  let early = null;         // moves asked for before the first run: {at: a step or null, by: keys' steps}

  function savedBy(ev) {
    let n = 0;
    for (const id of ev.skipped || []) {
      const node = tree.byId.get(id);
      if (node) n += evaluationsBelow(node, params.depth ?? null);
    }
    return n;
  }

  /**
   * (Re)start the run with `p` and go to `step` (same step after a switch);
   * `ticket` (startEarly): a run already asked for with the same options.
   */
  async function start(p, step = 0, ticket = null) {
    const my = ++gen;
    const first = !run;
    pause();
    streaming = null;
    closeRun(socket, runId);
    runId = null;
    params = { ...p };
    onStatus({ busy: t('Starting…') });
    const onWait = () => { if (my === gen) onStatus({ busy: t('Waiting for the server…') }); };
    const taken = ticket && sameParams(ticket.params, params) ? ticket.id : null;
    if (taken) {
      ticket.onWait = onWait;
      if (ticket.waiting) onWait();
    } else if (ticket) {
      ticket.id.then((old) => closeRun(socket, old), () => {});
    }
    let id;
    try {
      id = await (taken || startRun(socket, { tree: treeId, ...params, lang }, { onWait }));
    } catch (err) {
      if (my === gen) onStatus({ error: err.message });
      return false;
    }
    if (my !== gen) { closeRun(socket, id); return false; }
    const old = run;
    runId = id;
    const mine = run = makeRun({ savedBy, tree, keep: KEEP });
    // One without compact records (its record's `compact`) gets its events as JSON.
    const narrator = narrate && compact(params.algorithm) ? makeNarrator(tree) : null;
    labels = narrator;
    // Progress of a stream: static evaluations made or saved so far, out of
    // what plain minimax makes (iterative deepening goes round more than once).
    const plain = evaluationsBelow(tree.root, params.depth ?? null);
    let shownAt = 0;
    feeder = makeFeeder(socket, id, run, {
      // The page narrates the raw events itself (narrate.js): an eighth of the bytes.
      narrator,
      // The server is busy and said when to come back: the page waits, and says so.
      onWait: () => { if (mine === run) onStatus({ busy: t('Waiting for the server…') }); },
      onBatch: () => {
        // Far ahead of the step: move the view along, and let go of the events behind it.
        if (mine === run && mine.fetched - mine.step > KEEP) {
          mine.goTo(mine.fetched - KEEP / 2, pending);
          mine.trim();
        }
        // A stream brings a batch every few ms: show its progress now and
        // then (each update repaints the page around a big tree).
        const now = performance.now();
        if (streaming && !run.done && now - shownAt < STATUS_MS) return;
        shownAt = now;
        onFetched?.(api);              // the total may be known now
        if (!streaming) return;
        const c = run.countsAt(run.fetched);
        onStatus({ streamed: run.fetched, fraction: c ? Math.min(1, (c.evaluated + c.saved) / plain) : null });
      },
    });
    // Back to step 0 on screen: every node the old run had changed (all of
    // them if it had let go of its first events).
    if (old && old.low > 0) for (const n of tree.nodes) pending.add(n.id);
    else if (old) old.goTo(0, pending);
    // Moves asked for while the page's first run was starting (the tree is
    // on screen, and answers keys, from its first frame): keys step on from
    // `step`, a step asked for by number (a class's) replaces it.
    const target = first && early ? Math.max(0, (early.at ?? step) + early.by) : step;
    early = null;
    want = 0;
    flush();
    onStatus({});
    await goTo(target);
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
    if (!r) {                  // the first run is starting: where to go once it has
      early = { at: Math.max(0, k), by: 0 };
      return;
    }
    want = Math.max(0, r.total != null ? Math.min(k, r.total) : k);
    // Before what the run still holds: start it again, to that step.
    if (want < r.low) return start(params, want);
    if (want > r.fetched && !r.done) {
      onStatus({ busy: t('Fetching steps…') });
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

  /** Draw the nodes `pending` holds (as the run's view has them), then the rest. */
  function flush() {
    if (drawing) {                      // a sliced redraw in progress is taken over
      drawing = 0;
      onStatus({});
    }
    const fields = reader();
    treeView.setNodes(drawable(), fields);
    pending = new Set();
    finish(fields.found());
  }

  /**
   * The nodes in `pending` the page's tree has: a game's run touches nodes
   * the page has not fetched (folded away), hundreds of thousands of them.
   */
  function drawable() {
    if (pending.size <= tree.nodes.length) return pending;
    const out = new Set();
    for (const id of pending) if (tree.byId.has(id)) out.add(id);
    pending = out;
    return out;
  }

  /** model.read for the drawing, noting which node is active now. */
  function reader() {
    const view = run.view;
    let found = null, touched = false;
    const fields = (id) => {
      const f = read(view, id);
      if (f.status === 'active') found = id;
      if (id === active) touched = true;
      return f;
    };
    // The ring stays where it is if its node was not redrawn.
    fields.found = () => (found == null && !touched ? active : found);
    return fields;
  }

  function finish(found) {
    const r = run;
    if (found !== active) {
      active = found;
      treeView.setActive(active);
    }
    const node = active != null ? tree.byId.get(active) : null;
    if (node) zoom.ensureVisible(node.x, node.y);
    treeView.setPath(r.done && r.step === r.total ? r.done.pv : null);
    onUpdate(api);
  }

  /**
   * flush() for a jump that changes thousands of nodes: the same writes, in
   * slices of about `sliceMs` with the page free in between (it paints the
   * tree filling in, and the progress bar). Any other move takes over.
   */
  async function flushInSlices() {
    drawable();
    if (pending.size < BIG) { flush(); return; }
    const my = drawing = {};
    const r = run, total = pending.size, fields = reader();
    const ids = pending.values();
    let t0 = performance.now();
    for (;;) {
      const slice = [];
      for (let x = ids.next(); !x.done; x = ids.next()) {
        slice.push(x.value);
        if (slice.length === 500) break;
      }
      if (!slice.length) break;
      for (const id of slice) pending.delete(id);   // a takeover draws the rest
      treeView.setNodes(slice, fields);
      if (pending.size && performance.now() - t0 >= sliceMs) {
        onStatus({ drawing: 1 - pending.size / total });
        await yieldToPage();
        if (drawing !== my || r !== run) return;
        t0 = performance.now();
      }
    }
    drawing = 0;
    onStatus({});
    finish(fields.found());
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
    if (!r.done) return;
    performance.mark('end-fetched');
    run.goTo(r.total, pending);
    want = run.step;
    // A drawing that can show every node at once cheaply (the canvas
    // painter) shows the end's picture now; the rest (the per-node hooks,
    // the panels) follows in slices as before.
    if (treeView.preview) {
      treeView.preview(drawable(), reader());
      treeView.setPath(r.done.pv);
      performance.mark('end-painted');
    }
    await flushInSlices();
    performance.mark('end-drawn');
  }

  /** Go to the next cut-off (a prune event) after the current step. */
  function nextCut() {
    return seek((ev) => ev.type === 'prune', { busy: t('Looking for the next cut-off…') });
  }

  /**
   * Go to the first event that `test` accepts after the current step (or
   * after step `from`), streaming until one comes; the end if none does.
   */
  async function seek(test, { from = null, busy = t('Looking ahead…') } = {}) {
    if (!run) return;
    pause();
    const r = run, f = feeder, my = {};
    streaming = my;
    let k = from ?? r.step;
    for (;;) {
      while (k < r.fetched && !test(r.events[k])) k++;
      if (k < r.fetched || r.done) break;
      onStatus({ busy });
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
  const step = (d) => {
    interrupt();
    if (!run) {               // (keys before the first run: counted, stepped once it has started)
      early = { at: early?.at ?? null, by: (early?.by ?? 0) + d };
      return Promise.resolve();
    }
    return goTo(want + d);
  };
  const api = {
    start,
    goTo: (k) => { interrupt(); return goTo(k); },
    forward: () => step(1),
    back: () => { pause(); return step(-1); },
    toStart: () => { pause(); return step(-Infinity); },
    toEnd, nextCut, seek, play, pause,
    toggle: () => (playing ? pause() : play()),
    setSpeed(s) { speed = s; },
    /** How long (ms) a slice of a big redraw runs before yielding (tests shorten it). */
    get sliceMs() { return sliceMs; },
    set sliceMs(ms) { sliceMs = ms; },
    get run() { return run; },
    get params() { return params; },
    get active() { return active; },
    /** Node `id`'s label, drawn or not (a lazy game's node the search reached). */
    labelOf: (id) => tree.byId.get(id)?.label ?? labels?.labelOf(id) ?? null,
    /** A game's position (a label) in words, as the run's records said it. */
    wordsOf: (label, child = null) => labels?.wordsOf(label, child) ?? null,
    get playing() { return playing; },
    get streaming() { return streaming !== null; },
    /**
     * Close the server's run once every event is here: the session steps on
     * through what it holds (a class's phones would otherwise keep hundreds
     * of finished runs open on the server). Returns whether it was closed.
     */
    release() {
      if (!run?.done || runId == null) return false;
      closeRun(socket, runId);
      runId = null;
      return true;
    },
  };
  socket.on('connect', () => {
    // A reconnect lost the server's run: start it again where we were.
    if (runId != null) start(params, run ? run.step : 0);
  });
  return api;
}
