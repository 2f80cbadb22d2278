// The editor's requests: the what-if run of an edited tree (POST /api/edit/run),
// compared with the accepted run by the token the server gave it, and the
// same run asked ahead while a value is being typed. No DOM here beyond what
// the caller passes in.

import { t } from './i18n.js';

const TEXT = {
  network: t('The server did not answer; the edit was not kept.'),
};

/** POST JSON; the answer's JSON, or {error: {message}} (never throws). */
export async function post(url, body) {
  let res;
  performance.mark('edit-sent');
  try {
    res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  } catch {
    return { error: { message: TEXT.network } };
  }
  const json = await res.json().catch(() => ({ error: { message: `HTTP ${res.status}` } }));
  return res.ok ? json : { error: json.error || { message: `HTTP ${res.status}` } };
}

/** Search options as the API takes them. */
export function wire(options) {
  const out = { strict: !!options.strict };
  if (options.algorithm) out.algorithm = options.algorithm;
  if (options.depth != null) out.depth = options.depth;
  return out;
}

/**
 * makeServer(state, {withYaml(), aheadOff()}) -> {run, prefetch, prefetched, forget, yamlText}.
 * `state` is the page's: its `doc` and `token` (the accepted tree and run),
 * `options`, `yaml`.
 */
export function makeServer(state, { withYaml, aheadOff }) {
  /** The what-if run of `doc` (and how it differs from the accepted run). */
  async function run(doc, options, edit) {
    const body = { tree: doc, options: wire(options), edit, text: withYaml() ? 'all' : 'notation' };
    if (state.token) body.previous_state = state.token;
    let answer = await post('/api/edit/run', body);
    if (answer.previous_missing && state.doc) {   // this server forgot it: send the tree before
      answer = await post('/api/edit/run', { ...body, previous_state: undefined, previous: state.doc });
    }
    return answer;
  }

  // A value or eval being typed is sent ahead (one request at a time, the
  // latest text winning): by the time Enter commits it, the server's answer
  // for that very tree is usually in, and the edit is drawn in the next
  // frame. Answers are kept per accepted run, options and tree: only an
  // exact match is used.
  const ahead = { answers: new Map(), flying: false, wanted: null };
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
    answer.finally(() => { ahead.flying = false; sendAhead(); });
  }

  /** The answer sent ahead for exactly this tree and these options (a promise), or null. */
  const prefetched = (doc, options) => ahead.answers.get(aheadKey(doc, options)) || null;

  /** The accepted tree's YAML (asked for when first needed: shown or saved). */
  async function yamlText() {
    if (state.yaml == null) {
      const answer = await post('/api/edit/run', { tree: state.doc, options: wire(state.options), text: 'all' });
      if (answer.error) throw new Error(answer.error.message);
      state.yaml = answer.yaml;
    }
    return state.yaml;
  }

  return { run, prefetch, prefetched, forget: () => ahead.answers.clear(), yamlText };
}
