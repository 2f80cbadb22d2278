// The dashboard's part about the course's LMS (issue 27): the course's member
// list (an assignment made from the LMS lists every student of the course), and
// who each grade file leaves out and why (contract §7b); in elements of its own
// so that the rest of the dashboard (assignment-dashboard.js) stays as it is.

import { t } from '../core/i18n.js';

const NAMES = { canvas: 'Canvas', moodle: 'Moodle' };

/** Fill ``section`` from the results' ``exports``: per file, how many rows it
 * holds and, when some are left out, who and why. Hidden when nobody is. */
export function showLeftOut(section, exports) {
  if (!section) return;
  const parts = [];
  for (const [fmt, e] of Object.entries(exports || {})) {
    if (!e.left_out.length) continue;
    const box = document.createElement('details');
    box.dataset.format = fmt;
    const head = document.createElement('summary');
    head.textContent = t('{lms} file: {count} left out (the LMS could not match them)',
      { lms: NAMES[fmt] || fmt, count: e.left_out.length });
    const ul = document.createElement('ul');
    for (const g of e.left_out) {
      const li = document.createElement('li');
      li.dataset.student = g.student;
      const who = document.createElement('strong');
      who.textContent = g.student;
      li.append(who, document.createTextNode(`: ${g.reason}`));
      ul.append(li);
    }
    box.append(head, ul);
    parts.push(box);
  }
  section.querySelector('[data-role=left-out-list]').replaceChildren(...parts);
  section.hidden = parts.length === 0;
}

/** Say where the students come from when the assignment was made from the LMS:
 * how many the course's member list holds, or why it could not be read. */
export function showCourse(el, course) {
  if (!el) return;
  el.hidden = !course;
  if (!course) return;
  el.textContent = course.error
    || t('Every student of the course in the LMS is listed ({count}), those who have not opened the assignment too.',
      { count: course.members ?? 0 });
  el.classList.toggle('assignment-alert', Boolean(course.error));
}

/** Say, per course whose gradebook column the tool does not know yet (no one has opened
 * the assignment from that course), how many of its members' scores wait for it and
 * what to do: the server's sentence, in the page's language. The course's title in it is
 * the LMS's own text, which the server puts between FSI and PDI (U+2068, U+2069): set
 * here as text in a <bdi>, so that its direction cannot turn the sentence around.
 * Hidden when none waits. */
export function showWaiting(section, course) {
  if (!section) return;
  const list = Array.isArray(course?.waiting) ? course.waiting : [];
  section.replaceChildren(...list.map((w) => {
    const p = document.createElement('p');
    p.dataset.course = w.context_id;
    p.dataset.waiting = String(w.members);
    const said = String(w.message ?? '');
    // The sentence's own words hold neither mark: the first FSI opens the title and
    // the last PDI closes it, whatever marks the title itself holds.
    const open = said.indexOf('\u2068');
    const close = said.lastIndexOf('\u2069');
    if (open < 0 || close < open) {
      p.textContent = said;
      return p;
    }
    const name = document.createElement('bdi');
    name.className = 'course-name';
    name.textContent = said.slice(open + 1, close);
    p.append(said.slice(0, open), name, said.slice(close + 1));
    return p;
  }));
  section.hidden = list.length === 0;
}

/** Say that the LMS did not answer during this load (the server's sentence, in the
 * page's language): the scores waiting for it go at the next opening. Hidden otherwise. */
export function showSilent(el, silent) {
  if (!el) return;
  el.textContent = silent?.message ?? '';
  el.hidden = !silent;
}
