// Keep and share an edited tree: download it (YAML, JSON), save it as an
// upload (the same content-derived id as uploading the file) and open it in
// the visualizer, practice, or a live class.

import { fileData } from './editor-convert.js';
import { t, pageFetch } from '../core/i18n.js';

const TEXT = {
  saveFailed: (m) => t('Could not save: {reason}', { reason: m }),
  classFailed: (m) => t('The class could not start: {reason}', { reason: m }),
};

const $ = (sel) => document.querySelector(sel);
const slug = (s) => (s || 'tree').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'tree';

function download(link, text, type, name) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  link.href = url;
  link.download = name;
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Wire the download links and the [data-share] buttons. `yamlText()` gives
 * the accepted tree's YAML (a promise), `enqueue(task)` runs a task after
 * the edits in flight, `showAlert(message)` shows a problem.
 */
export function bindSharing(state, { yamlText, enqueue, showAlert }) {
  const yamlLink = $('[data-download=yaml]');
  yamlLink.addEventListener('click', (e) => {
    if (yamlLink.dataset.ready) { delete yamlLink.dataset.ready; return; }   // the click below
    e.preventDefault();
    enqueue(async () => {
      download(yamlLink, await yamlText(), 'text/yaml', `${slug(state.doc.title)}.yaml`);
      yamlLink.dataset.ready = '1';
      yamlLink.click();
    });
  });
  $('[data-download=json]').addEventListener('click', (e) => {
    download(e.currentTarget, `${JSON.stringify(fileData(state.doc), null, 2)}\n`,
      'application/json', `${slug(state.doc.title)}.json`);
  });
  for (const button of document.querySelectorAll('[data-share]')) {
    button.addEventListener('click', () => share(button.dataset.share));
  }

  /** Save as an upload, then open it `where` (visualizer, practice, class). */
  function share(where) {
    enqueue(async () => {
      const res = await pageFetch('/api/trees', { method: 'POST', headers: { 'Content-Type': 'application/x-yaml' }, body: await yamlText() });
      const body = await res.json().catch(() => ({}));
      if (!res.ok) { showAlert(TEXT.saveFailed(body.error?.message || `HTTP ${res.status}`)); return; }
      const id = body.id;
      const o = state.result.options;
      const query = new URLSearchParams({ algorithm: o.algorithm });
      if (o.depth != null) query.set('depth', o.depth);
      if (o.strict) query.set('strict', '1');
      if (where === 'practice') { location.assign(`/practice/${encodeURIComponent(id)}`); return; }
      if (where === 'class' && await startClass(id, o)) return;
      location.assign(`/t/${encodeURIComponent(id)}?${query}`);
    });
  }

  /** A live class on the saved tree (contract §5); false if this server has none. */
  async function startClass(id, o) {
    const made = await pageFetch('/api/classes', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ tree: id, algorithm: o.algorithm, depth: o.depth, strict: o.strict }),
    }).catch(() => null);
    const c = await made?.json().catch(() => ({}));
    if (made?.status === 201) {
      try { localStorage.setItem(`class-token:${c.code}`, c.instructor); } catch { /* the fragment carries it */ }
      location.assign(`/c/${encodeURIComponent(c.code)}/present#${encodeURIComponent(c.instructor)}`);
      return true;
    }
    if (made && made.status !== 404) {
      showAlert(TEXT.classFailed(c?.error?.message || `HTTP ${made.status}`));
      return true;
    }
    return false;
  }

  return { save: () => share('visualizer') };
}
