// The library page (/): the lecture trees and this browser's own uploads as
// cards with a preview each, and the upload area (file, drag and drop, pasted text).

import { drawPreview } from './preview.js';
import { lang, t, num, pageFetch } from '../core/i18n.js';
import { deleteUpload, keepOnly, myUploads, remember } from './my-uploads.js';
import { shortName } from '../core/algorithms.js';

const $ = (sel) => document.querySelector(sel);
const PREVIEW_UP_TO = 1500;   // nodes; bigger trees get a size badge instead

let cards = 0;

function h(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function card(entry) {
  const a = h('a', 'card');
  a.href = entry.url || `/t/${encodeURIComponent(entry.id)}`;
  a.dataset.tree = entry.id;
  const figure = h('div', 'preview');
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('aria-hidden', 'true');
  figure.appendChild(svg);
  a.appendChild(figure);
  const body = h('div', 'card-body');
  // The link is named by its title (the preview's numbers are hidden).
  const title = h('h3', null, entry.translations?.[lang]?.title || entry.title || entry.id);
  title.id = `card-title-${++cards}`;
  a.setAttribute('aria-labelledby', title.id);
  body.appendChild(title);
  if (entry.source) body.appendChild(h('p', 'card-source', entry.source));
  const meta = h('p', 'card-meta');
  const facts = [
    entry.nodes != null ? t('{n} nodes', { n: num(entry.nodes) }) : null,
    entry.leaves != null ? t('{n} leaves', { n: num(entry.leaves) }) : null,
    entry.height != null ? t('depth {n}', { n: entry.height }) : null,
    entry.players && entry.players.length > 2 ? t('{n} players', { n: entry.players.length }) : null,
  ].filter(Boolean);
  meta.textContent = facts.join(' · ');
  body.appendChild(meta);
  if (entry.algorithm) body.appendChild(h('span', 'badge', shortName(entry.algorithm)));
  if (entry.chance) body.appendChild(h('span', 'badge chance', t('chance')));
  a.appendChild(body);
  if (entry.nodes > PREVIEW_UP_TO) {
    figure.classList.add('too-big');
    figure.appendChild(h('span', null, t('{n} nodes', { n: num(entry.nodes) })));
  } else {
    previews.observe(a);
  }
  return a;
}

// Draw a card's preview when it scrolls into view, not all at once.
const previews = new IntersectionObserver((entries) => {
  for (const e of entries) {
    if (!e.isIntersecting) continue;
    previews.unobserve(e.target);
    const id = e.target.dataset.tree;
    pageFetch(`/api/trees/${encodeURIComponent(id)}`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(r.status))))
      .then((json) => drawPreview(e.target.querySelector('.preview svg'), json))
      .catch(() => {
        const preview = e.target.querySelector('.preview');
        preview.dataset.note = t('no preview');     // (said by the style sheet's ::after)
        preview.classList.add('failed');
      });
  }
}, { rootMargin: '200px' });

async function loadLibrary() {
  const res = await pageFetch('/api/trees');
  const builtin = res.ok ? await res.json() : [];
  $('#gallery').replaceChildren(...builtin.map(card));
  $('#gallery-empty').hidden = builtin.length > 0;
  await loadMine();
}

// This browser's own uploads: the server lists no one's uploads.
async function loadMine() {
  const mine = myUploads();
  let uploads = [];
  if (mine.length) {
    const ids = mine.map((u) => encodeURIComponent(u.id)).join(',');
    const res = await pageFetch(`/api/trees?ids=${ids}`);
    if (res.ok) {
      uploads = await res.json();
      keepOnly(uploads.map((e) => e.id));
    }
  }
  const tokens = new Map(myUploads().map((u) => [u.id, u.token]));
  $('#uploads').replaceChildren(...uploads.map((entry) => ownCard(entry, tokens.get(entry.id))));
  $('#uploads-section').hidden = uploads.length === 0;
}

function ownCard(entry, token) {
  const box = h('div', 'own-upload');
  box.appendChild(card(entry));
  if (token) {
    const del = h('button', 'link', t('Delete'));
    del.type = 'button';
    del.dataset.action = 'delete-upload';
    del.setAttribute('aria-label', t('Delete {title}', { title: entry.title || entry.id }));
    del.addEventListener('click', async () => {
      if (await deleteUpload(entry.id)) box.remove();
      $('#uploads-section').hidden = !$('#uploads').children.length;
    });
    box.appendChild(del);
  }
  return box;
}

// -- uploading --------------------------------------------------------------

const alertEl = () => $('#upload-error');

function showError(err, fromText) {
  const where = err.line == null ? ''
    : ' ' + (err.column != null ? t('(line {line}, column {column})', err) : t('(line {line})', err));
  alertEl().textContent = `${err.message || t('The tree could not be read.')}${where}`;
  alertEl().scrollIntoView({ block: 'center', behavior: 'instant' });
  // Put the cursor on the offending line of pasted text.
  const ta = $('#paste');
  if (fromText && err.line != null) {
    const lines = ta.value.split('\n');
    const start = lines.slice(0, err.line - 1).reduce((s, l) => s + l.length + 1, 0);
    const end = start + (lines[err.line - 1] || '').length;
    ta.focus();
    ta.setSelectionRange(start, end);
  }
}

async function send(body, headers, fromText) {
  alertEl().textContent = '';
  document.body.classList.add('uploading');
  try {
    const res = await pageFetch('/api/trees', { method: 'POST', body, headers });
    const answer = await res.json().catch(() => ({}));
    if (res.status === 201 && answer.id) {
      remember(answer.id, answer.delete_token);
      location.assign(answer.url || `/t/${encodeURIComponent(answer.id)}`);
      return;
    }
    showError(answer.error || { message: t('The server answered {status}.', { status: res.status }) }, fromText);
  } catch (err) {
    showError({ message: t('Could not reach the server: {reason}', { reason: err.message }) }, fromText);
  } finally {
    document.body.classList.remove('uploading');
  }
}

function uploadFile(file) {
  const form = new FormData();
  form.append('file', file, file.name);
  return send(form, {}, false);
}

/** The pasted text's type: JSON, the one-line notation, or YAML. */
export function contentType(text) {
  const s = text.trimStart();
  if (s.startsWith('{') || s.startsWith('[')) return 'application/json';
  if (s.startsWith('(')) return 'text/plain';
  return 'application/x-yaml';
}

function setupUpload() {
  const input = $('#file');
  input.addEventListener('change', () => {
    if (input.files.length) uploadFile(input.files[0]);
  });
  const zone = $('#dropzone');
  zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('over'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    const file = e.dataTransfer.files[0];
    if (file) uploadFile(file);
    else {
      const text = e.dataTransfer.getData('text/plain');
      if (text) { $('#paste').value = text; openText(); }
    }
  });
  $('#open').addEventListener('click', openText);
  $('#paste').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) openText();
  });
  for (const b of document.querySelectorAll('[data-example]')) {
    b.addEventListener('click', () => {
      $('#paste').value = document.getElementById(b.dataset.example).textContent.trim();
      $('#paste').focus();
    });
  }
}

function openText() {
  const text = $('#paste').value;
  if (!text.trim()) {
    showError({ message: t('Paste a tree first (YAML, JSON or the one-line notation).') }, false);
    return;
  }
  send(text, { 'Content-Type': `${contentType(text)}; charset=utf-8` }, true);
}

setupUpload();
// ready: the lecture trees and this browser's own uploads are drawn
loadLibrary().finally(() => document.body.classList.add('ready'));
