// The visitor's own uploads, remembered in this browser (uploads are
// unlisted on the server: nobody else sees them in the library). Each entry
// keeps the delete token the server gave at upload, if it gave one.

import { pageFetch } from '../core/i18n.js';

const KEY = 'my-uploads';
const MAX = 100;

export function myUploads() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(list) ? list.filter((u) => u && typeof u.id === 'string') : [];
  } catch {
    return [];
  }
}

function save(list) {
  try { localStorage.setItem(KEY, JSON.stringify(list.slice(0, MAX))); } catch { /* private mode */ }
}

export function remember(id, token) {
  const old = myUploads().find((u) => u.id === id);
  const rest = myUploads().filter((u) => u.id !== id);
  save([{ id, token: token || old?.token || null, at: Date.now() }, ...rest]);
}

export function forget(id) {
  save(myUploads().filter((u) => u.id !== id));
}

/** Keep only the ids the server still knows (evicted or expired ones go). */
export function keepOnly(ids) {
  const known = new Set(ids);
  save(myUploads().filter((u) => known.has(u.id)));
}

export async function deleteUpload(id) {
  const mine = myUploads().find((u) => u.id === id);
  if (!mine?.token) return false;
  const res = await pageFetch(`/api/trees/${encodeURIComponent(id)}`, {
    method: 'DELETE', headers: { 'X-Delete-Token': mine.token },
  });
  if (res.status === 204 || res.status === 404) forget(id);
  return res.status === 204;
}
