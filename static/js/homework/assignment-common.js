// What the assignment pages share: the student's personal token (from a
// personal link's fragment #s=<token>, kept in this browser's storage per
// assignment: no cookie, so the pages work framed by an LMS), and the
// API's JSON with the token attached. Links between the assignment's pages
// carry the token in their fragment (never sent to the server).

import { pageFetch } from '../core/i18n.js';

const KEY = (id) => `assignment:${id}:token`;

/** The student's token for assignment `id`, taking one from the address's fragment. */
export function studentToken(id) {
  const m = /(?:^#|&)s=([A-Za-z0-9_-]{10,100})/.exec(location.hash);
  if (m) {
    setToken(id, m[1]);
    history.replaceState(null, '', location.pathname + location.search);
    return m[1];
  }
  if (memory.get(id)) return memory.get(id);
  try { return localStorage.getItem(KEY(id)); } catch { return null; }
}

/** `path` with the student's token in its fragment: the next page finds it even
 *  where this frame may keep nothing (an LMS's frame with third-party storage blocked). */
export function withToken(id, path) {
  const tok = studentToken(id);
  return tok ? `${path}#s=${tok}` : path;
}

export function setToken(id, token) {
  try {
    if (token) localStorage.setItem(KEY(id), token); else localStorage.removeItem(KEY(id));
  } catch { /* private mode: the token lasts as long as the page */ }
  memory.set(id, token);
}

const memory = new Map();

const REQUEST = (id) => `assignment:${id}:request`;
const requests = new Map();

/** The name form's request key for assignment `id`: random, made once and kept in this
 *  browser's storage (before the name is sent), so a retry after a lost answer is known
 *  as this device's. It holds nothing the stored token does not: "Not you?" forgets both. */
export function requestKey(id) {
  let key = requests.get(id);
  try { key = key || localStorage.getItem(REQUEST(id)); } catch { /* private mode */ }
  if (!key || !/^[A-Za-z0-9_-]{16,100}$/.test(key)) {
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_');
    try { localStorage.setItem(REQUEST(id), key); } catch { /* kept for this page only */ }
  }
  requests.set(id, key);
  return key;
}

export function forgetRequestKey(id) {
  requests.delete(id);
  try { localStorage.removeItem(REQUEST(id)); } catch { /* nothing kept */ }
}

/** pageFetch() JSON from the assignments API with the student's token; throws an Error with the server's message. */
export async function api(id, path, { method = 'GET', body, token } = {}) {
  const headers = { Accept: 'application/json' };
  const tok = token ?? memory.get(id) ?? studentToken(id);
  if (tok) headers['X-Student-Token'] = tok;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await pageFetch(`/api/assignments/${encodeURIComponent(id)}${path}`, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(data.error?.message || `HTTP ${res.status}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

/** The language switch's links keep the token too (a reload in the other language). */
export function keepTokenInLanguageLinks(id) {
  for (const a of document.querySelectorAll('.lang-switch a')) {
    a.href = withToken(id, a.getAttribute('href').split('#')[0]);
  }
}
