// What the projector and the phones share: the class's Socket.IO channel,
// and the tree drawn and stepped with the visualizer's own modules
// (tree.js, treeview.js, zoom.js, session.js): one model, one drawing.

import { io } from '../../vendor/socket.io/socket.io.esm.min.js';
import { fetchTree, readTree } from '../core/tree.js';
import { makeTreeView } from '../painters/treeview.js';
import { makeZoom, pixelSize } from '../core/zoom.js';
import { connect } from '../core/stream.js';
import { makeSession } from '../core/session.js';
import { socketOptions, t } from '../core/i18n.js';
import { describe, makeA11yTree, pruneReasons } from '../painters/a11ytree.js';
import { makeView, read } from '../core/model.js';
import { panelOf } from '../core/algorithms.js';

export { promptOf, sayLabel } from './class-words.js';

const TIMEOUT = 15000;

/** The page's one connection ('/' for runs) and the class channel on it. */
export function connectClass() {
  const socket = connect();
  // Same server, same options: socket.io multiplexes '/class' over the same connection.
  const channel = io('/class', socketOptions({ transports: ['websocket', 'polling'], tryAllTransports: true }));
  return { socket, channel };
}

/** Send a class message; resolves to the ack, rejects with Error(message). */
export async function send(channel, name, payload) {
  if (!channel.connected) {
    await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('cannot reach the server')), TIMEOUT);
      channel.once('connect', () => { clearTimeout(t); resolve(); });
    });
  }
  const ack = await channel.timeout(TIMEOUT).emitWithAck(name, payload);
  if (!ack || ack.ok === false) {
    const err = new Error(ack?.error?.message || 'the server refused');
    err.status = ack?.error?.status;
    throw err;
  }
  return ack;
}

/**
 * Draw tree `treeId` into the page's #stage and make a session on it, with
 * the accessible tree (#a11y-tree) in step: each node says its state at the
 * class's step. Returns {tree, session, zoom, fit, drawing, svg, a11y,
 * mask(id)}; `onUpdate(session)` after every move; `mask(id)` hides node
 * id's bounds (a question asks for them) from the eye and the ear.
 */
export async function makeClassView({ socket, treeId, depth, algorithm, onUpdate, onStatus }) {
  const tree = readTree(await fetchTree(treeId));
  const stage = document.querySelector('#stage');
  const svg = stage.querySelector('#tree');
  const viewport = svg.querySelector('.viewport');
  pixelSize(svg, stage);
  const zoom = makeZoom(svg, viewport);
  viewport.remove();
  const drawing = makeTreeView(viewport, tree, { maxDepth: depth ?? null, absolute: true });
  // The zoom buttons lie over the stage's top corner: the tree fits below them
  // (a short stage, a phone's under an open question, put α and β under them).
  const buttons = stage.querySelector('.zoom-buttons');
  const clear = () => {
    if (!buttons || getComputedStyle(buttons).position !== 'absolute') return 0;
    return Math.max(0, buttons.getBoundingClientRect().bottom - svg.getBoundingClientRect().top);
  };
  const fit = () => zoom.fit(drawing.box, { minK: tree.nodes.length > 500 ? 0.3 : 0, top: clear() });
  fit();
  svg.appendChild(viewport);
  new ResizeObserver(() => { if (!zoom.moved) fit(); }).observe(svg);
  let session = null, masked = null, ringed = null;
  const blank = makeView();
  const list = stage.querySelector('#a11y-tree');
  const a11y = list && makeA11yTree(list, tree, {
    fields: (id) => read(session?.run ? session.run.view : blank, id),
    why: pruneReasons(tree, () => session?.run),
    say: (n, f, c) => describe(n, f, { ...c, bounds: n.id !== masked }),
    onFocus: (id) => {          // ring the node in the drawing, and bring it into view
      drawing.nodeEl(ringed)?.classList.remove('kbd-focus');
      ringed = id;
      drawing.nodeEl(id)?.classList.add('kbd-focus');
      const n = id != null ? tree.byId.get(id) : null;
      if (n) zoom.ensureVisible(n.x, n.y);
    },
  });
  if (a11y) svg.setAttribute('aria-hidden', 'true');   // the drawing is for eyes; the list says it
  const treeView = !a11y ? drawing : {
    setNodes: (ids, get) => { drawing.setNodes(ids, get); a11y.setNodes(ids, get); },
    setActive: (id) => { drawing.setActive(id); a11y.setActive(id); },
    setPath: (ids) => { drawing.setPath(ids); a11y.setPath(ids); },
  };
  // [mcts] as the visualizer draws it: the search tree only, and a playout as a dashed path.
  const mcts = panelOf(algorithm) === 'mcts';   // its record's panel, as the visualizer reads it
  stage.closest('.class-page')?.classList.toggle('mcts', mcts);
  session = makeSession({
    socket, tree, treeId, treeView, zoom,
    onUpdate: (s) => {
      if (mcts) drawing.setPlayout?.(s.run.event?.type === 'simulate' ? s.run.event.playout : null);
      onUpdate?.(s);
    },
    onStatus: (st) => onStatus?.(st),
    // A whole lecture tree arrives in the first pull: the run is then closed
    // on the server, so a class of hundreds holds no runs there.
    onFetched: (s) => { s.release(); },
  });
  function mask(nodeId) {
    maskBounds(drawing, nodeId);
    if (masked !== nodeId) { masked = nodeId; a11y?.refresh(); }
  }
  return { tree, session, zoom, fit, drawing, svg, a11y, mask };
}

/**
 * Hide the bounds a question asks about ("α and β at X now") until the reveal:
 * the node gets class `masked` (CSS hides its bounds) and a "?" beside it.
 */
export function maskBounds(drawing, nodeId) {
  for (const g of document.querySelectorAll('[data-node].masked')) {
    g.classList.remove('masked');
    g.querySelector('.ask-mark')?.remove();
  }
  const g = nodeId != null ? drawing.nodeEl(nodeId) : null;
  if (!g) return;
  g.classList.add('masked');
  const t = document.createElementNS('http://www.w3.org/2000/svg', 'text');
  t.setAttribute('class', 'ask-mark');
  t.setAttribute('x', g.x + 34);
  t.setAttribute('y', g.y - 4);
  t.textContent = 'α, β = ?';
  g.appendChild(t);
}

/** One sentence saying where the search is: the step's narration. */
export function narrationOf(session) {
  const ev = session.run?.event;
  return ev ? ev.text || '' : t('Step 0: nothing searched yet.');
}
