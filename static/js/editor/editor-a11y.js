// The editor's tree for screen readers and keyboards: the shared accessible
// tree (a11ytree.js) made again after each accepted edit. Each node says
// what the editor knows there: its kind and name, its value (a leaf) or eval,
// its probability, the search's result at it (value, α and β, status, best
// line) and the refusal of the last edit if it was refused at this node.
// Focus on an item selects its node, so the editor's own keys (A adds a
// child, Delete, C folds...) act on it; Enter edits its value or eval.

import { makeA11yTree, nameOf, sentence } from '../painters/a11ytree.js';
import { show } from '../core/model.js';
import { t } from '../core/i18n.js';

const NONE = { status: null, value: null, alpha: null, beta: null };
const STATUS = {
  unvisited: () => t('not reached by the search'), visited: () => t('visited'),
  evaluated: () => t('evaluated'), pruned: () => t('pruned'), active: () => t('active: the search is here'),
};

/**
 * makeEditorA11y(list, {onSelect(id), onFocus(id|null), onEdit(node)}) ->
 * {draw(tree, result), select(id), error(id, message)}.
 */
export function makeEditorA11y(list, { onSelect, onFocus, onEdit }) {
  let a11y = null, tree = null, nodes = {}, best = null, refused = null, selected = null;

  const fields = (id) => {
    const r = nodes[id];
    return r ? { status: r[0], value: r[1], alpha: r[2], beta: r[3] } : NONE;
  };

  function say(n, f, c) {
    const parts = [nameOf(c.tree, n)];
    if (!n.children.length) parts.push(t('value {v}', { v: show(n.value) }));
    else if (f.value != null) parts.push(t('backed-up value {v}', { v: show(f.value) }));
    if (n.children.length && n.eval != null) parts.push(t('eval {v}', { v: show(n.eval) }));
    if (n.probability != null) parts.push(t('probability {p}', { p: show(n.probability) }));
    if (f.alpha != null || f.beta != null) {
      parts.push(t('α = {alpha}, β = {beta}', { alpha: show(f.alpha), beta: show(f.beta) }));
    }
    if (f.status) parts.push(STATUS[f.status]?.() ?? f.status);
    if (c.onPath) parts.push(t('on the best line'));
    if (n.id === best) parts.push(t('the best move'));
    let text = sentence(parts);
    if (refused && refused.id === n.id) text += ' ' + t('Refused: {message}', { message: refused.message });
    return text;
  }

  function draw(next, result) {
    tree = next;
    nodes = result?.nodes || {};
    best = result?.best_move ?? null;
    if (!a11y) {
      a11y = makeA11yTree(list, tree, {
        fields, say,
        onFocus: (id) => { onFocus?.(id); if (id != null && id !== selected) onSelect(id); },
        onActivate: (id) => onEdit?.(tree.byId.get(id)),
      });
    } else {
      a11y.rebuild(null, tree);
    }
    a11y.setPath(result?.pv || []);
    a11y.refresh();
  }

  /** The editor's selection: said by aria-selected, and the tree's tab stop follows it. */
  function select(id) {
    selected = id;
    if (!a11y || id == null) return;
    a11y.setSelected(id);
    if (list.contains(document.activeElement)) a11y.focus(id);
    else a11y.follow(id);
  }

  /** The last edit was refused at node `id` (null: no refusal now). */
  function error(id, message) {
    const was = refused?.id;
    refused = id != null ? { id, message } : null;
    if (a11y && (was != null || id != null)) a11y.refresh();
  }

  return { draw, select, error };
}
