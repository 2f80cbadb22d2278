// Guided mode: the server walks the search one question at a time (the next
// v, α or β, or "cut?"); the tree shows the search's state at that moment,
// the asked-for field hidden. A wrong answer gets the rule it breaks.
import { t } from '../core/i18n.js';


const EMPTY = { status: 'unvisited', value: null, alpha: null, beta: null };

export function makeGuide(ctx) {
  const { page, treeId, progress } = ctx;
  page.querySelector('[data-panel=answers]').hidden = true;
  const panel = page.querySelector('[data-panel=guided]');
  panel.hidden = false;
  const form = panel.querySelector('#guide-form');
  const input = panel.querySelector('#q-answer');
  const prompt = panel.querySelector('#q-prompt');
  const feedback = panel.querySelector('#q-feedback');
  const nextBtn = panel.querySelector('[data-action=next]');
  const showBtn = panel.querySelector('[data-action=show-answer]');
  const numberLine = panel.querySelector('[data-show=number]');
  const choiceLine = panel.querySelector('[data-show=choice]');
  const yesNo = [...choiceLine.children];   // [mcts] a UCB1 question puts the children there instead

  let index = 0;
  let total = 0;
  let question = null;
  let firstTry = 0;       // questions answered right at the first attempt
  let tried = false;      // a wrong answer was given to this question
  let answered = false;

  function paint(snapshot, active) {
    for (const n of ctx.tree.nodes) {
      const f = (Object.hasOwn(snapshot, n.id) && snapshot[n.id]) || EMPTY;   // ids such as toString
      ctx.view.setNode(n.id, { ...EMPTY, ...f });
    }
    ctx.view.setActive(active);
    const n = ctx.tree.byId.get(active);
    if (n) ctx.zoom.ensureVisible(n.x, n.y);
  }

  async function load(k) {
    let r;
    try {
      r = await ctx.post({ index: k });
    } catch (err) {
      ctx.showError(err.message);
      return;
    }
    total = r.total;
    if (!r.question) {
      prompt.textContent = r.summary;
      form.hidden = true;
      return;
    }
    index = k;
    question = r.question;
    tried = answered = false;
    panel.querySelector('[data-role=q-number]').textContent = String(k + 1);
    panel.querySelector('[data-role=q-total]').textContent = String(total);
    prompt.textContent = question.prompt;
    const choice = question.kind === 'cut' || question.kind === 'ucb';
    numberLine.hidden = choice;
    choiceLine.hidden = !choice;
    if (question.kind === 'ucb') {   // [mcts] one button per child
      choiceLine.replaceChildren(...question.choices.map((id) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'big';
        b.dataset.choice = id;
        b.textContent = question.labels[id] ?? id;
        b.addEventListener('click', () => answer(id));
        return b;
      }));
    } else if (choiceLine.firstElementChild !== yesNo[0]) choiceLine.replaceChildren(...yesNo);
    for (const b of form.querySelectorAll('button')) b.disabled = false;
    input.disabled = false;
    input.value = '';
    feedback.replaceChildren();
    feedback.className = 'q-feedback';
    nextBtn.hidden = true;
    showBtn.hidden = false;
    paint(r.view, question.node);
    if (!choice) input.focus({ preventScroll: true });
    else choiceLine.querySelector('button').focus({ preventScroll: true });
  }

  async function answer(value, reveal = false) {
    if (answered || !question) return;
    let r;
    try {
      r = await ctx.post({ index, answer: value, reveal });
    } catch (err) {
      ctx.showError(err.message);
      return;
    }
    const res = r.result;
    if (res && !res.correct) {
      tried = true;
      say('wrong', '✗ ' + t('{value} is not right.', { value }) + ' ' + res.rule);
      if (!reveal) { input.select(); return; }
    }
    if (res?.correct || reveal) finish(r, res?.correct);
  }

  function finish(r, correct) {
    answered = true;
    if (correct && !tried) firstTry += 1;
    panel.querySelector('[data-role=q-score]').textContent =
      t('Right at the first try: {right} of {asked}.', { right: firstTry, asked: index + 1 });
    const head = correct ? '✓ ' + t('Right: {answer}.', { answer: r.answer }) : t('The answer: {answer}.', { answer: r.answer });
    say(correct ? 'right' : 'shown', `${head} ${r.worked}`, r.link);
    paint(r.reveal_view, question.node);
    input.disabled = true;
    for (const b of form.querySelectorAll('button')) b.disabled = true;
    showBtn.hidden = true;
    if (r.finished) {
      const line = document.createElement('p');
      line.className = 'done';
      line.textContent = t('Finished: {right} of {total} right at the first try.', { right: firstTry, total }) + ' ' + (r.summary || '');
      feedback.append(line);
      progress.record(treeId, 'guided', firstTry, total, firstTry === total);
      page.querySelector('[data-role=progress]').textContent = progress.describe(treeId, 'guided');
    } else {
      nextBtn.hidden = false;
      nextBtn.focus({ preventScroll: true });
    }
  }

  function say(kind, text, link) {
    feedback.replaceChildren();
    feedback.className = `q-feedback ${kind}`;
    const p = document.createElement('p');
    p.textContent = text;
    feedback.append(p);
    if (link) {
      const a = document.createElement('a');
      a.href = link;
      a.target = '_blank';
      a.rel = 'noopener';
      a.dataset.role = 'step-link';
      a.textContent = t('See this step in the visualizer ↗');
      feedback.append(a);
    }
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (input.value.trim()) answer(input.value.trim());
  });
  for (const b of choiceLine.querySelectorAll('[data-choice]')) {
    b.addEventListener('click', () => answer(b.dataset.choice));
  }
  nextBtn.addEventListener('click', () => load(index + 1));
  showBtn.addEventListener('click', () => answer(null, true));
  addEventListener('keydown', (e) => {
    if (question?.kind !== 'cut' || answered || e.target.closest?.('input, select')) return;
    if (e.key === 'y') answer('yes');
    if (e.key === 'n') answer('no');
  });

  load(0);
  return {
    taps: {},
    optionsChanged() {
      firstTry = 0;
      panel.querySelector('[data-role=q-score]').textContent = '';
      load(0);
    },
  };
}
