// The practice page's tree for screen readers and keyboards: the shared
// accessible tree (a11ytree.js) following the drawing, each node saying what
// the practice knows there. The mode may say more (`handler.a11y(n, f)`: the
// answer sheet gives the student's answer and whether it was checked right);
// otherwise the node says its fields as drawn (guided: the search so far).

import { makeA11yTree, describe, nameOf, sentence } from '../painters/a11ytree.js';

const BLANK = { status: 'unvisited', value: null, alpha: null, beta: null };

/**
 * makePracticeA11y(list, ctx, handlerOf) -> {follow(view, tree), refresh()}.
 * `follow` wraps a fresh tree view so that what it is told reaches the
 * accessible tree too; `handlerOf()` is the mode's handler (made later).
 */
export function makePracticeA11y(list, ctx, handlerOf) {
  const shown = new Map();        // id -> the fields last drawn
  let a11y = null, pending = false;

  const fields = (id) => shown.get(id) || BLANK;
  function say(n, f, c) {
    const own = handlerOf()?.a11y?.(n, f);
    return own ? sentence([nameOf(c.tree, n), ...own]) : describe(n, f, c);
  }

  // The item in focus is ringed in the drawing, and brought into view.
  let ringed = null;
  function ring(id) {
    ctx.view?.nodeEl(ringed)?.classList.remove('kbd-focus');
    ringed = id;
    ctx.view?.nodeEl(id)?.classList.add('kbd-focus');
    const n = id != null ? ctx.tree.byId.get(id) : null;
    if (n) ctx.zoom?.ensureVisible(n.x, n.y);
  }

  function refresh() {
    pending = false;
    a11y?.refresh();
  }
  const later = () => { if (!pending) { pending = true; queueMicrotask(refresh); } };

  function follow(view, tree) {
    shown.clear();
    if (!a11y) {
      a11y = makeA11yTree(list, tree, {
        fields, say,
        onActivate: (id) => handlerOf()?.taps?.node?.(id),
        onFocus: ring,
      });
    } else {
      a11y.rebuild(null, tree);     // move ordering redraws the tree in a new order
    }
    return {
      ...view,
      setNode(id, f) { view.setNode(id, f); shown.set(id, f); later(); },
      setNodes(ids, get) { view.setNodes(ids, get); for (const id of ids) shown.set(id, get(id)); later(); },
    };
  }

  return { follow, refresh: later };
}
