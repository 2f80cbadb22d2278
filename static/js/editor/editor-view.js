// The editor's drawing: the shared tree view (treeview.js) redrawn after
// each accepted edit, with what the editor adds on top of it: the selected
// node (aria-selected), dragging a node among its siblings (mouse, pen and
// touch through pointer events), the what-if marks and the error callout
// at the node an edit was refused for. The search's result is shown through
// the view's own setNodes/setPath, as the visualizer shows a step.

import { readTree } from '../core/tree.js';
import { makeTreeView } from '../painters/treeview.js';
import { makeZoom } from '../core/zoom.js';
import { makeEditorA11y } from './editor-a11y.js';

const DRAG_START = 6;   // px the pointer moves before a press becomes a drag
const SLOT = 48;        // content px of the drop bar's height and of its offset past an end

/**
 * makeEditorView(svg, stage, {onSelect(id), onMove(id, index)}) ->
 * {draw(json, result, change, {collapsed, selected}), select(id), showError(id, message),
 *  clearError(), zoom, tree}
 */
export function makeEditorView(svg, stage, handlers) {
  const viewport = svg.querySelector('.viewport');
  const zoom = makeZoom(svg, viewport);
  const callout = stage.querySelector('#node-error');
  let t = null, view = null, selected = null, drag = null;

  let box = null;   // the drawing's bounds, to fit again only when they change
  // The same tree for screen readers and keyboards (editor-a11y.js).
  const list = stage.querySelector('#a11y-tree');
  // The drawing's text is for eyes (read flat it is a string of labels); the list says each node.
  if (list) viewport.setAttribute('aria-hidden', 'true');
  const a11y = list && makeEditorA11y(list, {
    onSelect: handlers.onSelect,
    onFocus: (id) => {
      for (const g of viewport.querySelectorAll('.kbd-focus')) g.classList.remove('kbd-focus');
      view?.nodeEl(id)?.classList.add('kbd-focus');
    },
    onEdit: (n) => {                 // Enter: edit its value (a leaf) or eval, as the editor's Enter does
      const input = document.querySelector(n?.children.length ? '[data-edit=eval]' : '[data-edit=value]');
      input?.focus();
      input?.select();
    },
  });

  // The accessible tree is made again just after the frame that shows an
  // edit, not before it: remaking its items costs as much as updating the
  // drawing (a screen reader hears the edit's sentence, aria-live, at once).
  // `handlers.onBusy(true)` until it is made (the page stays aria-busy).
  let a11yDue = null;
  function drawA11y(tree, result) {
    if (!a11y) return;
    const scheduled = a11yDue != null;
    a11yDue = { tree, result };          // the latest edit's wins
    if (scheduled) return;
    handlers.onBusy?.(true);
    requestAnimationFrame(() => setTimeout(() => {
      const due = a11yDue;
      a11yDue = null;
      try {
        a11y.draw(due.tree, due.result);
        a11y.select(selected);
      } finally {
        handlers.onBusy?.(false);
      }
    }));
  }

  function draw(json, result, change, { collapsed = new Set(), selected: sel = null } = {}) {
    t = readTree(json);
    // The elements of the drawing before are kept where the tree is alike
    // (treeview.js `reuse`): an edit moves some nodes and changes a few.
    if (view) unmark();
    const first = !view;
    view = makeTreeView(viewport, t, { collapsed, absolute: true, reuse: view });
    for (const g of viewport.querySelectorAll('.nodes > [data-node]:not([aria-selected])')) {
      g.setAttribute('aria-selected', 'false');
    }
    const b = view.box;
    if (!box || b.x0 !== box.x0 || b.x1 !== box.x1 || b.y0 !== box.y0 || b.y1 !== box.y1) {
      if (first || !zoom.moved) zoom.fit(b, { maxK: 1.6 });
    }
    box = b;
    if (result) {
      const nodes = result.nodes;
      view.setNodes(Object.keys(nodes).filter((id) => view.nodeEl(id)), (id) => {
        const [status, value, alpha, beta] = nodes[id];
        return { status, value, alpha, beta };
      });
      view.setPath(result.pv);
      const best = result.best_move;
      if (best) view.nodeEl(best)?.classList.add('best-move');
    }
    if (change) mark(change);
    drawA11y(t, result);
    for (const id of collapsed) view.nodeEl(id)?.classList.add('collapsed');
    if (selected != null && selected !== sel) view.nodeEl(selected)?.setAttribute('aria-selected', 'false');
    selected = null;
    select(sel);
    return t;
  }

  /** Take off the marks of the previous edit (an in-place update keeps the elements). */
  function unmark() {
    for (const g of viewport.querySelectorAll('[data-change]')) g.removeAttribute('data-change');
    for (const e of viewport.querySelectorAll('.wi-new-cut, .wi-lost-cut, .wi-new-best')) {
      e.classList.remove('wi-new-cut', 'wi-lost-cut', 'wi-new-best');
    }
    for (const g of viewport.querySelectorAll('.best-move, .collapsed')) g.classList.remove('best-move', 'collapsed');
  }

  function mark(change) {
    const flag = (id, what) => {
      view.nodeEl(id)?.setAttribute('data-change', what);
      viewport.querySelector(`[data-edge="${CSS.escape(id)}"]`)?.classList.add(`wi-${what}`);
    };
    for (const id of change.new_cuts) flag(id, 'new-cut');
    for (const id of change.lost_cuts) flag(id, 'lost-cut');
    if (change.best_move.changed && change.best_move.after) flag(change.best_move.after, 'new-best');
  }

  function select(id) {
    if (selected != null) view?.nodeEl(selected)?.setAttribute('aria-selected', 'false');
    selected = id;
    a11y?.select(id);
    const g = id != null ? view?.nodeEl(id) : null;
    if (!g) return;
    g.setAttribute('aria-selected', 'true');
    const n = t.byId.get(id);
    if (n) zoom.ensureVisible(n.x, n.y);
  }

  // -- the error callout ------------------------------------------------------
  function showError(id, message) {
    clearError();
    const g = id != null ? view?.nodeEl(id) : null;
    callout.textContent = message;
    callout.hidden = false;
    a11y?.error(id, message);
    if (g) {
      g.classList.add('refused');
      callout.dataset.errorNode = id;
      const s = stage.getBoundingClientRect(), r = g.getBoundingClientRect();
      const left = Math.max(4, Math.min(r.left - s.left + r.width / 2 - 20, s.width - 260));
      const below = r.bottom - s.top + 8;
      callout.style.left = `${left}px`;
      callout.style.top = `${below + 80 > s.height ? Math.max(4, r.top - s.top - 70) : below}px`;
      callout.classList.add('at-node');
    } else {
      callout.classList.remove('at-node');
      callout.style.left = callout.style.top = '';
    }
  }

  function clearError() {
    callout.hidden = true;
    callout.textContent = '';
    a11y?.error(null);
    delete callout.dataset.errorNode;
    viewport.querySelector('.refused')?.classList.remove('refused');
  }

  // -- pointing: press selects, a press that moves drags ----------------------
  const nodeOf = (e) => e.target.closest?.('[data-node]');
  viewport.addEventListener('pointerdown', (e) => {
    const g = nodeOf(e);
    if (!g || (e.pointerType === 'mouse' && e.button !== 0)) return;
    e.stopPropagation();          // not a pan (zoom.js listens on the svg)
    drag = { id: g.dataset.node, g, x: e.clientX, y: e.clientY, pointer: e.pointerId, moving: false };
    svg.setPointerCapture(e.pointerId);
  });
  svg.addEventListener('pointermove', (e) => {
    if (!drag || e.pointerId !== drag.pointer) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moving) {
      const n = t.byId.get(drag.id);
      if (Math.hypot(dx, dy) < DRAG_START || !n?.parent) return;
      drag.moving = true;
      drag.g.classList.add('dragging');
      drag.next = drag.g.nextSibling;          // put back on release: drawn on top meanwhile
      drag.g.parentNode.appendChild(drag.g);
      handlers.onSelect(drag.id);
    }
    const k = zoom.get().k;
    drag.g.setAttribute('transform', `translate(${dx / k},${dy / k})`);
    showDrop(t.byId.get(drag.id), toContent(e.clientX, e.clientY).x);
    e.preventDefault();
  });

  /** The place among its siblings a node dropped at content x goes to. */
  function dropIndex(n, x) {
    return n.parent.children.filter((c) => c !== n && c.x < x).length;
  }

  // A bar where the dragged node would land, between its siblings.
  let bar = null;
  function showDrop(n, x) {
    const others = n.parent.children.filter((c) => c !== n);
    const to = dropIndex(n, x);
    const left = others[to - 1], right = others[to];
    const at = left && right ? (left.x + right.x) / 2 : left ? left.x + SLOT / 2 : right.x - SLOT / 2;
    if (!bar || !bar.isConnected) {
      bar = document.createElementNS('http://www.w3.org/2000/svg', 'line');
      bar.setAttribute('class', 'drop-bar');
      viewport.appendChild(bar);
    }
    bar.setAttribute('x1', at); bar.setAttribute('x2', at);
    bar.setAttribute('y1', n.y - SLOT / 2); bar.setAttribute('y2', n.y + SLOT / 2);
  }
  const hideDrop = () => { bar?.remove(); bar = null; };
  const release = (e) => {
    if (!drag || e.pointerId !== drag.pointer) return;
    const d = drag;
    drag = null;
    if (!d.moving) { handlers.onSelect(d.id); return; }
    d.g.classList.remove('dragging');
    d.g.removeAttribute('transform');
    d.g.parentNode?.insertBefore(d.g, d.next);
    hideDrop();
    if (e.type === 'pointercancel') return;
    const n = t.byId.get(d.id);
    // The new place: after every sibling whose centre lies left of the drop.
    const to = dropIndex(n, toContent(e.clientX, e.clientY).x);
    if (to !== n.parent.children.indexOf(n)) handlers.onMove(d.id, to);
  };
  svg.addEventListener('pointerup', release);
  svg.addEventListener('pointercancel', release);

  function toContent(cx, cy) {
    const p = svg.createSVGPoint();
    p.x = cx; p.y = cy;
    return p.matrixTransform(viewport.getScreenCTM().inverse());
  }

  stage.querySelector('[data-action=zoom-in]')?.addEventListener('click', () => zoom.zoomBy(1.25));
  stage.querySelector('[data-action=zoom-out]')?.addEventListener('click', () => zoom.zoomBy(0.8));
  stage.querySelector('[data-action=fit]')?.addEventListener('click', () => view && zoom.fit(view.box, { maxK: 1.6 }));
  new ResizeObserver(() => { if (view && !zoom.moved) zoom.fit(view.box, { maxK: 1.6 }); }).observe(svg);

  return {
    draw, select, showError, clearError, zoom,
    get tree() { return t; },
    nodeEl: (id) => view?.nodeEl(id),
  };
}
