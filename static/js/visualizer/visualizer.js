// The page /t/<id>: wires the tree drawing, the session, the controls, the
// panels, the run options and the address bar together.

import { algorithmsFor, fetchTree, LEVEL, readTree, shapePath, spokenLabel } from '../core/tree.js';
import { drawPicture, gameOf, pictureSize } from '../core/boards.js';
import { makeTreeView } from '../painters/treeview.js';
import { makeZoom, pixelSize } from '../core/zoom.js';
import { connect } from '../core/stream.js';
import { makeSession, startEarly } from '../core/session.js';
import { makeControls } from '../core/controls.js';
import { makeNodeName, makePseudocode, makeStack, makeStats, pruneTestParts, setHidden, setParts, setText } from './panels.js';
import { makeOptions, readQuery, writeQuery } from './options.js';
import { makePresentation } from '../core/present.js';
import { startClassButton } from '../classes/class-start.js';
import { describe, makeA11yTree, makeAnnouncer, pruneReasons } from '../painters/a11ytree.js';
import { makeView, read } from '../core/model.js';
import { makeOpener } from '../core/gametree.js';
import { lang, t } from '../core/i18n.js';
import { makeIterations } from './iterations.js';
import { makeTabs } from './tabs.js';
import { onSwipe } from '../core/swipe.js';
import { afterLayout, fitText } from '../painters/fittext.js';
import { ALGORITHMS, algorithm, keepsBounds, panelOf, shortName, takes } from '../core/algorithms.js';
import { floorScale, smallestType } from '../painters/presentfloor.js';
import { makeMctsPanel } from './mcts.js';

// Presentation mode's projector layout (visualizer.css): the sentence's box
// grows there, so its type never shrinks; on a phone the box keeps its height.
const PROJECTOR = matchMedia('(min-width: 761px) and (min-height: 501px)');
const projecting = () => document.documentElement.classList.contains('present') && PROJECTOR.matches;

const $ = (sel) => document.querySelector(sel);
const NARROW = '(max-width: 760px), (max-height: 500px)';
const PRESENT_LEVEL = 64;   // tree units between plies in presentation mode (tree.js LEVEL: 96)
// A phone shows a tree whole only if it then reads (values at 18 px x scale,
// 14.4 px at READ_K); a bigger tree is shown as a window at FOLLOW_K that
// follows the search, the whole tree one tap away (the Fit button).
const READ_K = 0.8;
const READ_PX = 11.6;    // ... and never a value below this (one set smaller to fit its shape: valuefit.js)
const FOLLOW_K = 1;

async function main() {
  const page = $('#visualizer');
  const treeId = page.dataset.tree;
  const alert = $('#run-alert');
  const showError = (msg) => { alert.textContent = msg || ''; alert.hidden = !msg; };
  // Connect first: the handshake overlaps fetching and drawing the tree.
  const socket = connect();

  let tree;
  try {
    // Its nodes as columns (the page reads them with no object per node; the preload asks for the same).
    const json = await fetchTree(treeId, '?form=flat');
    performance.mark('tree-fetched');
    tree = readTree(json);
  } catch (err) {
    showError(err.message);
    $('#stage').classList.add('failed');
    return;
  }
  // The file's own translation, or the title as the server said it (a game's, in the reader's language).
  const title = tree.translations[lang]?.title || $('#title').textContent.trim() || tree.title || treeId;
  $('#title').textContent = title;
  $('#title').title = title;
  $('#source').textContent = tree.source;
  document.title = title + ' · ' + t('Adversarial search');

  const query = readQuery();
  const algorithms = [...algorithmsFor(tree)];
  // An algorithm asked for by name that does not fit this tree is still run:
  // the server then says why (iterative deepening: which node has no eval),
  // rather than the page quietly running another one.
  if (ALGORITHMS.includes(query.algorithm) && !algorithms.includes(query.algorithm)) {
    algorithms.push(query.algorithm);
  }
  const params = {
    algorithm: algorithms.includes(query.algorithm) ? query.algorithm : algorithms[0],
    depth: query.depth !== undefined ? query.depth : tree.depth, order: query.order || 'given', seed: query.seed,
    strict: query.strict, style: query.style || 'aima', iterations: null, exploration: null,
  };
  if (takes(params.algorithm, 'iterations')) {   // (Monte Carlo tree search) its own options, the given order
    Object.assign(params, { order: 'given', strict: false, seed: query.seed ?? 1,
      iterations: query.iterations ?? 200, exploration: query.exploration,
      // playouts go to the end of the game unless a depth is asked for
      depth: query.depth !== undefined ? query.depth : null });
  }
  // The run set up on the server, and its listing fetched, while the tree is
  // laid out and drawn here (issue 30: they came after the drawing).
  const ticket = startEarly(socket, treeId, params);
  const code = makePseudocode($('#pseudocode'), { onStyle: (s) => restart({ style: s }, true) });
  const listings = code.load(params).then(() => code.setStyle(params.style));

  chromeSize(page);
  // On a phone the run options fold away behind one button.
  const optionsToggle = $('[data-action=show-options]');
  optionsToggle.addEventListener('click', () => {
    const open = page.classList.toggle('options-open');
    optionsToggle.setAttribute('aria-expanded', String(open));
  });
  const svg = $('#tree');
  const viewport = svg.querySelector('.viewport');
  pixelSize(svg, $('#canvas'));
  const zoom = makeZoom(svg, viewport);
  svg.dataset.nodes = String(tree.nodes.length);
  let drawing = null, drawnDepth, drawnLevel;
  let focused = null;           // the node whose item has keyboard focus (ringed)
  const presenting = () => document.documentElement.classList.contains('present');
  let follow = false;           // a window following the active node, not the whole tree
  // Presentation mode follows the search by itself where the whole tree
  // would not read from the back row (presentfloor.js), until Fit asks for all of it.
  let autoFollow = false, wholeAsked = false, type = null;
  let asked = params;           // the run's options as last asked (the session's may still be the old ones)
  const following = () => follow || autoFollow;
  let session = null;
  /**
   * The smallest type the drawing shows, {text, value} (tree units;
   * presentfloor.js); `cuts`: counting values written as bounds ("≤−10"),
   * which only a cut-off makes (every value may be one, few are).
   */
  function smallest(cuts = true) {
    type ??= {};
    const key = String(cuts);
    type[key] ??= smallestType(tree, drawing.box.plan, svg,
      { bounds: cuts && keepsBounds(asked.algorithm), limit: asked.depth ?? null });
    return type[key];
  }
  /** The scale presentation mode's floor needs (0 outside it). */
  function presentK() {
    return projecting() ? floorScale(smallest(), innerHeight) : 0;
  }
  /** The scale at which every value reads on a phone (READ_PX). */
  const readK = (cuts = true) => Math.max(READ_K, smallest(cuts).value ? READ_PX / smallest(cuts).value : 0);
  // Presentation mode lets a small lecture tree grow past 2x to fill the stage.
  // The window size the floor chose to follow at: following moves the legend
  // (a bar above the tree, not a column beside it), and that change of the
  // tree's room must not undo the choice (it flipped every frame at the edge).
  let autoAt = '';
  const fit = () => {
    const kFloor = presentK();
    const size = `${innerWidth}x${innerHeight}`;
    const auto = kFloor > 0 && !wholeAsked && !follow
      && ((autoFollow && autoAt === size) || wholeK(drawing.box) < kFloor);
    if (auto !== autoFollow) {
      autoFollow = auto;
      autoAt = auto ? size : '';
      followButton?.setAttribute('aria-pressed', String(following()));
    }
    sayFollow();
    if (following()) { followActive(); return; }
    zoom.fit(drawing.box, {
      minK: tree.nodes.length > 500 ? 0.3 : 0,
      maxK: presenting() ? 6 : 2.5,
    });
  };
  /** The scale at which zoom.fit would show all of box `b` (as zoom.js pads it). */
  function wholeK(b) {
    const { width, height } = zoom.size;
    const pad = Math.min(24, Math.max(6, Math.min(width, height) * 0.03));
    return Math.min((width - 2 * pad) / (b.x1 - b.x0), (height - 2 * pad) / (b.y1 - b.y0));
  }
  /**
   * The drawn node nearest the search: the active node, or where a game's
   * search is below what the page draws (ids are paths of moves, X5-O1-X9),
   * its deepest drawn ancestor.
   */
  function drawnNear(id) {
    if (id == null) return null;
    const n = tree.byId.get(id);
    if (n || !tree.game) return n || null;
    const parts = String(id).split('-');
    for (let k = parts.length - 1; k > 0; k--) {
      const up = tree.byId.get(parts.slice(0, k).join('-'));
      if (up) return up;
    }
    return tree.root;
  }
  /** The window on the tree: the active node in its middle (before and after the search, the root at its top). */
  function followActive() {
    const id = session?.active;
    const run = session?.run;
    // A game at its end: the best line, as far down as it is drawn (the sentence and the board say the rest).
    const pv = tree.game && run?.done && run.step === run.total ? run.done.pv : null;
    const n = drawnNear(pv ? pv[pv.length - 1] : id) || tree.root;
    // In presentation mode, just above the floor's scale: as much of the tree as reads.
    const k = projecting() ? Math.max(1, presentK() * 1.03) : Math.max(FOLLOW_K, readK());
    const top = n === tree.root ? (n.y - drawing.box.y0) * k + 8 : pv ? zoom.size.height * 0.4 : undefined;
    zoom.show(n.x, n.y, k, undefined, top);
  }
  /**
   * A window that follows says so (issue 26), in the bar over the tree: the
   * back row's floor, or a tree too big to read whole (a game's, by default);
   * a phone's narrow bar keeps only the floor's note (its Follow button is lit).
   */
  const followNote = $('[data-follow-note]');
  const FOLLOW_WORDS = { floor: followNote?.textContent,
    window: t('Following the search: a readable window on the active node. Fit shows the whole tree.') };
  function sayFollow() {
    if (!followNote) return;
    const on = autoFollow || (follow && !matchMedia(NARROW).matches);
    followNote.hidden = !on;
    if (on) followNote.textContent = autoFollow ? FOLLOW_WORDS.floor : FOLLOW_WORDS.window;
    page.classList.toggle('present-follow', on);
  }
  // While following, the search is kept well inside the window (room for the labels beside a node).
  const followMargin = () => Math.min(140, 0.3 * Math.min(zoom.size.width, zoom.size.height));
  const followButton = $('[data-action=follow]');
  function setFollow(on) {
    follow = on;
    page.classList.toggle('follow', on);
    followButton?.setAttribute('aria-pressed', String(on));
    fit();
  }
  /** Follow by default where the whole tree would not read: a phone, a tree wider than the screen allows. */
  function readable() {
    // A game's tree (its top, the rest folded) is followed on any screen where it would not read whole.
    if ((!matchMedia(NARROW).matches && !tree.game) || following()) return true;
    fit();
    // Values that must shrink to stay inside their shapes (an average, a long
    // number) set the scale: every value at READ_PX at least (a window that
    // follows counts the bounds a cut may write too).
    return zoom.get().k >= readK(false);
  }

  // Which painter draws the tree: 'auto' (SVG, or a canvas past a few
  // thousand nodes: treeview.js), or forced by ?draw=svg|canvas.
  const painter = ['svg', 'canvas'].includes(new URLSearchParams(location.search).get('draw'))
    ? new URLSearchParams(location.search).get('draw') : 'auto';
  let a11y = null;

  /** (Re)draw the tree down to a depth limit (null: all of it), and fit it. */
  function draw(maxDepth, level = presenting() ? PRESENT_LEVEL : null) {
    if (drawing && maxDepth === drawnDepth && level === drawnLevel) return;
    drawnDepth = maxDepth;
    drawnLevel = level;
    drawing?.destroy();
    // Draw into a detached group and fit while the SVG is empty: the browser
    // then lays the tree out once, at its final scale.
    viewport.remove();
    // A phone gets the tighter spacing: values stay readable at full width.
    type = null;
    drawing = makeTreeView(viewport, tree, {
      maxDepth, absolute: true, compact: matchMedia(NARROW).matches, level, painter, surface: svg, zoom,
    });
    const b = drawing.box;
    page.style.setProperty('--tree-aspect', ((b.y1 - b.y0) / (b.x1 - b.x0)).toFixed(3));
    page.style.setProperty('--follow-h', `${Math.ceil((b.y1 - b.y0) * FOLLOW_K + 16)}px`);
    if (focused != null) drawing.setFocus(focused);
    fit();
    svg.appendChild(viewport);
    // Painted on a canvas, the tree has no element per node: the hooks of
    // contract §4 are then carried by the accessible tree's items.
    svg.dataset.painter = drawing.canvas ? 'canvas' : 'svg';
    a11y?.setHooks(drawing.canvas);
  }
  draw(params.depth);
  if (!readable()) setFollow(true);
  followButton?.addEventListener('click', () => {
    if (autoFollow) { wholeAsked = true; fit(); } else setFollow(!follow);
  });
  performance.mark('tree-drawn');
  // Follow the window (and presentation mode) until the user zooms by hand.
  new ResizeObserver(() => { if (!zoom.moved) fit(); }).observe(svg);
  page.classList.toggle('has-chance', tree.hasChance);
  page.classList.toggle('multiplayer', tree.multiplayer);
  if (tree.multiplayer) playerLegend($('.legend'), tree);

  const narration = $('#narration');
  const announcer = makeAnnouncer($('#announce'));
  // The drawing is for eyes; the accessible tree below says the same.
  svg.setAttribute('aria-hidden', 'true');
  const why = pruneReasons(tree, () => session?.run);
  const blank = makeView();
  a11y = makeA11yTree($('#a11y-tree'), tree, {
    fields: (id) => read(session?.run ? session.run.view : blank, id),
    why,
    hooks: drawing.canvas,
    onFocus: (id) => {
      focused = id;
      drawing.setFocus(id);
      const n = id != null ? tree.byId.get(id) : null;
      if (n) zoom.ensureVisible(n.x, n.y);
    },
    onOpen: (id) => svg.dispatchEvent(new CustomEvent('open-subtree', { detail: id })),
  });
  const testEl = $('#prune-test');
  // A game's positions are drawn in the panels as in the tree (small boards, piles).
  const nodeName = makeNodeName(tree, () => session);
  const stack = makeStack($('#stack tbody'), nodeName);
  const stats = makeStats($('#stats'), tree);
  const tabs = makeTabs($('.panels'));
  let iterations = null;
  let mctsPanel = null;   // [mcts]

  let controls = null, activeBoard = null;
  const afterStepLayout = afterLayout(narration);
  const fitNarration = () => fitText(narration, { min: projecting() ? 1 : 0.6 });
  session = makeSession({
    socket,
    tree,
    treeId,
    // The page narrates the raw events itself (narrate.js); ?stream=json has
    // the server narrate them, as before (bench/browser.py compares the two).
    narrate: new URLSearchParams(location.search).get('stream') !== 'json',
    // The session draws through this, whichever drawing is current.
    treeView: {
      setNodes: (ids, fieldsOf) => { drawing.setNodes(ids, fieldsOf); a11y.setNodes(ids, fieldsOf); },
      setActive: (id) => { drawing.setActive(id); a11y.setActive(id); },
      setPath: (ids) => { drawing.setPath(ids); a11y.setPath(ids); },
      // The canvas paints tens of thousands of nodes' new state in a few ms.
      get preview() { return drawing.canvas ? (ids, fieldsOf) => { drawing.setNodes(ids, fieldsOf); drawing.paint(); } : undefined; },
    },
    // While following, the window keeps the active node well inside it.
    zoom: { ensureVisible: (x, y) => zoom.ensureVisible(x, y, following() ? followMargin() : undefined) },
    onUpdate: (s) => {
      controls?.update();
      // Following, before and after the search: the root (the result) in view.
      if (following() && !zoom.moved) {
        if (s.active == null) followActive();     // before and after the search
        else if (!tree.byId.has(s.active)) {     // a game's search below what is drawn
          const n = drawnNear(s.active);
          zoom.ensureVisible(n.x, n.y, followMargin());
        }
      }
      activeBoard?.(s);
      const ev = s.run.event;
      const sentence = ev ? ev.text || '' : startSentence(tree, s.params);
      if (narration.textContent !== sentence) {
        setText(narration, sentence);
        // Fitted in the step's frame once it is laid out (afterLayout): no
        // layout forced here or in an animation frame, one layout per step.
        afterStepLayout(fitNarration);
      }
      announcer.step(sentence, s.playing);
      code.update(ev);
      setParts(testEl, pruneTestParts(s, tree), nodeName);
      page.classList.toggle('no-bounds', !keepsBounds(s.params.algorithm));
      stack(s, tree);
      stats(s);
      const wasHidden = $('#iterations').hidden, mctsHidden = $('#mcts').hidden;
      iterations?.();
      const mcts = panelOf(s.params.algorithm) === 'mcts';   // its record's panel, not the stack's
      page.classList.toggle('mcts', mcts);
      for (const el of [$('#stack'), $('#stats'), $('#prune-test').closest('section')]) setHidden(el, mcts);
      mctsPanel?.();
      // (a worksheet only where the record makes one: the server refuses the others)
      const sheet = $('[data-worksheet]')?.closest('li');
      if (sheet) setHidden(sheet, algorithm(s.params.algorithm)?.worksheet === false);
      // [mcts] the playout drawn on the tree, beyond the search tree, at its simulate step
      drawing.setPlayout?.(mcts && ev?.type === 'simulate' ? ev.playout : null);
      if (wasHidden !== $('#iterations').hidden || mctsHidden !== $('#mcts').hidden) tabs.refresh();
      writeQuery({ ...s.params, step: s.run.step, suggestedDepth: tree.depth });
    },
    onFetched: () => controls?.update(),
    onStatus: (st) => {
      controls?.status(st);
      if (st.error) showError(st.error);
      else if (!st.busy && st.streamed == null) showError('');
    },
  });
  iterations = makeIterations($('#iterations'), session, tree);
  activeBoard = makeActiveBoard($('[data-active-board]'), tree);
  mctsPanel = makeMctsPanel($('#mcts'), session, tree, { treeId });
  /** Draw again (new spacing, a subtree opened) and show the current step on it. */
  function redraw() {
    const before = drawing;
    const depth = session.run ? session.params.depth ?? null : drawnDepth;
    draw(depth);
    // Presentation mode draws the plies closer: the same stage height then
    // holds the tree at a larger scale, so its type reads from the back row.
    // A tree the stage's width holds back gains nothing by it: its plies are
    // drawn as far apart as its scale lets the height allow (up to 1.5x as usual).
    if (presenting()) {
      const b = drawing.box, r = $('#canvas').getBoundingClientRect();
      const plies = Math.min(tree.height, depth ?? Infinity);
      const kw = (r.width - 48) / (b.x1 - b.x0), kh = (r.height - 48) / (b.y1 - b.y0);
      if (kw < kh && plies > 0) {
        const level = Math.min(1.5 * LEVEL, PRESENT_LEVEL + ((r.height - 48) / kw - (b.y1 - b.y0)) / plies);
        draw(depth, Math.round(level));
      }
    }
    if (drawing === before) return;
    const run = session.run;
    const view = run ? run.view : blank;
    drawing.setNodes(tree.nodes.map((n) => n.id), (id) => read(view, id));
    const active = tree.nodes.find((n) => read(view, n.id).status === 'active');
    drawing.setActive(active ? active.id : null);
    drawing.setPath(run?.done && run.step === run.total ? run.done.pv : null);
    if (focused != null) drawing.setFocus(focused);
  }
  const presentation = makePresentation(page, {
    onChange: () => requestAnimationFrame(() => {
      wholeAsked = false;
      redraw();
      fit();
      code.reveal();
      fitText(narration, { min: projecting() ? 1 : 0.6 });
    }),
  });
  // Swipe to step: on the sentence always, on the tree while it is shown whole
  // and not zoomed by hand (a window that follows the search pans by a drag).
  const swipe = { left: () => session.forward(), right: () => session.back() };
  onSwipe(narration, swipe);
  // The flick panned the tree a little: put it back where fit has it.
  onSwipe($('#canvas'), {
    left: () => { fit(); session.forward(); },
    right: () => { fit(); session.back(); },
    accept: () => !zoom.moved && !following(),
  });
  controls = makeControls($('#transport'), session, {
    onPresent: () => presentation.toggle(),
    onContrast: () => presentation.toggleContrast(),
    // Fit shows the whole tree (and stops following).
    onFit: () => {
      wholeAsked = true;      // (leaving a game's window must not land in the floor's)
      if (follow) setFollow(false); else fit();
    },
    onZoom: (f) => zoom.zoomBy(f),
  });
  const options = makeOptions($('#options'), {
    algorithms, height: tree.height, onChange: (p) => restart(p),
  });

  // Restart with changed options; `keepStep` for a switch that keeps the steps.
  async function restart(change, keepStep = false) {
    const next = { ...session.params, ...change };
    options.set(next);
    type = null;                        // presentation mode's floor: bounds or not, another depth
    autoAt = '';                        // (and the choice to follow made afresh)
    asked = next;
    const listings = code.load(next).then(() => code.setStyle(next.style));
    showError('');
    if (next.depth !== drawnDepth) {
      session.pause();
      draw(next.depth);                 // a new drawing starts at step 0
    }
    await session.start(next, keepStep ? session.run?.step ?? 0 : 0);
    await listings;
  }

  // A game from its rules: a click on a fold opens that subtree (gametree.js).
  if (tree.game) {
    const opener = makeOpener({
      treeId, tree,
      onOpened: (id) => {
        drawnDepth = undefined;
        redraw();
        a11y.rebuild(id);
        if (a11y.hooks) {
          const view = session.run ? session.run.view : blank;
          a11y.setNodes(tree.nodes.map((n) => n.id), (id) => read(view, id));
        }
      },
    });
    svg.addEventListener('open-subtree', (e) => opener.open(e.detail).catch((err) => showError(err.message)));
  }

  // A click (a tap) on a node points at it: ringed as the keyboard's node is,
  // made the accessible tree's current item, and described for screen readers.
  svg.addEventListener('node-click', (e) => {
    const id = e.detail;
    focused = id;
    drawing.setFocus(id);
    a11y.follow(id);
    a11y.setSelected(id);
    const n = tree.byId.get(id);
    if (n) announcer.say(describe(n, read(session?.run ? session.run.view : blank, id)));
  });

  startClassButton(page, () => ({ tree: treeId, ...session.params, step: session.run?.step ?? 0 }), showError);

  // A handle for the browser console and the benchmark, not an API.
  window.visualizer = { session, tree, zoom, get drawing() { return drawing; }, get follow() { return follow; }, get following() { return following(); } };

  options.set(params);
  const started = await session.start(params, query.step || 0, ticket);
  await listings;
  if (started) page.classList.add('ready');
  performance.mark('run-started');
}

/**
 * On a phone the page scrolls and the tree gets the screen left between the
 * bars above it and the fixed controls below (CSS reads --chrome).
 */
function chromeSize(page) {
  // The stage's own bar (legend, zoom) is part of the stage's height.
  const bars = ['.topbar', '#narration', '#transport'].map((s) => page.querySelector(s));
  const set = () => {
    const h = bars.reduce((sum, el) => sum + (el ? el.getBoundingClientRect().height : 0), 0);
    page.style.setProperty('--chrome', `${Math.ceil(h)}px`);
    page.style.setProperty('--transport-h', `${Math.ceil(bars[2]?.getBoundingClientRect().height || 0)}px`);
  };
  set();
  // The header grows when the options open; the controls when they wrap.
  const observer = new ResizeObserver(set);
  observer.observe(bars[0]);
  observer.observe(bars[2]);
  addEventListener('resize', set);
}

/**
 * A game's position where the search is, drawn large beside the tree (the
 * tree draws only its top: the search is often far below it); at the end,
 * the position the best line leads to. Returns update(session), or null
 * for a tree that is not a game.
 */
function makeActiveBoard(figure, tree) {
  const game = gameOf(tree);
  if (!figure || !game) return null;
  const svg = figure.querySelector('svg');
  const caption = figure.querySelector('figcaption');
  let shown = null;
  return function update(s) {
    const run = s.run;
    const end = run?.done && run.step === run.total;
    const id = end ? run.done.pv[run.done.pv.length - 1] : s.active ?? tree.root.id;
    const label = s.labelOf(id) ?? tree.root.label;
    const key = `${end}\n${label}`;
    if (key === shown) return;
    shown = key;
    const size = pictureSize(game, label);
    figure.hidden = !size;
    if (!size) return;
    svg.setAttribute('viewBox', `-1 -1 ${size.w + 2} ${size.h + 2}`);
    svg.replaceChildren();
    drawPicture(svg, game, label, size.w / 2, size.h / 2)?.querySelector('title')?.remove();
    const words = s.wordsOf(label) ?? (tree.positions?.[label] || '');
    if (end) {
      // The best line move by move (the board shows where it ends).
      const labels = run.done.pv.map((p) => s.labelOf(p));
      const line = labels.slice(1).map((l, i) => s.wordsOf(labels[i], l)).filter(Boolean).join(', ');
      caption.textContent = t('The best line: {moves}.', { moves: line });
    } else {
      caption.textContent = t('Where the search is: {position}', { position: words });
    }
    svg.setAttribute('aria-label', words);
  };
}

/** max^n: one legend entry per player, with its shape and letter. */
function playerLegend(legend, tree) {
  const NS = 'http://www.w3.org/2000/svg';
  const items = tree.players.map((name, i) => {
    const li = document.createElement('li');
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', '-13 -13 26 26');
    const g = document.createElementNS(NS, 'g');
    g.setAttribute('class', `node role-player p${i % 5}`);
    const path = document.createElementNS(NS, 'path');
    path.setAttribute('class', 'shape st-visited');
    path.setAttribute('d', shapePath({ role: 'player', playerIndex: i }, 10));
    g.appendChild(path);
    svg.appendChild(g);
    li.append(svg, name);
    return li;
  });
  legend.prepend(...items);
}

function startSentence(tree, params) {
  const name = shortName(params.algorithm);
  return t('Step 0: nothing searched yet. Press → to start {algorithm} at {root}.',
    { algorithm: name, root: spokenLabel(tree, tree.root) });
}

main();
