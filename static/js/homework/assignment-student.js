// The student's page of an assignment (/a/<id>): give a name once (or come
// with a personal link), then the list of one's own exercises with attempts
// and, when the feedback setting allows, the scores.

import { t } from '../core/i18n.js';
import {
  api, forgetRequestKey, keepTokenInLanguageLinks, requestKey, setToken, studentToken, withToken,
} from './assignment-common.js';

const $ = (sel) => document.querySelector(sel);
const MODES = {
  values: t('Minimax values'), cuts: t('Alpha-beta cuts'), full: t('Alpha-beta full'),
  guided: t('Guided'), order: t('Move ordering'),
};

async function main() {
  const page = $('#assignment');
  const id = page.dataset.assignment;
  const alertEl = $('#alert');
  const showError = (msg) => { alertEl.textContent = msg || ''; alertEl.hidden = !msg; };
  let about;
  try {
    about = await api(id, '');
  } catch (err) { showError(err.message); return; }
  $('[data-role=title]').textContent = about.title;
  const rules = [];
  if (about.attempts != null) rules.push(t('{n} attempts per exercise', { n: about.attempts }));
  if (about.due) rules.push(t('due {date}', { date: new Date(about.due).toLocaleString() }));
  rules.push({ step: t('each mistake explained when you check'), submit: t('your score when you submit'),
    due: t('scores after the due date') }[about.feedback]);
  $('[data-role=rules]').textContent = rules.join(' · ');

  const form = $('[data-form=student]');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (form.dataset.busy) return;               // a double tap sends the name once
    form.dataset.busy = '1';
    try {
      // Kept before sending: if the answer is lost on the way (a phone's connection
      // drops), Start again sends the same key and gets this student back, not "taken".
      const body = { student: form.student.value, request: requestKey(id) };
      const r = await api(id, '/students', { method: 'POST', body, token: '' });
      setToken(id, r.token);
      showError('');
      await show();
    } catch (err) {
      showError(err.status ? err.message
        : t('No answer from the server: check your connection, then press Start again.'));
    } finally { delete form.dataset.busy; }
  });

  async function show() {
    let me;
    try {
      me = await api(id, '/me');
    } catch (err) {
      if (err.status === 401) { setToken(id, null); form.hidden = false; $('[data-role=work]').hidden = true; return; }
      showError(err.message);
      return;
    }
    form.hidden = true;
    keepTokenInLanguageLinks(id);
    $('[data-role=work]').hidden = false;
    $('[data-role=student]').textContent = me.student;
    $('[data-role=score-line]').hidden = me.percent === undefined;
    if (me.percent !== undefined) $('[data-percent]').textContent = String(me.percent);
    $('[data-role=link]').value = `${location.origin}/a/${id}#s=${studentToken(id)}`;
    const list = $('[data-role=exercises]');
    list.replaceChildren(...me.exercises.map((ex) => {
      const li = document.createElement('li');
      li.dataset.exercise = String(ex.index);
      const a = document.createElement('a');
      a.href = withToken(id, `/a/${encodeURIComponent(id)}/${ex.index}`);
      a.textContent = t('Exercise {n}: {mode}', { n: ex.index + 1, mode: MODES[ex.mode] || ex.mode });
      const info = document.createElement('span');
      info.className = 'hint';
      const bits = [];
      if (ex.attempts_left != null) bits.push(t('attempts left: {n}', { n: ex.attempts_left }));
      if (ex.score !== undefined) {
        bits.push(t('score {p} %', { p: Math.round(ex.score * 1000) / 10 }));
        li.dataset.score = String(ex.score);
      }
      info.textContent = bits.length ? ` · ${bits.join(' · ')}` : '';
      li.append(a, info);
      return li;
    }));
  }

  /** No student yet in this browser: the name form, or where the way in is. */
  function ask() {
    if (about.identities === 'roster' || about.identities === 'lms') {
      // No name form: anyone may type any name, and this assignment takes known students only.
      showError(about.identities === 'roster'
        ? t('This assignment is for the students on its roster: open the personal link your instructor sent you.')
        : t('This assignment is taken from the LMS: open it from your course page.'));
    } else form.hidden = false;
  }

  // A shared computer (a lab): the next student at it is not the last one, and would
  // otherwise work (and use attempts) as them.
  $('[data-action=not-me]').addEventListener('click', () => {
    const name = $('[data-role=student]').textContent;
    if (!confirm(t('This browser will forget {name}. {name} comes back with their personal link.', { name }))) return;
    setToken(id, null);
    forgetRequestKey(id);                        // the next person's name is theirs alone
    keepTokenInLanguageLinks(id);
    form.reset();
    $('[data-role=link]').value = '';
    $('[data-role=work]').hidden = true;
    ask();
  });

  if (studentToken(id)) await show();
  else ask();
  page.classList.add('ready');
}

main();
