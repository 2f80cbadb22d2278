// The projector view /c/<code>/present: the instructor steps through the run
// with the visualizer's controls, and every step goes to the class; asks
// questions, watches the tally, reveals, ends the class. The instructor
// token stays in this browser (the address's #fragment, then storage).

import { connectClass, makeClassView, narrationOf, promptOf, sayLabel, send } from './class-view.js';
import { makeControls, ownsKey } from '../core/controls.js';
import { makePresentation } from '../core/present.js';
import { drawChart } from './class-chart.js';
import { makeJoinView } from './class-join.js';
import { t } from '../core/i18n.js';
import { makeAnnouncer } from '../painters/a11ytree.js';
import { drawUcb } from './class-ucb.js';

// Every sentence of this page, in one place.
const TEXT = {
  noToken: t('This browser has no instructor key for this class: open the instructor link you were given (it ends in #…), or start a new class from the visualizer.'),
  ended: t('This class has ended.'),
  endConfirm: t('End the class for everyone?'),
  student: t('student'), students: t('students'),
  answer: (text) => t('Answer: {answer}', { answer: text }),
  copied: t('Copied'),
  reconnecting: t('Reconnecting…'),
  round: (n) => t('Round {n}', { n }),
  timeUp: t('Time is up'),
  ucbLater: t('UCB1 is asked just before a selection: step on to the next one.'),
};

const $ = (sel) => document.querySelector(sel);
const page = $('#class-present');
const live = page.dataset.live === '1';            // the instructor's second device
const announcer = makeAnnouncer($('#announce'));   // the narration, spoken once per step
const code = page.dataset.code;
const alertEl = $('#class-alert');
const showError = (msg, calm = false) => {
  // Once the class has ended the page keeps saying so (a late answer clears nothing).
  if (!msg && page.classList.contains('ended')) { msg = TEXT.ended; calm = true; }
  alertEl.textContent = msg || '';
  alertEl.hidden = !msg;
  alertEl.classList.toggle('calm', calm);
};

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

let syncAsk = null;   // the question menu follows the step (set once the form is wired)

async function main() {
  const token = takeToken();
  const join = makeJoinView(code, { live });
  if (!token) { showError(TEXT.noToken); return; }
  const { socket, channel } = connectClass();
  let ack;
  try {
    ack = await send(channel, 'present', { code, token, live });
  } catch (err) {
    showError(err.message);
    return;
  }
  let state = ack.state;
  let shown = { key: null, answers: -1 };   // the tally on screen (question.round, answers)
  let countdown = null;
  const link = `${location.origin}/c/${code}/present?live=1#${encodeURIComponent(token)}`;
  $('[data-role=instructor-link]').value = link;
  $('[data-role=options]').textContent = describe(state.options);

  let following = null;           // a step the server sent that the session is moving to
  let started = false;            // the run is at the class's step: moves now are the instructor's
  const view = await makeClassView({
    socket, treeId: state.tree, depth: state.options.depth, algorithm: state.options.algorithm,
    onUpdate: (s) => {
      controls?.update();
      syncAsk?.(s);
      const sentence = narrationOf(s);
      $('#narration').textContent = sentence;
      announcer.step(sentence, s.playing);
      // Moves the instructor makes go to the class; moves that follow the
      // server (a reveal, another device) do not go back.
      // (Not before the run is at the class's step: the session's start, at
      // step 0 for a moment, is not a move, and would send the class there.)
      // Compared with the step last sent while steps are going out: the
      // server's step lags behind them (a move back to it is still a move).
      if (started && following == null && s.run.step !== (sending ? aimed : state.step)) {
        join.hide();                     // the instructor steps: the join view to its corner
        drive(s.run.step);
      }
    },
    onStatus: (st) => { controls?.status(st); if (st.error) showError(st.error); },
  });
  const { session, tree } = view;
  // Full screen with large type, as the visualizer's presentation mode (P);
  // on by default on the projector (not on the instructor's phone).
  const presentation = makePresentation(page, { onChange: () => requestAnimationFrame(view.fit) });
  const controls = makeControls($('#transport'), session, {
    onFit: view.fit, onZoom: (f) => view.zoom.zoomBy(f), onPresent: () => presentation.toggle(),
  });
  if (!live && innerWidth > 760 && innerHeight > 500 && !presentation.on) presentation.toggle();
  fillNodes(tree);

  // Steps go out one at a time, the latest winning: holding → down sends
  // many, and the class needs only to end where the instructor stops.
  // `idle` settles once the steps asked for have reached the server: a
  // question or a reveal waits for it, so it is asked at the step on screen
  // (sent earlier, it met the class a step behind, and was refused).
  let sending = false, queued = null, idle = Promise.resolve();
  let aimed = null;                   // the step last asked for (the class is on its way there)
  function drive(step) {
    if (state.ended) return idle;     // the class is over: steps stay on this screen
    queued = aimed = step;
    if (!sending) idle = pump();
    return idle;
  }
  async function pump() {
    sending = true;
    while (queued != null) {
      const k = queued;
      queued = null;
      try {
        const res = await send(channel, 'step', { code, token, step: k });
        render(res.state);
        showError('');
      } catch (err) {
        showError(err.status === 503 ? TEXT.reconnecting : err.message);
        if (err.status === 503) {          // the store is back in a moment: send it again
          await new Promise((r) => setTimeout(r, 2000));
          if (queued == null) queued = k;
        }
      }
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
    if (s.ended) { showError(TEXT.ended, true); join.hide(); }
    if (whole) {
      setStudents(s.students);
      renderQuestion(s.question, s.tally);
      view.mask(s.question && !s.question.revealed ? s.question.mask : null);
    }
    if (session.run && session.run.step !== s.step && !sending) {
      following = s.step;
      session.goTo(s.step).finally(() => { following = null; });
    }
    if (s.ended) endControls();
  }

  /** The class is over: its controls say so (disabled), on every instructor view. */
  function endControls() {
    for (const el of page.querySelectorAll('[data-action=end-class], [data-action=show-join], #ask-form select, '
      + '#ask-form button, .tally-buttons button')) el.disabled = true;
  }

  function setStudents(n) {
    if (n == null) return;
    $('[data-students]').textContent = String(n);
    $('[data-role=students-word]').textContent = n === 1 ? TEXT.student : TEXT.students;
    if ($('[data-role=of]')) $('[data-role=of]').textContent = String(Math.max(n, shown.answers, 0));
  }

  function renderQuestion(q, tally) {
    const card = $('#tally');
    card.hidden = !q;
    page.classList.toggle('asking', !!q && !q.revealed);
    page.classList.toggle('revealed', !!q && q.revealed);
    clearInterval(countdown);
    const clock = $('[data-role=countdown]');
    clock.hidden = true;
    if (!q) { shown = { key: null, answers: -1 }; return; }
    $('[data-role=prompt]').textContent = promptOf(q);
    drawUcb($('#tally [data-role=ucb]'), q);
    const round = $('[data-role=round]');
    round.hidden = q.round < 2;
    round.textContent = TEXT.round(q.round);
    const answer = $('[data-role=answer]');
    answer.hidden = !q.revealed;
    answer.textContent = q.revealed || live ? TEXT.answer(sayLabel(q.answer_text ?? '')) : '';
    if (live && !q.revealed) answer.hidden = false;       // the second device knows it early
    $('[data-action=reveal]').disabled = q.revealed;
    $('[data-action=reveal]').hidden = q.revealed;      // done: the chart takes its place
    $('[data-action=revote]').hidden = q.revealed;
    if (!q.revealed && q.remaining != null) {
      const end = performance.now() + q.remaining * 1000;
      const tick = () => {
        const left = Math.max(0, Math.ceil((end - performance.now()) / 1000));
        clock.textContent = left ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` : TEXT.timeUp;
        clock.classList.toggle('up', !left);
        if (!left) clearInterval(countdown);
      };
      clock.hidden = false;
      tick();
      countdown = setInterval(tick, 250);
    }
    const chart = $('[data-chart]'), head = $('[data-role=chart-head]');
    chart.hidden = head.hidden = !q.revealed;
    if (!q.revealed) { chart.replaceChildren(); head.replaceChildren(); }
    renderTally(tally);
  }

  // Tallies from several server processes may arrive out of order: counts
  // only grow within a round, so an older (smaller) one is dropped.
  function renderTally(tl) {
    const q = state.question;
    if (!tl || !q || tl.question !== q.id || (tl.round ?? 1) !== (q.round ?? 1)) return;
    const key = `${tl.question}.${tl.round ?? 1}`;
    if (key === shown.key && tl.answers < shown.answers) return;
    shown = { key, answers: tl.answers };
    $('[data-tally-answered]').textContent = String(tl.answers);
    $('[data-role=of]').textContent = String(Math.max(tl.students, tl.answers));
    if (tl.chart && q.revealed) drawChart($('[data-chart]'), $('[data-role=chart-head]'), tl.chart, true);
    const liveChart = $('[data-role=live-chart]');
    if (liveChart && tl.chart) drawChart(liveChart, $('[data-role=live-head]'), tl.chart, false);
  }

  channel.on('instructor', render);
  channel.on('state', (m) => render({ step: m.step, seq: m.seq, ended: m.ended }));
  channel.on('tally', renderTally);
  channel.on('students', (m) => setStudents(m.students));
  channel.on('connect', async () => {   // a reconnect: be the instructor again, catch up
    try { render((await send(channel, 'present', { code, token, live })).state); showError(''); }
    catch (err) { showError(err.status === 503 ? TEXT.reconnecting : err.message); }
  });
  channel.on('disconnect', () => { if (!state.ended) showError(TEXT.reconnecting); });

  // -- asking --------------------------------------------------------------
  const form = $('#ask-form');
  const kind = form.querySelector('[data-ask=kind]');
  const nodeField = form.querySelector('[data-role=node-field]');
  const askBtn = form.querySelector('[data-action=ask]');
  const syncKind = () => {
    nodeField.hidden = ['move', 'next', 'ucb'].includes(kind.value);   // [mcts] ucb
    askBtn.disabled = !!kind.selectedOptions[0]?.disabled;
  };
  kind.addEventListener('change', syncKind);
  syncKind();
  // [mcts] "Which child does UCB1 select?" is offered only where the next step is
  // that selection (the server refuses it elsewhere, naming the step to ask at).
  syncAsk = (s) => {
    const ucb = kind.querySelector('option[value=ucb]');
    const next = s.run?.events?.[s.run.step];
    if (!ucb || !s.run) return;
    ucb.disabled = next !== undefined && next?.type !== 'select';
    ucb.title = ucb.disabled ? TEXT.ucbLater : '';
    syncKind();
  };
  if (session.run) syncAsk(session);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    join.hide();
    const payload = { code, token, kind: kind.value };
    if (!nodeField.hidden) payload.node = form.querySelector('[data-ask=node]').value;
    const seconds = form.querySelector('[data-ask=seconds]').value;
    if (seconds) payload.seconds = Number(seconds);
    try {
      await idle;
      render((await send(channel, 'ask', payload)).state);
      showError('');
    } catch (err) { showError(err.status === 503 ? TEXT.reconnecting : err.message); }
  });
  const act = (name) => async () => {
    try { await idle; render((await send(channel, name, { code, token })).state); showError(''); }
    catch (err) { showError(err.status === 503 ? TEXT.reconnecting : err.message); }
  };
  $('[data-action=reveal]').addEventListener('click', act('reveal'));
  $('[data-action=revote]').addEventListener('click', act('revote'));
  $('[data-action=dismiss]').addEventListener('click', act('dismiss'));
  $('[data-action=end-class]').addEventListener('click', () => {
    if (confirm(TEXT.endConfirm)) act('end')();
  });
  $('[data-action=show-join]').addEventListener('click', () => join.show());
  $('[data-action=hide-join]').addEventListener('click', () => join.hide());
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || ownsKey(e.target, e.key)) return;
    if (e.key === 'j' || e.key === 'J') { e.preventDefault(); join.toggle(); }
    else if (e.key === 'Escape' && join.full) join.hide();
  });
  $('[data-action=copy-link]').addEventListener('click', async (e) => {
    const input = $('[data-role=instructor-link]');
    input.select();
    try { await navigator.clipboard.writeText(input.value); e.target.textContent = TEXT.copied; } catch { /* selected: copy by hand */ }
  });

  await session.start(state.options, state.step);
  started = true;
  render(state);
  page.classList.add('ready');
  window.classPage = { session, tree, join, get state() { return state; } };
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
