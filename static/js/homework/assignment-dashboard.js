// The instructor's dashboard (/a/<id>/dashboard#<token>): scores per
// student, per exercise the share all right and the most common mistakes,
// the gradebook exports, and a roster upload. The token comes in the
// address's fragment (never sent to the server as a URL) and is kept in this
// browser's storage; every request carries it as a Bearer token.

import { t, pageFetch } from '../core/i18n.js';
import { showCourse, showLeftOut, showSilent, showWaiting } from './dashboard-lms.js';

const $ = (sel) => document.querySelector(sel);
const MODES = {
  values: t('Minimax values'), cuts: t('Alpha-beta cuts'), full: t('Alpha-beta full'),
  guided: t('Guided'), order: t('Move ordering'),
};
// A mistake said in the page's language (the server's `what` is English: the exports keep it).
const MISTAKES = {
  missed: (w) => t('cut {node} missed', w),
  extra: (w) => t('cut {node} marked, not pruned', w),
  value: (w) => t('value of {node}: {given}', w),
  alpha: (w) => t('α of {node}: {given}', w),
  beta: (w) => t('β of {node}: {given}', w),
};
const mistake = (w) => (MISTAKES[w.mistake === 'wrong' ? w.kind : w.mistake] || (() => w.what))(w);
const students = (what, count) => (count === 1 ? t('{what} (1 student)', { what })
  : t('{what} ({count} students)', { what, count }));
const page = $('#dashboard');
const id = page.dataset.assignment;
const KEY = `assignment:${id}:instructor`;
const alertEl = $('#alert');
const showError = (msg) => { alertEl.textContent = msg || ''; alertEl.hidden = !msg; };

function token() {
  const fromHash = location.hash.slice(1);
  if (/^[A-Za-z0-9_-]{16,100}$/.test(fromHash)) {
    try { localStorage.setItem(KEY, fromHash); } catch { /* kept in the address only */ }
    return fromHash;
  }
  try { return localStorage.getItem(KEY); } catch { return null; }
}

async function call(path, init = {}) {
  const res = await pageFetch(`/api/assignments/${encodeURIComponent(id)}${path}`, {
    ...init, headers: { ...(init.headers || {}), Authorization: `Bearer ${token() || ''}` },
  });
  if (!res.ok) {
    const data = await res.json().catch(() => ({}));
    throw new Error(data.error?.message || `HTTP ${res.status}`);
  }
  return res;
}

function cell(text, cls) {
  const td = document.createElement('td');
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

function download(name, blob) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function load() {
  const r = await (await call('/results')).json();
  $('[data-role=title]').textContent = r.title;
  const link = $('[data-role=student-link]');
  link.href = link.textContent = `${location.origin}/a/${id}`;
  $('[data-role=exercises] tbody').replaceChildren(...r.exercises.map((e) => {
    const tr = document.createElement('tr');
    tr.dataset.exercise = String(e.index);
    tr.append(cell(String(e.index + 1)), cell(MODES[e.mode] || e.mode), cell(String(e.students), 'num'),
      cell(e.share_right == null ? '–' : `${Math.round(e.share_right * 100)} %`, 'num'));
    const td = document.createElement('td');
    const ul = document.createElement('ul');
    ul.className = 'mistakes';
    for (const [mid, count] of Object.entries(e.misconceptions || {}).sort((a, b) => b[1] - a[1])) {
      const li = document.createElement('li');
      li.className = 'misconception';
      li.dataset.misconception = mid;
      li.textContent = studentsHolding(count, r.misconception_names?.[mid] || mid);
      ul.append(li);
    }
    for (const w of e.wrong) {
      const li = document.createElement('li');
      li.textContent = students(mistake(w), w.count);
      ul.append(li);
    }
    td.append(ul);
    tr.append(td);
    return tr;
  }));
  showLeftOut($('[data-role=left-out]'), r.exports);
  showCourse($('[data-role=course-roster]'), r.course);
  showWaiting($('[data-role=course-waiting]'), r.course);
  showSilent($('[data-role=lms-silent]'), r.lms_silent);
  headline(r);
  $('[data-students]').textContent = String(r.students.length);
  // A refresh (a roster sent) keeps open the students the instructor had open.
  const opened = new Set([...document.querySelectorAll('[data-role=students] tr')]
    .filter((tr) => tr.querySelector('details[open]')).map((tr) => tr.dataset.student));
  $('[data-role=students] tbody').replaceChildren(...r.students.map((s) => {
    const tr = document.createElement('tr');
    tr.dataset.student = s.student;
    const who = document.createElement('td');
    const open = document.createElement('details');
    const name = document.createElement('summary');
    name.textContent = s.student;
    open.append(name);
    open.addEventListener('toggle', () => {
      if (!open.open || open.dataset.loaded) return;
      open.dataset.loaded = '1';
      if (s.origin === 'roster' || s.origin === 'name') open.append(newLinkBox(s));
      attempts(open, s.key);
    });
    open.open = opened.has(s.student);   // (its toggle loads the attempts again)
    who.append(open);
    tr.append(who, cell(s.sis_id || ''), cell(String(s.percent), 'num'),
      cell(s.exercises.map((x, i) => `${i + 1}: ${Math.round(x.score * 100)} % (${x.attempts})`).join(' · ')
        + (s.late ? ' · ' + t('late') : '')));
    return tr;
  }));
  return r;
}

/** "7 students: no deep cut-offs": how many students' last attempt each wrong rule
 *  explains (contract §8), one line per exercise and rule, the most held first. */
function studentsHolding(count, name) {
  const words = t(name);
  return count === 1 ? t('1 student: {name}', { name: words })
    : t('{count} students: {name}', { count, name: words });
}

function headline(r) {
  const box = $('[data-role=misconceptions]');
  const lines = r.exercises.flatMap((e) => Object.entries(e.misconceptions || {})
    .map(([mid, count]) => ({ e, mid, count })));
  lines.sort((a, b) => b.count - a.count || a.e.index - b.e.index);
  box.hidden = lines.length === 0;
  box.querySelector('ul').replaceChildren(...lines.map(({ e, mid, count }) => {
    const li = document.createElement('li');
    li.dataset.misconception = mid;
    li.dataset.exercise = String(e.index);
    const strong = document.createElement('strong');
    strong.textContent = studentsHolding(count, r.misconception_names?.[mid] || mid);
    li.append(strong, document.createTextNode(
      ' · ' + t('Exercise {n}: {mode}', { n: e.index + 1, mode: MODES[e.mode] || e.mode })));
    return li;
  }));
}

/** A student's own trees (each opens in the visualizer) and every attempt, under their name. */
async function attempts(box, key) {
  try {
    const r = await (await call(`/students/${encodeURIComponent(key)}/attempts`)).json();
    const ul = document.createElement('ul');
    ul.className = 'student-work';
    for (const ex of r.exercises) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = `/t/${encodeURIComponent(ex.tree)}`;
      a.target = '_blank';
      a.rel = 'noopener';
      a.textContent = t('Exercise {n}: {mode}', { n: ex.index + 1, mode: MODES[ex.mode] || ex.mode });
      const tries = r.attempts.filter((x) => x.exercise === ex.index)
        .map((x) => `${x.right}/${x.total}` + (x.late ? ' (' + t('late') + ')' : ''));
      li.append(a, document.createTextNode(tries.length ? ` · ${tries.join(', ')}` : ''));
      // the wrong rule behind each attempt it explains (contract §8), after the scores
      for (const x of r.attempts.filter((y) => y.exercise === ex.index && y.misconception)) {
        const why = document.createElement('small');
        why.className = 'attempt-misconception';
        why.dataset.misconception = x.misconception;
        why.textContent = ' · ' + t('attempt {n}: {name}', {
          n: x.attempt, name: t(r.misconception_names?.[x.misconception] || x.misconception) });
        li.append(why);
      }
      li.dataset.tree = ex.tree;
      ul.append(li);
    }
    box.append(ul);
  } catch (err) { showError(err.message); }
}

/** New personal links made on this page, by student key: shown again when the table is
 *  made anew (a roster sent), as they are nowhere else (only their hashes are kept). */
const freshLinks = new Map();

/** A student who lost their link: a new one (the old stops working, said first), shown
 *  with its Copy button under their name. */
function newLinkBox(s) {
  const box = document.createElement('p');
  box.className = 'new-link';
  const button = document.createElement('button');
  button.type = 'button';
  button.dataset.action = 'new-link';
  button.textContent = t('New link');
  const shown = document.createElement('span');
  const show = (link) => {
    const out = document.createElement('output');
    out.className = 'link';
    out.textContent = `${location.origin}${link}`;
    shown.replaceChildren(document.createTextNode(t('New link for {name}:', { name: s.student }) + ' '),
      out, copyButton(() => out.textContent));
  };
  button.addEventListener('click', async () => {
    if (button.disabled || !confirm(t('Make a new personal link for {name}? Their old link stops working.',
      { name: s.student }))) return;
    button.disabled = true;                    // one new link per tap
    try {
      const r = await (await call(`/students/${encodeURIComponent(s.key)}/link`, { method: 'POST' })).json();
      freshLinks.set(s.key, r.link);
      show(r.link);
    } catch (err) { showError(err.message); } finally { button.disabled = false; }
  });
  if (freshLinks.has(s.key)) show(freshLinks.get(s.key));
  box.append(button, shown);
  return box;
}

/** One CSV cell: app.assignments.gradebook.safe_cell's rule (a spreadsheet runs no
 *  formula from a student's name), quoted as Python's csv module writes and reads it. */
function csvCell(value) {
  let text = value == null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",;\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The roster's links as CSV (name, id, link): UTF-8 with a byte order mark, which Excel
 *  needs to read the names right (the roster upload takes it back as well). */
function linksCsv(students) {
  const rows = [['name', 'id', 'link'],
    ...students.map((s) => [s.name, s.id || '', `${location.origin}${s.link}`])];
  return '\ufeff' + rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

let rosterLinks = [];         // the last roster's links
let undownloaded = false;     // ... not yet downloaded: leaving the page asks first
addEventListener('beforeunload', (e) => {
  if (undownloaded) { e.preventDefault(); e.returnValue = ''; }
});
$('[data-action=links-csv]').addEventListener('click', () => {
  download(`links-${id}.csv`, new Blob([linksCsv(rosterLinks)], { type: 'text/csv;charset=utf-8' }));
  undownloaded = false;
});

for (const a of document.querySelectorAll('[data-export]')) {
  a.addEventListener('click', async (e) => {
    e.preventDefault();
    const kind = a.dataset.export;
    try {
      const res = await call(kind === 'json' ? '/results' : `/grades.csv?format=${kind}`);
      download(kind === 'json' ? `results-${id}.json` : `grades-${id}-${kind}.csv`, await res.blob());
    } catch (err) { showError(err.message); }
  });
}

$('[data-form=roster]').addEventListener('submit', async (e) => {
  e.preventDefault();
  const file = e.target.file.files[0];
  const form = e.target;
  if (!file || form.dataset.busy) return;       // a double tap sends the list once
  form.dataset.busy = '1';
  try {
    const body = new FormData();
    body.append('file', file);
    const r = await (await call('/roster', { method: 'POST', body })).json();
    const table = $('[data-role=links]');
    table.hidden = r.students.length === 0;
    // Shown only now (only their hashes are kept): said, and downloadable as a file.
    const box = $('[data-role=links-box]');
    box.hidden = table.hidden;
    rosterLinks = r.students;
    undownloaded = r.students.length > 0;
    // The list sent again (a late enrolee in it): those on it already keep their links.
    const kept = $('[data-role=roster-kept]');
    kept.hidden = !r.kept;
    kept.textContent = r.kept === 1 ? t('1 student already on the roster keeps their link.')
      : t('{count} students already on the roster keep their links.', { count: r.kept });
    table.tBodies[0].replaceChildren(...r.students.map((s) => {
      const tr = document.createElement('tr');
      const link = cell(`${location.origin}${s.link}`, 'link');
      const copy = document.createElement('td');
      copy.append(copyButton(() => link.textContent));
      tr.append(cell(s.name), cell(s.id || ''), link, copy);
      return tr;
    }));
    rosterError('');
    await load();
  } catch (err) { rosterError(err.message); } finally { delete form.dataset.busy; }
});

/** The roster's error, next to its form (the page's alert is far above it). */
function rosterError(msg) {
  const el = $('[data-role=roster-alert]');
  el.textContent = msg || '';
  el.hidden = !msg;
}

/** A button that copies `text()` (the template's Copy button gives its words). */
function copyButton(text) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'copy';
  b.textContent = $('[data-copy=student-link]').dataset.label;
  b.addEventListener('click', () => copy(b, text()));
  return b;
}
async function copy(button, text) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = t('Copied');
  } catch { showError(text); }     // no clipboard here: the link shown to copy by hand
}
const own = $('[data-copy=student-link]');
own.dataset.label = own.textContent;
own.addEventListener('click', () => copy(own, $('[data-role=student-link]').textContent));

// The language switch keeps the key (in the fragment) on the reload.
for (const a of document.querySelectorAll('.lang-switch a')) a.href = a.getAttribute('href') + location.hash;
load().then(() => page.classList.add('ready'), (err) => showError(err.message));
