// The class report /c/<code>/report: what the room answered, question by
// question and round by round, read with the instructor token this browser
// keeps (the projector view put it in storage); the CSV downloads the same.

import { t, num, pageFetch } from '../core/i18n.js';
import { sayLabel } from './class-words.js';

const TEXT = {
  noToken: t('This browser has no instructor key for this class: open the report from the projector view.'),
  question: (n, text) => t('Question {n}: {text}', { n, text }),
  where: (step, node) => (node ? t('asked at step {step} about {node}', { step, node }) : t('asked at step {step}', { step })),
  rightAnswer: (a) => t('Right answer: {answer}', { answer: a }),
  round: (n) => t('Round {n}', { n }),
  answer: t('Answer'),
  answers: t('Answers'),
  right: t('Right'),
  median: t('Median time'),
  seconds: (s) => t('{seconds} s', { seconds: s }),
  live: t('the class is live'),
  ended: t('the class has ended'),
};

const $ = (sel) => document.querySelector(sel);
const page = $('#class-report');
const code = page.dataset.code;
const alertEl = $('#report-alert');
const say = (msg) => { alertEl.textContent = msg; alertEl.hidden = !msg; };

function token() {
  try { return localStorage.getItem(`class-token:${code}`); } catch { return null; }
}

async function fetchReport(tok, path) {
  const res = await pageFetch(`/api/classes/${code}/${path}`, { headers: { Authorization: `Bearer ${tok}` } });
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    throw new Error(body.error?.message || `HTTP ${res.status}`);
  }
  return res;
}

function el(name, attrs = {}, text = null) {
  const e = document.createElement(name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text != null) e.textContent = text;
  return e;
}

/** One table per question: a row per distinct answer, a column per round. */
function render(report) {
  $('[data-role=when]').textContent = report.ended ? TEXT.ended : TEXT.live;
  const byQuestion = new Map();
  for (const row of report.rows) {
    if (!byQuestion.has(row.question)) byQuestion.set(row.question, []);
    byQuestion.get(row.question).push(row);
  }
  $('[data-role=empty]').hidden = byQuestion.size > 0;
  const out = [];
  for (const [n, rows] of byQuestion) {
    const first = rows[0];
    const rounds = Math.max(...rows.map((r) => r.round));
    const sec = el('section', { class: 'report-q', 'data-report-question': String(n) });
    sec.append(el('h2', {}, TEXT.question(n, first.prompt)),
      el('p', { class: 'hint' }, `${TEXT.where(first.step, first.node)} · ${TEXT.rightAnswer(sayLabel(first.right_answer))}`));
    const table = el('table', { class: 'report-table' });
    const head = el('tr');
    head.append(el('th', {}, TEXT.answer));
    for (let k = 1; k <= rounds; k++) head.append(el('th', { class: 'num' }, TEXT.round(k)));
    table.append(head);
    const labels = [...new Set(rows.map((r) => r.answer))];
    for (const label of labels) {
      const tr = el('tr');
      const right = rows.find((r) => r.answer === label).right;
      const cell = el('td', { class: right ? 'right' : '' }, (right ? '✓ ' : '') + sayLabel(label));
      const why = rows.find((r) => r.answer === label && r.misconception_name);
      if (why) {   // the wrong rule that gives this answer (contract §8)
        cell.append(el('br'), el('small', { class: 'misconception', 'data-misconception': why.misconception },
          '↳ ' + t(why.misconception_name)));
      }
      tr.append(cell);
      for (let k = 1; k <= rounds; k++) {
        const r = rows.find((x) => x.answer === label && x.round === k);
        tr.append(el('td', { class: 'num' }, r ? num(r.count) : '0'));
      }
      table.append(tr);
    }
    for (const [name, pick] of [
      [TEXT.answers, (r) => num(r.answers)],
      [TEXT.right, (r) => (r.share_right == null ? '–' : `${Math.round(100 * r.share_right)}%`)],
      [TEXT.median, (r) => (r.median_seconds == null ? '–' : TEXT.seconds(r.median_seconds))],
    ]) {
      const tr = el('tr', { class: 'sum' });
      tr.append(el('th', {}, name));
      for (let k = 1; k <= rounds; k++) {
        tr.append(el('td', { class: 'num' }, pick(rows.find((x) => x.round === k))));
      }
      table.append(tr);
    }
    sec.append(table);
    out.push(sec);
  }
  $('[data-role=questions]').replaceChildren(...out);
}

async function main() {
  const tok = token();
  if (!tok) { say(TEXT.noToken); return; }
  try {
    render(await (await fetchReport(tok, 'report')).json());
  } catch (err) { say(err.message); return; }
  $('[data-action=download-csv]').addEventListener('click', async () => {
    try {
      const blob = await (await fetchReport(tok, 'report.csv')).blob();
      const a = el('a', { href: URL.createObjectURL(blob), download: `class-${code}-report.csv` });
      document.body.append(a);
      a.click();
      a.remove();
    } catch (err) { say(err.message); }
  });
  page.classList.add('ready');
}

main().catch((err) => say(err.message));
