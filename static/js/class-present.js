// The projector view /c/<code>/present: the instructor steps through the run
// with the visualizer's controls, and every step goes to the class; asks
// questions, watches the tally, reveals, ends the class. The instructor
// token stays in this browser (the address's #fragment, then storage).

import { connectClass, makeClassView, narrationOf, send } from './class-view.js';
import { makeControls } from './controls.js';
import { makePresentation } from './present.js';
import { t } from './i18n.js';
import { makeAnnouncer } from './a11ytree.js';

// Every sentence of this page, in one place.
const TEXT = {
  noToken: t('This browser has no instructor key for this class: open the instructor link you were given (it ends in #…), or start a new class from the visualizer.'),
  ended: t('This class has ended.'),
  endConfirm: t('End the class for everyone?'),
  student: t('student'), students: t('students'),
  answer: (text) => t('Answer: {answer}', { answer: text }),
  copied: t('Copied'),
  reconnecting: t('Reconnecting…'),
};

const $ = (sel) => document.querySelector(sel);
const page = $('#class-present');
const announcer = makeAnnouncer($('#announce'));   // the narration, spoken once per step
const code = page.dataset.code;
const alertEl = $('#class-alert');
const showError = (msg) => { alertEl.textContent = msg || ''; alertEl.hidden = !msg; };

/** The token from the fragment (then removed from the address, which is
 *  projected) or from this browser's storage. */
function takeToken() {
  const key = `class-token:${code}`;
  const hash = decodeURIComponent(location.hash.slice(1));
  if (hash) {
    try { localStorage.setItem(key, hash); } catch { /* private mode: keep it in memory */ }
    history.replaceState(null, '', location.pathname + location.search);
    return hash;
  }
  try { return localStorage.getItem(key); } catch { return null; }
}

async function main() {
  const token = takeToken();
  if (!token) { showError(TEXT.noToken); return; }
  const { socket, channel } = connectClass();
  let ack;
  try {
    ack = await send(channel, 'present', { code, token });
  } catch (err) {
    showError(err.message);
    return;
  }
  let state = ack.state;
  const link = `${location.origin}/c/${code}/present#${encodeURIComponent(token)}`;
  $('[data-role=instructor-link]').value = link;
  $('[data-role=options]').textContent = describe(state.options);

  let following = null;           // a step the server sent that the session is moving to
  const view = await makeClassView({
    socket, treeId: state.tree, depth: state.options.depth,
    onUpdate: (s) => {
      controls?.update();
      const sentence = narrationOf(s);
      $('#narration').textContent = sentence;
      announcer.step(sentence, s.playing);
      // Moves the instructor makes go to the class; moves that follow the
      // server (a reveal, another device) do not go back.
      if (following == null && s.run.step !== state.step) drive(s.run.step);
    },
    onStatus: (st) => { controls?.status(st); if (st.error) showError(st.error); },
  });
  const { session, tree } = view;
  // Full screen with large type, as the visualizer's presentation mode (P).
  const presentation = makePresentation(page, { onChange: () => requestAnimationFrame(view.fit) });
  const controls = makeControls($('#transport'), session, {
    onFit: view.fit, onZoom: (f) => view.zoom.zoomBy(f), onPresent: () => presentation.toggle(),
  });
  fillNodes(tree);

  // Steps go out one at a time, the latest winning: holding → down sends
  // many, and the class needs only to end where the instructor stops.
  let sending = false, queued = null;
  async function drive(step) {
    queued = step;
    if (sending) return;
    sending = true;
    while (queued != null) {
      const k = queued;
      queued = null;
      try {
        const res = await send(channel, 'step', { code, token, step: k });
        render(res.state);
      } catch (err) { showError(err.message); }
    }
    sending = false;
  }

  /** Show the class as the server has it (after any change, from any device). */
  // A step's answer and broadcast carry only the step (the question and tally
  // are as they were); every other change brings the whole instructor view.
  function render(s) {
    if (s.seq < state.seq) return;
    const whole = 'tally' in s;
    state = whole ? s : { ...state, step: s.step, seq: s.seq, ended: s.ended };
    page.classList.toggle('ended', !!s.ended);
    if (s.ended) showError(TEXT.ended);
    if (whole) {
      setStudents(s.students);
      renderQuestion(s.question, s.tally);
      view.mask(s.question && !s.question.revealed ? s.question.mask : null);
    }
    if (session.run && session.run.step !== s.step && !sending) {
      following = s.step;
      session.goTo(s.step).finally(() => { following = null; });
    }
  }

  function setStudents(n) {
    if (n == null) return;
    $('[data-students]').textContent = String(n);
    $('[data-role=students-word]').textContent = n === 1 ? TEXT.student : TEXT.students;
  }

  function renderQuestion(q, tally) {
    const card = $('#tally');
    card.hidden = !q;
    page.classList.toggle('asking', !!q);
    if (!q) return;
    $('[data-role=prompt]').textContent = q.prompt;
    const answer = $('[data-role=answer]');
    answer.hidden = !q.revealed;
    answer.textContent = TEXT.answer(q.answer_text);
    $('[data-action=reveal]').disabled = q.revealed;
    renderTally(tally);
  }

  // Tallies from several server processes may arrive out of order: counts
  // only grow, so an older (smaller) one is dropped.
  let shown = { question: null, answers: -1 };
  function renderTally(t) {
    if (!t || !state.question || t.question !== state.question.id) return;
    if (t.question === shown.question && t.answers < shown.answers) return;
    shown = { question: t.question, answers: t.answers };
    const pct = t.answers ? Math.round((100 * t.right) / t.answers) : 0;
    $('[data-tally=answers]').textContent = String(t.answers);
    $('[data-tally=students]').textContent = String(Math.max(t.students, t.answers));
    $('[data-tally=right]').textContent = String(pct);
    $('[data-role=right-bar]').style.width = `${pct}%`;
    const list = $('[data-tally=wrong]');
    list.replaceChildren(...t.wrong.map((w) => {
      const li = document.createElement('li');
      li.textContent = `${w.label} `;
      const n = document.createElement('span');
      n.className = 'n';
      n.textContent = `× ${w.count}`;
      li.appendChild(n);
      return li;
    }));
    $('.wrong-head').hidden = !t.wrong.length;
    $('#tally').dataset.answers = String(t.answers);
    $('#tally').dataset.right = String(t.right);
  }

  channel.on('instructor', render);
  channel.on('state', (m) => render({ step: m.step, seq: m.seq, ended: m.ended }));
  channel.on('tally', renderTally);
  channel.on('students', (m) => setStudents(m.students));
  channel.on('connect', async () => {   // a reconnect: be the instructor again, catch up
    try { render((await send(channel, 'present', { code, token })).state); showError(''); }
    catch (err) { showError(err.message); }
  });
  channel.on('disconnect', () => showError(TEXT.reconnecting));

  // -- asking --------------------------------------------------------------
  const form = $('#ask-form');
  const kind = form.querySelector('[data-ask=kind]');
  const nodeField = form.querySelector('[data-role=node-field]');
  const syncKind = () => { nodeField.hidden = ['move', 'next', 'ucb'].includes(kind.value); };   // [mcts] ucb
  kind.addEventListener('change', syncKind);
  syncKind();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const payload = { code, token, kind: kind.value };
    if (!nodeField.hidden) payload.node = form.querySelector('[data-ask=node]').value;
    try {
      render((await send(channel, 'ask', payload)).state);
      showError('');
    } catch (err) { showError(err.message); }
  });
  const act = (name) => async () => {
    try { render((await send(channel, name, { code, token })).state); } catch (err) { showError(err.message); }
  };
  $('[data-action=reveal]').addEventListener('click', act('reveal'));
  $('[data-action=dismiss]').addEventListener('click', act('dismiss'));
  $('[data-action=end-class]').addEventListener('click', () => {
    if (confirm(TEXT.endConfirm)) act('end')();
  });
  $('[data-action=copy-link]').addEventListener('click', async (e) => {
    const input = $('[data-role=instructor-link]');
    input.select();
    try { await navigator.clipboard.writeText(input.value); e.target.textContent = TEXT.copied; } catch { /* selected: copy by hand */ }
  });

  await session.start(state.options, state.step);
  render(state);
  page.classList.add('ready');
  window.classPage = { session, tree, get state() { return state; } };
}

/** The node list of the question form: inner nodes first in preorder, then leaves. */
function fillNodes(tree) {
  const select = document.querySelector('[data-ask=node]');
  const inner = tree.nodes.filter((n) => n.children.length);
  const opts = inner.slice(0, 2000).map((n) => {
    const o = document.createElement('option');
    o.value = n.id;
    o.textContent = n.label === n.id ? n.label : `${n.label} (${n.id})`;
    return o;
  });
  select.replaceChildren(...opts);
}

function describe(o) {
  const parts = [o.algorithm];
  if (o.depth != null) parts.push(`depth ${o.depth}`);
  if (o.order && o.order !== 'given') parts.push(`${o.order} first`);
  if (o.strict) parts.push('strict');
  return parts.join(' · ');
}

main().catch((err) => showError(err.message));
