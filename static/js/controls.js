// The transport bar (buttons, scrubber, speed, step counter, progress) and
// the keyboard. Buttons are found by data-action, so tests and people use
// the same handles.

const SPEEDS = [0.5, 1, 2, 3, 5, 8, 13, 20, 40];   // steps per second

/** Is the user typing somewhere keys mean text (or a control's own keys)? */
function typing(target) {
  if (!target || !target.closest) return false;
  return !!target.closest('input, textarea, select, [contenteditable=""], [contenteditable=true]');
}

/**
 * makeControls(root, session, {onPresent, onFit}) -> {update(), status(s)}.
 * `root` holds the [data-action] buttons, scrubber, speed and counter.
 */
export function makeControls(root, session, { onPresent, onFit, onZoom } = {}) {
  const q = (sel) => root.querySelector(sel);
  const counter = q('[data-step]');
  const totalEl = q('[data-role=total]');
  const scrubber = q('[data-role=scrubber]');
  const speed = q('[data-role=speed]');
  const speedOut = q('[data-role=speed-value]');
  const progress = q('[data-role=progress]');
  const busy = q('[data-role=busy]');

  const actions = {
    'step-forward': () => session.forward(),
    'step-back': () => session.back(),
    play: () => session.play(),
    pause: () => session.pause(),
    'to-start': () => session.toStart(),
    'to-end': () => session.toEnd(),
    'next-cut': () => session.nextCut(),
    present: () => onPresent?.(),
    fit: () => onFit?.(),
    'zoom-in': () => onZoom?.(1.25),
    'zoom-out': () => onZoom?.(0.8),
  };

  document.addEventListener('click', (e) => {
    const b = e.target.closest('[data-action]');
    if (b && actions[b.dataset.action] && !b.disabled) actions[b.dataset.action]();
  });

  scrubber.addEventListener('input', () => session.goTo(Number(scrubber.value)));

  function setSpeed() {
    const s = SPEEDS[Number(speed.value)] ?? 2;
    session.setSpeed(s);
    speedOut.textContent = `${s}/s`;
  }
  speed.addEventListener('input', setSpeed);
  setSpeed();

  const keys = {
    ArrowRight: 'step-forward', ArrowLeft: 'step-back', Home: 'to-start', End: 'to-end',
    ' ': null, p: 'present', P: 'present', n: 'next-cut', N: 'next-cut', f: 'fit', F: 'fit',
    '+': 'zoom-in', '=': 'zoom-in', '-': 'zoom-out',
  };
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
    if (!(e.key in keys)) return;
    // Also stops a focused button from being "clicked" by Space.
    e.preventDefault();
    if (e.key === ' ') {
      if (!e.repeat) session.toggle();
      return;
    }
    actions[keys[e.key]]();
  });
  document.addEventListener('keyup', (e) => {
    if (e.key === ' ' && !typing(e.target)) e.preventDefault();
  });

  // Each write below is skipped when the value is already shown: stepping
  // changes the counter and the scrubber, rarely anything else.
  const setText = (e, text) => { if (e.textContent !== text) e.textContent = text; };
  const setAttr = (e, name, value) => {
    if (value == null) {
      if (e.hasAttribute(name)) e.removeAttribute(name);
    } else if (e.getAttribute(name) !== value) {
      e.setAttribute(name, value);
    }
  };
  const playBtn = q('[data-action=play]');
  const startBtns = ['step-back', 'to-start'].map((a) => q(`[data-action=${a}]`));
  const endBtns = ['step-forward', 'to-end', 'next-cut', 'play'].map((a) => q(`[data-action=${a}]`));

  /** Show the session's step, total and play state. */
  function update() {
    const run = session.run;
    if (!run) return;
    setText(counter, String(run.step));
    setAttr(counter, 'data-total', run.total != null ? String(run.total) : null);
    setText(totalEl, run.total != null ? String(run.total) : `${run.fetched}+`);
    const max = String(run.total ?? run.fetched);
    if (scrubber.max !== max) scrubber.max = max;
    if (scrubber.value !== String(run.step)) scrubber.value = String(run.step);
    root.classList.toggle('playing', session.playing);
    setAttr(playBtn, 'aria-pressed', String(session.playing));
    const atStart = run.step === 0, atEnd = run.total != null && run.step >= run.total;
    for (const b of startBtns) b.classList.toggle('at-limit', atStart);
    for (const b of endBtns) b.classList.toggle('at-limit', atEnd);
  }

  /**
   * {busy: text} shows a spinner line; {streamed: n} the to-end progress;
   * {drawing: fraction} the progress of drawing a far step on a big tree.
   */
  function status(s) {
    const bar = s.streamed != null || s.drawing != null;
    busy.textContent = s.busy || '';
    busy.hidden = !s.busy && !bar;
    progress.hidden = !bar;
    if (s.streamed != null) {
      busy.textContent = `Streaming to the end: ${s.streamed.toLocaleString('en')} steps…`;
      // The number of steps is unknown until `done`; the share of the
      // tree's evaluations made or saved is known (else: indeterminate).
      if (s.fraction != null) progress.value = s.fraction;
      else progress.removeAttribute('value');
    } else if (s.drawing != null) {
      busy.textContent = `Drawing the last step: ${Math.round(100 * s.drawing)} %`;
      progress.value = s.drawing;
    }
  }

  return { update, status };
}
