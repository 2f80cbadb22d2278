// An assignment's exercise on the practice page (/a/<id>/<i>): the same
// drawing and answer sheet as practice, but the tree, mode and conventions
// are the exercise's, and every check is a submission graded and stored by
// the server (POST /api/assignments/<id>/me/exercises/<i>), which decides
// what of the key the student sees.

import { t } from '../core/i18n.js';
import { api, keepTokenInLanguageLinks, withToken } from './assignment-common.js';

/** Fill the page's data from the student's exercise; an object with `post`, or throws. */
export async function assignmentExercise(page) {
  const id = page.dataset.assignment;
  const index = Number(page.dataset.index);
  const me = await api(id, '/me');
  const home = page.querySelector('.home');
  home.href = withToken(id, home.getAttribute('href'));
  keepTokenInLanguageLinks(id);
  const ex = me.exercises[index];
  if (!ex) throw new Error(t('There is no such exercise in this assignment.'));
  page.dataset.tree = ex.tree;
  page.dataset.mode = ex.mode;
  page.className = page.className.replace(/\bmode-\w+/, `mode-${ex.mode}`);
  const form = page.querySelector('#options');
  form.strict.value = ex.strict ? '1' : '0';
  form.style.value = ex.style || 'aima';
  if (ex.depth != null) { form.depth.value = ex.depth; form.querySelector('.depth').hidden = false; }
  page.querySelector('#title').textContent = me.title;
  page.querySelector('#source').textContent = t('Exercise {n} of {total}', { n: index + 1, total: me.exercises.length });
  const status = page.querySelector('[data-role=assignment-status]');
  const say = (left, late) => {
    const parts = [];
    if (left != null) parts.push(t('Attempts left: {n}', { n: left }));
    if (late) parts.push(t('late'));
    if (me.due) parts.push(t('due {date}', { date: new Date(me.due).toLocaleString() }));
    status.textContent = parts.join(' · ');
    // No attempt left: Check would only be refused (the last score stands).
    for (const b of page.querySelectorAll('[data-action=check], [data-action=check-order]')) b.disabled = left === 0;
  };
  say(ex.attempts_left, me.past_due);
  page.classList.toggle('key-locked', !ex.key_allowed);
  // A second tap on Check while the first is being graded (a slow hall network) is the
  // same submission: sent again, it would use up another attempt.
  let sending = null;
  return {
    post(body) {
      const text = JSON.stringify(body);
      if (sending?.text === text) return sending.reply;
      const reply = submit(body);
      sending = { text, reply };
      const done = () => { if (sending?.reply === reply) sending = null; };
      reply.then(done, done);
      return reply;
    },
  };

  async function submit(body) {
    const r = await api(id, `/me/exercises/${index}`, { method: 'POST', body });
    if ('attempts_left' in r || 'late' in r) say(r.attempts_left ?? ex.attempts_left, r.late);
    if (r.attempts_left === 0 || r.expected !== undefined) page.classList.remove('key-locked');
    if (r.received) {       // feedback after the due date: nothing to mark yet
      return { entries: [], score: { right: '–', total: '–' }, solved: false,
        summary: t('Received. Your score and the solution are shown after the due date.') };
    }
    if (!r.summary && r.score) r.summary = t('{right} of {total} right.', r.score);
    return r;
  }
}
