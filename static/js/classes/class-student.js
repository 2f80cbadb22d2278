// The student page /c/<code>: follows the instructor's step live, lets the
// student step on their own ("back to class" snaps back), and answers the
// class's questions with big tap targets. Nothing is graded here: answers go
// to the server, which grades them with practice mode's own code.

import { connectClass, makeClassView, narrationOf, promptOf, sayLabel, send } from './class-view.js';
import { drawUcb } from './class-ucb.js';
import { onTaps } from '../practice/practice-tree.js';
import { t } from '../core/i18n.js';
import { makeAnnouncer } from '../painters/a11ytree.js';
import { spokenLabel } from '../core/tree.js';
import { fitText } from '../painters/fittext.js';

// Every sentence of this page, in one place.
const TEXT = {
  following: t('Following the class'),
  exploring: (k) => t('Exploring · class at step {step}', { step: k }),
  ended: t('This class has ended. Thank you!'),
  reconnecting: t('Connection lost: reconnecting…'),
  again: t('Vote again: talk it over with your neighbour, then answer once more.'),
  timeUp: t('Time is up'),
  left: (s) => t('{seconds} s left', { seconds: s }),
  send: t('Send answer'),
  none: t('None'),
  alpha: 'α', beta: 'β',
  typeNumber: t('Type a number (e.g. 3, -2, inf)'),
  tapNode: t('Tap a node in the tree.'),
  picked: (label) => t('Your choice: {label}', { label }),
  received: (label) => t('Answer received: {label}. Wait for the reveal.', { label }),
  right: (label) => t('Right! You answered {label}.', { label }),
  wrong: (label, answer) => t('Not quite: you answered {label}; the answer is {answer}.', { label, answer }),
  missed: (answer) => t('The answer is {answer}.', { answer }),
  flip: t('Change the sign'),
  minusInf: '−∞', plusInf: '+∞',
};

const $ = (sel, root = document) => root.querySelector(sel);
const page = $('#class-student');
const announcer = makeAnnouncer($('#announce'));   // the narration, spoken once per step
const code = page.dataset.code;
const alertEl = $('#class-alert');
const showError = (msg, calm = false) => {
  alertEl.textContent = msg || '';
  alertEl.hidden = !msg;
  alertEl.classList.toggle('calm', calm);
};
/** The end of the class, said once and calmly (not as an error). */
const sayEnded = (msg = TEXT.ended) => {
  showError(msg, true);
  page.classList.add('ended');
  document.querySelector('#question').hidden = true;
};
const storeKey = `class-student:${code}`;
const stored = () => { try { return localStorage.getItem(storeKey); } catch { return null; } };
const remember = (id) => { try { localStorage.setItem(storeKey, id); } catch { /* private mode */ } };

// The sentence stays whole in its box (a question below takes the room it
// had): a long one is set smaller, fitted once a frame.
let fitting = 0;
function fitSoon() {
  fitting ||= requestAnimationFrame(() => { fitting = 0; fitText($('#narration'), { min: 0.6 }); });
}
new ResizeObserver(fitSoon).observe(document.querySelector('#narration'));

async function main() {
  const { socket, channel } = connectClass();
  let student = stored();
  let state = null, mine = null, following = true, view = null;
  let picked = new Set();          // choices tapped for the open question

  async function join() {
    const payload = { code };
    if (student) payload.student = student;
    const ack = await send(channel, 'join', payload);
    student = ack.student;
    remember(student);
    return ack;
  }

  let ack;
  for (;;) {
    try {
      ack = await join();
      break;
    } catch (err) {
      if (err.status === 503) {            // the store is coming back: say so, try again
        showError(TEXT.reconnecting);
        await new Promise((r) => setTimeout(r, 2000));
        continue;
      }
      if (err.status === 410) sayEnded(err.message); else showError(err.message);
      return;
    }
  }
  showError('');
  state = ack.state;
  mine = ack.mine;

  view = await makeClassView({
    socket, treeId: state.tree, depth: state.options.depth, algorithm: state.options.algorithm,
    onUpdate: (s) => {
      const out = $('[data-step]');
      out.textContent = String(s.run.step);
      if (s.run.total != null) out.dataset.total = String(s.run.total);
      const sentence = narrationOf(s);
      const narration = $('#narration');
      if (narration.textContent !== sentence) {
        narration.textContent = sentence;
        fitSoon();
      }
      announcer.step(sentence, s.playing);
    },
    onStatus: (st) => { if (st.error) showError(st.error); },
  });
  const { session, tree, svg } = view;
  // The zoom buttons: a pinched-in phone gets the whole tree back with Fit.
  const zooms = { 'zoom-in': () => view.zoom.zoomBy(1.25), 'zoom-out': () => view.zoom.zoomBy(0.8), fit: view.fit };
  for (const [action, go] of Object.entries(zooms)) $(`#stage [data-action=${action}]`).addEventListener('click', go);

  function setMode() {
    $('[data-role=mode]').textContent = state.ended ? ''
      : following ? TEXT.following : TEXT.exploring(state.step);
    $('[data-action=back-to-class]').hidden = following || !!state.ended;
    page.classList.toggle('exploring', !following);
  }

  /** The class as the server sent it: follow its step, show its question. */
  function apply(s) {
    if (state && s.seq < state.seq) return;     // an older message overtaken
    const before = state?.question;
    state = s;
    if (s.ended) {
      sayEnded();
      setMode();
      return;
    }
    if (following) session.goTo(s.step);
    const q = s.question;
    if (!q || !before || before.id !== q.id || before.round !== q.round) {
      picked = new Set();
      if (!q || mine?.question !== q.id || (mine.round ?? 1) !== (q.round ?? 1)) mine = null;
    }
    renderQuestion();
    if (q && q.revealed && !(before && before.id === q.id && before.revealed)) checkMine();
    setMode();
  }

  async function checkMine() {
    try { mine = (await send(channel, 'mine', { code })).mine; } catch { /* shown on next state */ }
    renderQuestion();
  }

  // -- the question ----------------------------------------------------------
  const box = $('#question');
  const entry = $('[data-role=entry]', box);
  const status = $('[data-role=q-status]', box);

  const clock = $('[data-role=q-clock]', box);
  let ticking = null, closesAt = null;
  function renderClock(q) {
    clearInterval(ticking);
    clock.hidden = !q || q.revealed || q.remaining == null;
    if (clock.hidden) return;
    const tick = () => {
      const left = Math.max(0, Math.ceil((closesAt - performance.now()) / 1000));
      clock.textContent = left ? TEXT.left(left) : TEXT.timeUp;
      if (!left) clearInterval(ticking);
    };
    tick();
    ticking = setInterval(tick, 500);
  }

  function renderQuestion() {
    const q = state.question;
    box.hidden = !q;
    view.mask(q && !q.revealed ? q.mask : null);
    page.classList.toggle('asking', !!q);
    renderClock(q);
    if (!q) { entry.replaceChildren(); delete entry.dataset.asked; return; }
    box.dataset.kind = q.kind;
    $('[data-role=prompt]', box).textContent = promptOf(q);
    drawUcb($('[data-role=ucb]', box), q);
    const again = $('[data-role=again]', box);
    again.hidden = !(q.round > 1) || q.revealed;
    again.textContent = TEXT.again;
    const answered = mine && mine.question === q.id && mine.answered;
    if (q.revealed) {
      entry.replaceChildren();
      delete entry.dataset.asked;
      const answer = sayLabel(q.answer_text);
      box.dataset.verdict = !answered ? 'none' : mine.right ? 'right' : 'wrong';
      status.textContent = !answered ? TEXT.missed(answer)
        : mine.right ? TEXT.right(sayLabel(mine.label)) : TEXT.wrong(sayLabel(mine.label), answer);
      return;
    }
    if (answered) {
      entry.replaceChildren();
      delete entry.dataset.asked;
      box.dataset.verdict = 'pending';
      status.textContent = TEXT.received(sayLabel(mine.label));
      return;
    }
    delete box.dataset.verdict;
    const asked = `${q.id}.${q.round ?? 1}`;
    if (entry.dataset.asked !== asked) {
      entry.dataset.asked = asked;
      entry.replaceChildren(...makeEntry(q));
    }
    status.textContent = '';
    syncPicked();
  }

  function makeEntry(q) {
    const sendBtn = button(TEXT.send, { class: 'primary send', 'data-action': 'send-answer' });
    sendBtn.addEventListener('click', () => submit());
    if (q.entry === 'number') return [numberRow('value', TEXT.typeNumber), sendBtn];
    if (q.entry === 'bounds') return [numberRow('alpha', TEXT.alpha), numberRow('beta', TEXT.beta), sendBtn];
    if (q.entry === 'tap-node') {
      const hint = el('p', { class: 'pick', 'data-role': 'picked' }, TEXT.tapNode);
      const small = tree.nodes.length <= 31;
      const grid = small ? choiceGrid(tree.nodes.map((n) => n.id), false) : [];
      return [hint, ...grid, sendBtn];
    }
    const many = q.entry === 'choose-many';
    const grid = choiceGrid(q.choices, many);
    if (many) {
      const none = button(TEXT.none, { class: 'choice none', 'data-choice': '', 'aria-pressed': 'false' });
      none.addEventListener('click', () => { picked = new Set(); none.dataset.on = '1'; syncPicked(); });
      grid[0].appendChild(none);
    }
    return [...grid, sendBtn];
  }

  function choiceGrid(ids, many) {
    const grid = el('div', { class: 'choices' });
    for (const id of ids) {
      const n = tree.byId.get(id);
      const b = button(n.label, { class: 'choice', 'data-choice': id, 'aria-pressed': 'false' });
      const said = spokenLabel(tree, n);       // a board is read as its marks, not its cells
      if (said !== n.label) b.setAttribute('aria-label', said);
      b.addEventListener('click', () => pick(id, many));
      grid.appendChild(b);
    }
    return [grid];
  }

  function numberRow(name, label) {
    const row = el('div', { class: 'num-row' });
    const lab = el('label', { class: 'num-label' }, label);
    const input = el('input', {
      type: 'text', inputmode: 'decimal', autocomplete: 'off', 'data-answer': name,
      'aria-label': label, maxlength: '24', enterkeyhint: 'send',
    });
    input.addEventListener('keydown', (e) => { if (e.key === 'Enter') submit(); });
    lab.appendChild(input);
    const flip = button('±', { class: 'key', title: TEXT.flip, 'aria-label': TEXT.flip });
    flip.addEventListener('click', () => {
      const v = input.value.trim();
      input.value = v.startsWith('-') || v.startsWith('−') ? v.slice(1) : `-${v}`;
    });
    row.append(lab, flip);
    if (name !== 'value') {
      for (const [text, value] of [[TEXT.minusInf, '-inf'], [TEXT.plusInf, 'inf']]) {
        const b = button(text, { class: 'key' });
        b.addEventListener('click', () => { input.value = value; });
        row.appendChild(b);
      }
    }
    return row;
  }

  function pick(id, many) {
    const q = state.question;
    if (!q || q.revealed || (mine && mine.question === q.id)) return;
    if (many) {
      if (!q.choices.includes(id)) return;
      if (picked.has(id)) picked.delete(id); else picked.add(id);
      delete box.querySelector('[data-choice=""]')?.dataset.on;
    } else {
      if (q.entry === 'choose-one' && !q.choices.includes(id)) return;
      picked = new Set([id]);
    }
    syncPicked();
  }

  function syncPicked() {
    for (const b of box.querySelectorAll('[data-choice]')) {
      const on = b.dataset.choice === '' ? b.dataset.on === '1' && !picked.size : picked.has(b.dataset.choice);
      b.setAttribute('aria-pressed', String(on));
    }
    for (const g of svg.querySelectorAll('[data-node].picked')) g.classList.remove('picked');
    for (const id of picked) view.drawing.nodeEl(id)?.classList.add('picked');
    const hint = box.querySelector('[data-role=picked]');
    if (hint) hint.textContent = picked.size ? TEXT.picked(tree.byId.get([...picked][0]).label) : TEXT.tapNode;
  }

  // Taps on the drawing: a node (or the branch above it) picks that node.
  onTaps(svg, { node: (id) => { const q = state.question; if (q) pick(id, q.entry === 'choose-many'); } });

  async function submit() {
    const q = state.question;
    if (!q) return;
    let answer;
    if (q.entry === 'number') answer = box.querySelector('[data-answer=value]').value;
    else if (q.entry === 'bounds') answer = ['alpha', 'beta'].map((n) => box.querySelector(`[data-answer=${n}]`).value);
    else if (q.entry === 'choose-many') answer = [...picked];
    else answer = [...picked][0];
    if (answer === undefined || (q.entry === 'choose-many' && !picked.size && box.querySelector('[data-choice=""]')?.dataset.on !== '1')) {
      status.textContent = q.entry === 'choose-many' ? `${TEXT.none}?` : TEXT.tapNode;
      return;
    }
    try {
      const res = await send(channel, 'answer', { code, question: q.id, answer });
      mine = { question: q.id, round: q.round ?? 1, answered: true, label: res.label };
      renderQuestion();
    } catch (err) {
      status.textContent = err.status === 503 ? TEXT.reconnecting : err.message;
    }
  }

  // -- following and exploring -------------------------------------------------
  $('[data-action=step-back]').addEventListener('click', () => { following = false; session.back(); setMode(); });
  $('[data-action=step-forward]').addEventListener('click', () => { following = false; session.forward(); setMode(); });
  $('[data-action=back-to-class]').addEventListener('click', () => {
    following = true;
    session.goTo(state.step);
    setMode();
  });

  channel.on('state', (s) => {
    if (s.question?.remaining != null) closesAt = performance.now() + s.question.remaining * 1000;
    apply(s);
  });
  channel.on('disconnect', () => { if (!state.ended) showError(TEXT.reconnecting); });
  // A reconnect: the same student, the class as it is now. While the class's
  // store is away (503) the page says so and tries again every 2 s; a class
  // gone meanwhile (the server restarted) is said once, calmly.
  async function rejoin() {
    if (state.ended) return;
    try {
      const again = await join();
      mine = again.mine;
      showError('');
      if (again.state.question?.remaining != null) {
        closesAt = performance.now() + again.state.question.remaining * 1000;
      }
      apply(again.state);
    } catch (err) {
      if (err.status === 503 || err.message === 'cannot reach the server') {
        showError(TEXT.reconnecting);
        setTimeout(rejoin, 2000);
      } else if (err.status === 410 || err.status === 404) {
        state = { ...state, ended: true };
        sayEnded(err.message);
        setMode();
      } else showError(err.message);
    }
  }
  channel.on('connect', rejoin);

  if (state.question?.remaining != null) closesAt = performance.now() + state.question.remaining * 1000;
  await session.start(state.options, state.step);
  apply({ ...state, seq: state.seq });
  page.classList.add('ready');
  window.classPage = { session, tree, get state() { return state; }, get following() { return following; } };
}

function el(name, attrs = {}, text = null) {
  const e = document.createElement(name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text != null) e.textContent = text;
  return e;
}

function button(text, attrs = {}) {
  return el('button', { type: 'button', ...attrs }, text);
}

main().catch((err) => showError(err.message));
