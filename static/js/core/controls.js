// The transport bar (buttons, scrubber, speed, step counter, progress) and
// the keyboard. Buttons are found by data-action, so tests and people use
// the same handles.

import { t, num } from './i18n.js';
import { offers } from './algorithms.js';

const SPEEDS = [0.5, 1, 2, 3, 5, 8, 13, 20, 40];   // steps per second

// Which keys belong to the focused element rather than to the page's
// shortcuts: every key in a text field, a select or a slider; the arrows,
// Home, End, Enter and Space in the accessible tree (it moves between nodes
// with them); Space and Enter on a button, link or other control (they
// press it, as everywhere else on the web; on play and pause, Space is
// play/pause). The arrows and letters still step on a focused button: a
// button has no use for them.
const FIELDS = 'input, textarea, select, [contenteditable=""], [contenteditable=true], [role=slider], [role=listbox], [role=textbox]';
const PRESSABLE = 'button, a[href], summary, label, [role=button], [role=link], [role=tab], [role=menuitem], [role=checkbox], [role=radio]';
const TREE_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'Enter', ' ', '*']);

/** Does `key` belong to the focused element `target` (not to the page)? */
export function ownsKey(target, key) {
  if (!target || !target.closest) return false;
  if (target.closest(FIELDS)) return true;
  if (target.closest('[role=tree]')) return TREE_KEYS.has(key);
  // Space on the play or pause button is play/pause, as the page's Space is
  // (contract §4): pressing either while it is shown toggles the run.
  if (key === ' ' && target.closest('[data-action=play], [data-action=pause]')) return false;
  return (key === ' ' || key === 'Enter') && !!target.closest(PRESSABLE);
}

/**
 * makeControls(root, session, {onPresent, onFit}) -> {update(), status(s)}.
 * `root` holds the [data-action] buttons, scrubber, speed and counter.
 */
/**
 * Set an element's text only when it differs (a write costs a layout), in
 * its text node where it has just one: a new node is a new layout object
 * and style (five a step, issue 30); its data changed is a relayout only.
 */
export function setText(el, text) {
  const node = el.firstChild;
  if (node && node === el.lastChild && node.nodeType === Node.TEXT_NODE) {
    if (node.data !== text) node.data = text;
  } else if (el.textContent !== text) el.textContent = text;
}

export function makeControls(root, session, { onPresent, onContrast, onFit, onZoom } = {}) {
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
    contrast: () => onContrast?.(),
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
    speedOut.textContent = t('{n}/s', { n: s });
  }
  speed.addEventListener('input', setSpeed);
  setSpeed();

  const keys = {
    ArrowRight: 'step-forward', ArrowLeft: 'step-back', Home: 'to-start', End: 'to-end',
    ' ': null, p: 'present', P: 'present', c: 'contrast', C: 'contrast', n: 'next-cut', N: 'next-cut', f: 'fit', F: 'fit',
    '+': 'zoom-in', '=': 'zoom-in', '-': 'zoom-out',
  };
  // Space is the page's play/pause only where no control takes it; the
  // keyup of a Space the page took is stopped too, or a button focused
  // since would be pressed by it.
  let spaceTaken = false;
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || ownsKey(e.target, e.key)) return;
    if (!(e.key in keys)) return;
    if (keys[e.key] === 'next-cut' && q('[data-action=next-cut]')?.hidden) return;   // (not offered: nothing is cut)
    e.preventDefault();
    if (e.key === ' ') {
      spaceTaken = true;
      if (!e.repeat) session.toggle();
      return;
    }
    actions[keys[e.key]]();
  });
  document.addEventListener('keyup', (e) => {
    if (e.key === ' ' && spaceTaken) { spaceTaken = false; e.preventDefault(); }
  });

  // Each write below is skipped when the value is already shown: stepping
  // changes the counter and the scrubber, rarely anything else.
  const setAttr = (e, name, value) => {
    if (value == null) {
      if (e.hasAttribute(name)) e.removeAttribute(name);
    } else if (e.getAttribute(name) !== value) {
      e.setAttribute(name, value);
    }
  };
  const playBtn = q('[data-action=play]');
  const pauseBtn = q('[data-action=pause]');
  const startBtns = ['step-back', 'to-start'].map((a) => q(`[data-action=${a}]`));
  const endBtns = ['step-forward', 'to-end', 'next-cut', 'play'].map((a) => q(`[data-action=${a}]`));
  const nextCutBtn = q('[data-action=next-cut]');

  /** Show the session's step, total and play state. */
  function update() {
    const run = session.run;
    if (!run) return;
    // "Next cut-off" only where the algorithm's record offers it (not MCTS, max^n, minimax...).
    const alg = session.params?.algorithm;
    if (nextCutBtn && alg != null) {
      const off = !offers(alg, 'next-cut');
      if (nextCutBtn.hidden !== off) nextCutBtn.hidden = off;
    }
    setText(counter, String(run.step));
    setAttr(counter, 'data-total', run.total != null ? String(run.total) : null);
    setText(totalEl, run.total != null ? String(run.total) : `${run.fetched}+`);
    const max = String(run.total ?? run.fetched);
    if (scrubber.max !== max) scrubber.max = max;
    if (scrubber.value !== String(run.step)) scrubber.value = String(run.step);
    // Play hides its button: keep keyboard focus on the pause button beside it.
    if (session.playing && document.activeElement === playBtn) pauseBtn.focus();
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
      busy.textContent = t('Streaming to the end: {n} steps…', { n: num(s.streamed) });
      // The number of steps is unknown until `done`; the share of the
      // tree's evaluations made or saved is known (else: indeterminate).
      if (s.fraction != null) progress.value = s.fraction;
      else progress.removeAttribute('value');
    } else if (s.drawing != null) {
      busy.textContent = t('Drawing the last step: {percent} %', { percent: Math.round(100 * s.drawing) });
      progress.value = s.drawing;
    }
  }

  return { update, status };
}
