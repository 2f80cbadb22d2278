// The editor's requests: the what-if run of an edited tree, compared with
// the accepted run by the token the server gave it, and the same run asked
// ahead while a value is being typed. A run goes over the page's WebSocket
// (Socket.IO namespace /edit, event `run`) while it is open: an HTTP request
// per edit (POST /api/edit/run, the same answer) cost more than the search
// itself. HTTP stays for a tree too big for one Socket.IO message and
// whenever the socket is not connected. No DOM here beyond what the caller
// passes in.

import { io } from '../../vendor/socket.io/socket.io.esm.min.js';
import { pageFetch, socketOptions, t } from '../core/i18n.js';

const TEXT = {
  network: t('The server did not answer; the edit was not kept.'),
};

const SOCKET_BYTES = 60 * 1024;   // under the server's 64 KiB cap of one Socket.IO message
const SOCKET_WAIT = 15000;        // ms for an acknowledgement, then the run is asked over HTTP

/** POST JSON; the answer's JSON, or {error: {message}} (never throws). */
export async function post(url, body) {
  let res;
  performance.mark('edit-sent');
  try {
    res = await pageFetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  } catch {
    return { error: { message: TEXT.network } };
  }
  const json = await res.json().catch(() => ({ error: { message: `HTTP ${res.status}` } }));
  performance.mark('edit-received');
  return res.ok ? json : { error: json.error || { message: `HTTP ${res.status}` } };
}

let encoder = null;
/** Does this JSON text fit in one Socket.IO message? (UTF-8: at most 3 bytes a UTF-16 unit.) */
function fits(text) {
  if (text.length * 3 <= SOCKET_BYTES) return true;
  encoder ??= new TextEncoder();
  return text.length <= SOCKET_BYTES && encoder.encode(text).length <= SOCKET_BYTES;
}

/**
 * The what-if channel: the page's Socket.IO connection to /edit, opened at
 * once and kept (Socket.IO reconnects by itself). `ask(body)` -> the answer
 * of POST /api/edit/run for the same body, or {error} (never throws):
 * over the socket when it is connected and the body fits, else over HTTP.
 * `useHttp()` true sends every run over HTTP (bench/editor.py compares).
 */
export function makeChannel({ useHttp = () => false } = {}) {
  let socket = null;
  try {
    socket = io('/edit', socketOptions({ transports: ['websocket'] }));
  } catch {
    socket = null;    // no WebSocket here: HTTP it is
  }
  let last = null;   // how the last run went: 'socket' or 'http'
  const http = (body) => { last = 'http'; return post('/api/edit/run', body); };
  async function ask(body) {
    if (!socket?.connected || useHttp() || !fits(JSON.stringify(body))) return http(body);
    last = 'socket';
    performance.mark('edit-sent');
    let ack;
    try {
      ack = await socket.timeout(SOCKET_WAIT).emitWithAck('run', body);
    } catch {
      return http(body);   // lost or too slow: once more, over HTTP
    }
    performance.mark('edit-received');
    if (ack?.ok && typeof ack.answer_json === 'string') return JSON.parse(ack.answer_json);
    return { error: ack?.error || { message: TEXT.network } };
  }
  return { ask, get connected() { return !!socket?.connected; }, get last() { return last; } };
}

/** Search options as the API takes them. */
export function wire(options) {
  const out = { strict: !!options.strict };
  if (options.algorithm) out.algorithm = options.algorithm;
  if (options.depth != null) out.depth = options.depth;
  return out;
}

/**
 * makeServer(state, {withYaml(), aheadOff(), useHttp()}) -> {run, prefetch, prefetched, arrived, forget, yamlText, channel}.
 * `state` is the page's: its `doc` and `token` (the accepted tree and run),
 * `options`, `yaml`.
 */
export function makeServer(state, { withYaml, aheadOff, useHttp }) {
  const channel = makeChannel({ useHttp });
  /**
   * The what-if run of `doc` (and how it differs from the run of `before`,
   * by default the accepted tree, whose run the server knows as `state.token`).
   */
  async function run(doc, options, edit, before = state.doc) {
    const body = { tree: doc, options: wire(options), edit, text: withYaml() ? 'all' : 'notation' };
    if (state.token) body.previous_state = state.token;
    let answer = await channel.ask(body);
    if (answer.previous_missing && before) {   // this server forgot it: send the tree before
      const { previous_state: _, ...rest } = body;
      answer = await channel.ask({ ...rest, previous: before });
    }
    return answer;
  }

  // A value or eval being typed is sent ahead (one request at a time, the
  // latest text winning): by the time Enter commits it, the server's answer
  // for that very tree is usually in, and the edit is drawn in the next
  // frame. Answers are kept per accepted run, options and tree: only an
  // exact match is used.
  const ahead = { answers: new Map(), come: new Map(), flying: false, wanted: null };
  const aheadKey = (doc, options) => JSON.stringify([state.token, wire(options), doc]);

  function prefetch(doc, options, edit) {
    if (aheadOff()) return;
    const key = aheadKey(doc, options);
    if (ahead.answers.has(key)) return;
    ahead.wanted = { key, doc, options, edit };
    if (!ahead.flying) sendAhead();
  }

  function sendAhead() {
    const w = ahead.wanted;
    ahead.wanted = null;
    if (!w || !state.doc) return;
    ahead.flying = true;
    const answer = run(w.doc, w.options, w.edit);
    ahead.answers.set(w.key, answer);
    while (ahead.answers.size > 8) ahead.answers.delete(ahead.answers.keys().next().value);
    answer.then((a) => { if (ahead.answers.get(w.key) === answer) ahead.come.set(w.key, a); })
      .finally(() => { ahead.flying = false; sendAhead(); });
  }

  /** The answer sent ahead for exactly this tree and these options (a promise), or null. */
  const prefetched = (doc, options) => (ahead.answers.size && ahead.answers.get(aheadKey(doc, options))) || null;
  /** ... if it has come already (the answer itself), or null. */
  const arrived = (doc, options) => (ahead.come.size && ahead.come.get(aheadKey(doc, options))) || null;

  /** The accepted tree's YAML (asked for when first needed: shown or saved). */
  async function yamlText() {
    if (state.yaml == null) {
      const answer = await channel.ask({ tree: state.doc, options: wire(state.options), text: 'all' });
      if (answer.error) throw new Error(answer.error.message);
      state.yaml = answer.yaml;
    }
    return state.yaml;
  }

  const forget = () => { ahead.answers.clear(); ahead.come.clear(); };
  return { run, prefetch, prefetched, arrived, forget, yamlText, channel };
}
