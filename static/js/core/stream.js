// Events come over Socket.IO, drawn from the server's generator on demand:
// `start` opens a run, `pull` fetches the next batch, `close` ends it
// (docs/architecture.md). A feeder keeps a run filled a little ahead of the
// step on screen, one pull at a time.

import { socketOptions, t } from './i18n.js';
import { io } from '../../vendor/socket.io/socket.io.esm.min.js';

const TIMEOUT = 20000;     // ms to wait for an acknowledgement
export const MAX_PULL = 1000;
const PIPELINE = 3;        // pulls in flight when streaming
const MAX_WAITS = 20;      // refusals "busy, retry after" waited out before giving up

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The seconds a refusal asks to wait (503 + retry_after: the server sheds load), else 0. */
function retryAfter(ack) {
  const e = ack && ack.ok === false ? ack.error : null;
  return e && e.status === 503 && Number(e.retry_after) > 0 ? Number(e.retry_after) : 0;
}

/** Wait out a refusal: the asked seconds, a little spread so pages do not come back at once. */
const waitOut = (seconds) => sleep(seconds * 1000 * (0.5 + Math.random() / 2));

// Runs the server closed to make room for others (a `closed` event), with its reason.
const closedRuns = new Map();

/** The page's one connection. WebSocket first; long-polling if that fails. */
export function connect() {
  const socket = io(socketOptions({ transports: ['websocket', 'polling'], tryAllTransports: true }));
  socket.on('closed', (data) => { if (data && data.run) closedRuns.set(data.run, String(data.reason || '')); });
  return socket;
}

async function ask(socket, name, payload) {
  if (!socket.connected) {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(t('cannot reach the server'))), TIMEOUT);
      socket.once('connect', () => { clearTimeout(timer); resolve(); });
    });
  }
  return socket.timeout(TIMEOUT).emitWithAck(name, payload);
}

/**
 * Start a run; resolves to its id, or throws Error(server's message). A server
 * shedding load says when to come back (503 + retry_after): wait, saying so
 * through onWait(seconds), and ask again.
 */
export async function startRun(socket, params, { onWait } = {}) {
  for (let waits = 0; ; waits++) {
    const ack = await ask(socket, 'start', params);
    const wait = retryAfter(ack);
    if (wait && waits < MAX_WAITS) { onWait?.(wait); await waitOut(wait); continue; }
    if (!ack || ack.ok === false) throw new Error(ack?.error?.message || t('the run could not start'));
    return ack.run;
  }
}

export function closeRun(socket, runId) {
  if (runId != null && socket.connected) socket.emit('close', { run: runId }, () => {});
}

/**
 * makeFeeder(socket, runId, run, {onBatch}) -> {fill(target, batch), stop(), busy}.
 * fill() resolves once `run` holds `target` events or the run is done
 * (target Infinity: to the end). One pump draws the events; for a long
 * way to go it keeps a few pulls in flight, so the server computes the next
 * batch while this one travels. The server answers a connection's pulls in
 * order, so batches are pushed in the order they were asked for.
 */
export function makeFeeder(socket, runId, run, { onBatch, onWait, narrator = null } = {}) {
  // With a narrator (narrate.js) the server sends the raw events' compact
  // records and the page narrates them; `count` then counts records (each
  // makes one event or more).
  const encoding = narrator ? 'compact' : 'json';
  let goal = 0, batch = 200;
  let pumping = null, failed = null;

  async function pump() {
    const inflight = [];
    let asked = run.fetched, ended = false, waits = 0;
    try {
      while (!run.done && (run.fetched < goal || inflight.length)) {
        const depth = goal - asked > MAX_PULL ? PIPELINE : 1;
        while (!ended && inflight.length < depth && asked < goal) {
          const count = Math.min(MAX_PULL, Math.max(batch, goal - asked));
          const p = ask(socket, 'pull', { run: runId, count, encoding });
          p.catch(() => {});        // awaited below, in order
          inflight.push({ p, count });
          asked += count;
        }
        if (!inflight.length) break;
        const pull = inflight.shift();
        const ack = await pull.p;
        if (run.done) continue;     // pulls asked for after the end
        // Refused for load: it took no events (the pulls after it take the next
        // ones, in order); ask for them again once the server says so.
        const wait = retryAfter(ack);
        if (wait && waits < MAX_WAITS) {
          waits++;
          asked -= pull.count;
          onWait?.(wait);
          await waitOut(wait);
          continue;
        }
        // A batch comes as one JSON text (encoding 'json'): one parse here.
        if (ack && typeof ack.events_json === 'string') ack.events = JSON.parse(ack.events_json);
        if (ack && typeof ack.records_json === 'string') ack.events = narrator.feed(JSON.parse(ack.records_json));
        if (!ack || ack.ok === false || !Array.isArray(ack.events)) {
          throw new Error(closedRuns.get(runId) || ack?.error?.message || t('the server did not send events'));
        }
        run.push(ack.events);
        if (ack.done) {
          ended = true;
          if (!run.done) throw new Error(t('the run ended without a done event'));
        }
        onBatch?.(ack.events.length);
      }
    } catch (err) {
      if (!run.done) failed = err;
    }
  }

  async function fill(target, size = 200) {
    goal = Math.max(goal, target);
    batch = size;
    // goal may drop below target: stop() ends the wait early.
    while (!run.done && run.fetched < Math.min(target, goal)) {
      if (failed) throw failed;
      if (!pumping) pumping = pump().finally(() => { pumping = null; });
      await pumping;
    }
    if (failed && !run.done && run.fetched < Math.min(target, goal)) throw failed;
  }

  /** Stop fetching beyond what is asked already (a stream was interrupted). */
  function stop() {
    goal = run.fetched;
  }

  return { fill, stop, get busy() { return pumping !== null; } };
}
