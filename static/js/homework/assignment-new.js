// Making an assignment (/a/new, from the practice page): exercises, attempts,
// feedback and due date, sent to POST /api/assignments; the answer's two
// links are shown (the dashboard's carries the instructor's token in its
// fragment, and is kept in this browser too).

import { pageFetch } from '../core/i18n.js';

const $ = (sel, root = document) => root.querySelector(sel);
const form = $('[data-form=new-assignment]');
const rows = $('[data-role=exercise-rows]');
const alertEl = $('#alert');
const showError = (msg) => { alertEl.textContent = msg || ''; alertEl.hidden = !msg; };

function addRow({ tree, mode } = {}) {
  const li = $('#exercise-row').content.firstElementChild.cloneNode(true);
  const select = $('[name=tree]', li);
  if (tree && ![...select.options].some((o) => o.value === tree)) select.add(new Option(tree, tree));
  if (tree) select.value = tree;
  if (mode) $('[name=mode]', li).value = mode;
  const sync = () => { for (const el of li.querySelectorAll('.random-only')) el.hidden = select.value !== 'random'; };
  select.addEventListener('change', sync);
  sync();
  $('[data-action=remove-exercise]', li).addEventListener('click', () => { if (rows.children.length > 1) li.remove(); });
  rows.append(li);
}

$('[data-action=add-exercise]').addEventListener('click', () => addRow());
const q = new URLSearchParams(location.search);
addRow({ tree: q.get('tree') || undefined, mode: q.get('mode') || undefined });

// A double tap (or a second press while the server checks the trees) makes one
// assignment, not two: the form waits for its answer.
form.addEventListener('submit', async (e) => {
  e.preventDefault();
  if (form.dataset.busy) return;
  form.dataset.busy = '1';
  let leaving = false;
  try { leaving = await make(); } finally { if (!leaving) delete form.dataset.busy; }
});

/** Send the form; true when the page goes back to the LMS. */
async function make() {
  const exercises = [...rows.children].map((li) => {
    const ex = { tree: $('[name=tree]', li).value, mode: $('[name=mode]', li).value };
    if (ex.tree === 'random') {
      ex.branching = Number($('[name=branching]', li).value);
      ex.depth = Number($('[name=depth]', li).value);
    }
    return ex;
  });
  const attempts = form.attempts.value.trim();
  const body = {
    title: form.title.value, exercises, feedback: form.feedback.value,
    attempts: attempts ? Number(attempts) : null,
    due: form.due.value ? new Date(form.due.value).toISOString() : null,
    late: form.late.checked ? 'mark' : 'refuse', identities: form.identities.value,
  };
  // Inside an LMS (Deep Linking): the tool makes it and the LMS gets a signed link to it.
  const deepLink = form.dataset.deepLink;
  const res = await pageFetch(deepLink ? `/lti/deep-link/${encodeURIComponent(deepLink)}` : '/api/assignments', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) { showError(data.error?.message || `HTTP ${res.status}`); return false; }
  showError('');
  if (deepLink) { backToLms(data); return true; }
  try { localStorage.setItem(`assignment:${data.id}:instructor`, data.instructor); } catch { /* the link holds it */ }
  const student = $('[data-student-link]');
  student.href = student.textContent = `${location.origin}${data.student}`;
  const dash = $('[data-dashboard-link]');
  dash.href = dash.textContent = `${location.origin}${data.dashboard}`;
  form.hidden = true;
  $('[data-role=made]').hidden = false;
  return false;
}
// Inside an LMS: an assignment made before (in another course) linked here too,
// proven by its dashboard link.
const existing = $('[data-form=link-existing]');
existing?.addEventListener('submit', async (e) => {
  e.preventDefault();
  const res = await pageFetch(`/lti/deep-link/${encodeURIComponent(existing.dataset.deepLink)}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ link: existing.link.value.trim() }),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) { showError(data.error?.message || `HTTP ${res.status}`); return; }
  showError('');
  backToLms(data);
});
/** Post the signed Deep Linking response to the LMS (its page replaces this one). */
function backToLms(data) {
  const f = document.createElement('form');
  f.method = 'POST';
  f.action = data.return_url;
  const input = document.createElement('input');
  input.type = 'hidden';
  input.name = 'JWT';
  input.value = data.jwt;
  f.append(input);
  document.body.append(f);
  f.submit();
}
document.body.classList.add('ready');
