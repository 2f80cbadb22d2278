// The tree for screen readers and keyboards: the WAI-ARIA tree pattern
// (ul[role=tree] > li[role=treeitem] > ul[role=group] > ...), kept in step
// with the drawing by the same calls the drawing gets (setNodes, setActive,
// setPath) from the one model (model.js). Each item's name says what a
// sighted reader sees at the node: its kind (MAX, MIN, chance, leaf), label,
// value, α and β, status (not visited, active, visited, evaluated, pruned,
// on the best line) and, for a pruned node, the sentence of the cut that
// pruned it.
//
// Keys (focus on an item; one tab stop, roving tabindex): ↓/↑ next/previous
// item shown, → opens a node or goes to its first child, ← closes it or goes
// to its parent, Home/End first/last item, * opens every sibling. The item
// in focus is ringed in the drawing (`onFocus`), so sighted keyboard users
// see where they are.
//
// Items are made lazily (a node's children when it is opened), so a tree of
// a million nodes costs only what is opened.
//
// Every page with a tree has one (visualizer, practice, class, editor); a
// page says what it knows at a node through `say` (practice: the student's
// answer and its verdict; editor: eval, probability, a refused edit), built
// from the same parts (`kindOf`, `nameOf`, `describe`). A game's node is named
// by its position in words ("X in the centre"), from the server (tree.js
// `spokenLabel`), not by its board's nine cells.
//
// Per-node test hooks (contract §4): with `hooks: true` each item also
// carries data-node, data-status, data-value, data-alpha and data-beta,
// written from the same fields as its name. Use it when the drawing itself
// cannot carry them (a canvas renderer for huge trees): the hooks then live
// here. In hooks mode every node a step touches gets its item (its
// ancestors are opened for it), so the hooks of every node reached exist.
// Without `hooks` the SVG drawing carries them and items say data-a11y-node
// instead (two elements with data-node would make the hooks ambiguous).

import { hook, show } from '../core/model.js';
import { t } from '../core/i18n.js';
import { spokenLabel } from '../core/tree.js';

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/** Text for an attribute value in HTML. */
const esc = (text) => String(text).replace(/[&<>"]/g, (c) => ESCAPES[c]);

const STATUS = {
  unvisited: () => t('not visited yet'),
  active: () => t('active: the search is here'),
  visited: () => t('visited'),
  evaluated: () => t('evaluated'),
  pruned: () => t('pruned'),
};

/** What kind of node `n` is, in words ("MAX node", "leaf", ...). */
export function kindOf(n) {
  switch (n.role) {
    case 'max': return t('MAX node');
    case 'min': return t('MIN node');
    case 'chance': return t('chance node');
    case 'leaf': return t('leaf');
    default: return t('{player} node', { player: n.player });
  }
}

/**
 * "MAX node A", or for a game's position "MIN node, X in the centre" (the
 * board in words, `tree.positions`), as every item begins.
 */
export function nameOf(tree, n) {
  const said = tree ? spokenLabel(tree, n) : n.label;
  return said === n.label ? `${kindOf(n)} ${n.label}` : `${kindOf(n)}, ${said}`;
}

/** The parts said as one sentence: "A, b, c." */
export function sentence(parts) {
  return parts.filter((p) => p != null && p !== '').join(', ') + '.';
}

/**
 * The sentence an item announces for node `n` with fields `f` (model.read):
 * "MIN node C, value 2, α = 3, β = 2, visited." `onPath`: on the best line;
 * `why`: the sentence of the cut that pruned it; `tree`: names a game's
 * position in words; `bounds: false` keeps α and β unsaid (a class question
 * asks for them).
 */
export function describe(n, f, { onPath = false, why = null, tree = null, bounds = true } = {}) {
  const parts = [nameOf(tree, n)];
  const value = f.value ?? (n.role === 'leaf' ? n.value : null);
  if (value != null) parts.push(t('value {v}', { v: show(value) }));
  if (bounds && (f.alpha != null || f.beta != null)) {
    parts.push(t('α = {alpha}, β = {beta}', { alpha: show(f.alpha), beta: show(f.beta) }));
  } else if (!bounds) {
    parts.push(t('α and β hidden: the question asks for them'));
  }
  if (f.visits != null) {   // [mcts] the search tree's statistics
    parts.push(t('visits: {n}, mean for MAX: {mean}', { n: f.visits, mean: show(f.mean) }));
  }
  parts.push((STATUS[f.status] || (() => f.status))());
  if (onPath) parts.push(t('on the best line'));
  if (n.folded) {
    parts.push(n.size != null ? t('folded: {n} positions not drawn yet, Enter opens them', { n: n.size })
      : t('folded: not drawn yet, Enter opens it'));
  }
  let text = parts.join(', ') + '.';
  if (f.status === 'pruned' && why) text += ' ' + t('Why: {reason}', { reason: why });
  return text;
}

/**
 * makeA11yTree(list, tree, {fields, why, say, hooks, openUpTo, onFocus, onOpen}) ->
 * {setNodes, setActive, setPath, setSelected, refresh, rebuild, focus, follow, item}.
 * `fields(id)`: the node's fields now (model.read of the run's view);
 * `why(id)`: the sentence that pruned it, or null; `say(n, f, {onPath, why,
 * tree})`: the item's sentence, for a page that knows more (default
 * `describe`); `openUpTo`: trees up to this many nodes start fully open;
 * `onFocus(id | null)`: the item in focus; `onOpen(id)`: Enter on a folded
 * node (a game's subtree not fetched yet); `onActivate(id)`: Enter on any
 * other node (practice: write its answer; editor: edit it).
 */
export function makeA11yTree(list, initialTree, options = {}) {
  let tree = initialTree;
  const { fields, why = () => null, say = describe, openUpTo = 200, onFocus, onOpen, onActivate } = options;
  let hooks = !!options.hooks;
  const items = new Map();       // id -> li (made so far)
  let path = new Set();
  let focusId = tree.root.id;
  let selected = null;       // the editor's selected node (aria-selected)
  let fresh = null;          // ids of the items made during setNodes
  const later = new Set();   // ids whose hook items are made in idle time
  let draining = false;

  list.setAttribute('role', 'tree');
  list.classList.toggle('hooks', hooks);
  build(null);

  /** Make the items from the tree (again: a game's tree grows in place). */
  function build(wasOpen) {
    items.clear();
    later.clear();
    list.replaceChildren(make(tree.root));
    if (wasOpen) {
      for (const n of tree.nodes) if (n.children.length && wasOpen.has(n.id)) open(n);
    } else if (tree.nodes.length <= openUpTo) {
      for (const n of tree.nodes) if (n.children.length) open(n);
    } else {
      open(tree.root);
    }
    const keep = items.get(focusId) || ensure(focusId) || items.get(tree.root.id);
    focusId = keep.node.id;
    keep.tabIndex = 0;
  }

  function make(n) {
    const li = document.createElement('li');
    li.setAttribute('role', 'treeitem');
    li.setAttribute(hooks ? 'data-node' : 'data-a11y-node', n.id);
    li.tabIndex = -1;
    li.node = n;
    if (n.children.length) li.setAttribute('aria-expanded', 'false');
    if (selected != null) li.setAttribute('aria-selected', String(n.id === selected));
    items.set(n.id, li);
    write(li);
    return li;
  }

  /** Write the item's name (and hooks) from the node's fields now. */
  function write(li, f = fields(li.node.id)) {
    const n = li.node;
    const name = say(n, f, { onPath: path.has(n.id), why: f.status === 'pruned' ? why(n.id) : null, tree });
    if (li.getAttribute('aria-label') !== name) li.setAttribute('aria-label', name);
    li.classList.toggle('pruned', f.status === 'pruned');
    li.classList.toggle('pv', path.has(n.id));
    if (hooks) {
      const attrs = { 'data-status': f.status, 'data-value': hook(f.value), 'data-alpha': hook(f.alpha), 'data-beta': hook(f.beta) };
      for (const k in attrs) if (li.getAttribute(k) !== attrs[k]) li.setAttribute(k, attrs[k]);
    }
  }

  /**
   * The items of `nodes` as HTML, written as make() and write() write them:
   * the parser makes a group's items several times faster than an element and
   * ten attribute calls each (the End of a big run makes tens of thousands).
   * Null where the parser would change a character (a carriage return, NUL).
   */
  function itemsHtml(nodes) {
    let html = '';
    const mark = hooks ? 'data-node' : 'data-a11y-node';
    for (const n of nodes) {
      const f = fields(n.id);
      const onPath = path.has(n.id);
      const name = say(n, f, { onPath, why: f.status === 'pruned' ? why(n.id) : null, tree });
      html += `<li role="treeitem" ${mark}="${esc(n.id)}" tabindex="-1"`;
      if (n.children.length) html += ' aria-expanded="false"';
      if (selected != null) html += ` aria-selected="${n.id === selected}"`;
      html += ` aria-label="${esc(name)}"`;
      const pruned = f.status === 'pruned';
      if (pruned || onPath) html += ` class="${pruned && onPath ? 'pruned pv' : pruned ? 'pruned' : 'pv'}"`;
      if (hooks) {
        html += ` data-status="${esc(f.status)}" data-value="${esc(hook(f.value))}"`
          + ` data-alpha="${esc(hook(f.alpha))}" data-beta="${esc(hook(f.beta))}"`;
      }
      html += '></li>';
    }
    return /[\r\0]/.test(html) ? null : html;
  }

  function open(n) {
    const li = items.get(n.id);
    if (!li || !n.children.length || li.getAttribute('aria-expanded') === 'true') return;
    const group = document.createElement('ul');
    group.setAttribute('role', 'group');
    const html = itemsHtml(n.children);
    if (html === null) {
      for (const c of n.children) {
        group.appendChild(make(c));
        fresh?.add(c.id);
      }
    } else {
      group.innerHTML = html;
      let item = group.firstElementChild;
      for (const c of n.children) {
        item.node = c;
        items.set(c.id, item);
        fresh?.add(c.id);
        item = item.nextElementSibling;
      }
    }
    li.appendChild(group);
    li.setAttribute('aria-expanded', 'true');
  }

  function close(n) {
    const li = items.get(n.id);
    if (!li || li.getAttribute('aria-expanded') !== 'true') return;
    if (hooks) return;   // in hooks mode items stay: tests read their hooks
    const inside = li.querySelector(':scope > [role=group]');
    for (const e of inside.querySelectorAll('[role=treeitem]')) items.delete(e.node.id);
    inside.remove();
    li.setAttribute('aria-expanded', 'false');
    if (!items.has(focusId)) moveFocus(n.id, false);
  }

  /** Make the item of node `id`, opening its ancestors. */
  function ensure(id) {
    if (items.has(id)) return items.get(id);
    const n = tree.byId.get(id);
    if (!n) return null;
    const line = [];
    for (let p = n.parent; p && !items.has(p.id); p = p.parent) line.push(p);
    const top = line.length ? line[line.length - 1].parent : n.parent;
    if (top) open(top);
    for (let i = line.length - 1; i >= 0; i--) open(line[i]);
    return items.get(id) || null;
  }

  // Hooks made later: a call that would make many items (the End of a big
  // run) makes them in idle time instead, in slices, so the end is drawn
  // first. While any wait, the list says aria-busy="true"; once it is gone
  // every node the steps touched has its item (contract §4).
  const idle = window.requestIdleCallback
    ? (f) => requestIdleCallback(f) : (f) => setTimeout(f, 0);   // truly idle: not between the end's drawing slices

  function defer(ids) {
    for (const id of ids) later.add(id);
    list.setAttribute('aria-busy', 'true');
    if (!draining) { draining = true; idle(drain); }
  }

  function drain() {
    const t0 = performance.now();
    for (const id of later) {
      later.delete(id);
      if (hooks) ensure(id);   // made from the view now (`fields`)
      if (performance.now() - t0 > 12) { idle(drain); return; }
    }
    draining = false;
    list.removeAttribute('aria-busy');
  }

  /** The nodes a step changed: rewrite the items made (hooks: make them). */
  function setNodes(ids, fieldsOf) {
    if (hooks) {
      ids = [...ids];   // (any iterable)
      const unmade = ids.filter((id) => !items.has(id));
      if (unmade.length > 64) {
        defer(unmade);
        ids = ids.filter((id) => items.has(id));
      }
    }
    // Items made during this call (a node's siblings come with it) are
    // written already, from the same view: read, not written again.
    fresh = new Set();
    try {
      for (const id of ids) {
        const made = hooks && !items.has(id);
        const li = hooks ? ensure(id) : items.get(id);
        if (!li) continue;
        if (made || fresh.has(id)) fieldsOf(id);   // (the reader notes the active node)
        else write(li, fieldsOf(id));
      }
    } finally {
      fresh = null;
    }
  }

  function setActive(id) {
    if (hooks && id != null) ensure(id);
  }

  /** The best line (principal variation) once the search is over, or none. */
  function setPath(ids) {
    const next = new Set(ids || []);
    const changed = [...path, ...next].filter((id) => path.has(id) !== next.has(id));
    path = next;
    for (const id of changed) {
      const li = items.get(id);
      if (li) write(li);
    }
  }

  /** Rewrite every item made (the run or the language changed). */
  function refresh() {
    for (const li of items.values()) write(li);
  }

  // -- the keyboard -----------------------------------------------------------
  const shown = () => [...list.querySelectorAll('[role=treeitem]')];

  function moveFocus(id, focus = true) {
    const li = items.get(id) || ensure(id);
    if (!li) return;
    const old = items.get(focusId);
    if (old && old !== li) old.tabIndex = -1;
    li.tabIndex = 0;
    focusId = id;
    if (focus) li.focus();
  }

  list.addEventListener('keydown', (e) => {
    const li = e.target.closest('[role=treeitem]');
    if (!li || e.ctrlKey || e.metaKey || e.altKey) return;
    const n = li.node;
    const expanded = li.getAttribute('aria-expanded') === 'true';
    let to = null;
    switch (e.key) {
      case 'ArrowDown': case 'ArrowUp': {
        const all = shown();
        const i = all.indexOf(li) + (e.key === 'ArrowDown' ? 1 : -1);
        if (all[i]) to = all[i].node.id;
        break;
      }
      case 'ArrowRight':
        if (n.children.length && !expanded) open(n);
        else if (n.children.length) to = n.children[0].id;
        break;
      case 'ArrowLeft':
        if (expanded) close(n);
        else if (n.parent) to = n.parent.id;
        break;
      case 'Home': to = tree.root.id; break;
      case 'End': { const all = shown(); to = all[all.length - 1].node.id; break; }
      case '*': for (const s of n.parent ? n.parent.children : [n]) open(s); break;
      case 'Enter':
        if (n.folded) onOpen?.(n.id);
        else onActivate?.(n.id);
        break;
      case ' ': break;   // nothing to press here
      default: return;
    }
    // Handled here: not also a page shortcut (the editor's arrows, the player's Space).
    e.preventDefault();
    e.stopPropagation();
    if (to != null) moveFocus(to);
  });
  list.addEventListener('focusin', (e) => {
    const li = e.target.closest('[role=treeitem]');
    if (li) {
      if (li.node.id !== focusId) moveFocus(li.node.id, false);
      onFocus?.(li.node.id);
    }
  });
  list.addEventListener('focusout', (e) => {
    if (!list.contains(e.relatedTarget)) onFocus?.(null);
  });
  list.addEventListener('click', (e) => {
    const li = e.target.closest('[role=treeitem]');
    if (li) moveFocus(li.node.id);
  });

  /**
   * The tree changed shape (a game's fold `opened` was opened), or is a new
   * tree `next` (the editor after an edit, move ordering's new order): make
   * the items again, keeping what was open and the item in focus by id.
   */
  function rebuild(opened = null, next = null) {
    const wasOpen = new Set([...items.values()]
      .filter((li) => li.getAttribute('aria-expanded') === 'true').map((li) => li.node.id));
    if (opened != null) wasOpen.add(opened);
    const hadFocus = list.contains(document.activeElement);
    if (next) {
      tree = next;
      if (!tree.byId.has(focusId)) focusId = tree.root.id;
      for (const n of tree.nodes) if (n.children.length && !wasOpen.has(n.id) && tree.nodes.length <= openUpTo) wasOpen.add(n.id);
    }
    build(wasOpen);
    if (hadFocus) items.get(focusId)?.focus();
  }

  /** The selected node (the editor's), said by aria-selected on its item. */
  function setSelected(id) {
    selected = id;
    for (const li of items.values()) li.setAttribute('aria-selected', String(li.node.id === id));
  }

  /** Carry the hooks here or not (the drawing changed painter): the items are made again. */
  function setHooks(on) {
    if (!!on === hooks) return;
    hooks = !!on;
    list.classList.toggle('hooks', hooks);
    rebuild();
  }

  return {
    setNodes, setActive, setPath, setSelected, refresh, rebuild, setHooks,
    get hooks() { return hooks; },
    /** Move keyboard focus to node `id` (opening its ancestors). */
    focus: (id) => moveFocus(id),
    /** Make node `id` the tree's tab stop without moving focus (a click in the drawing). */
    follow: (id) => { if (tree.byId.has(id)) moveFocus(id, false); },
    /** The item of node `id`, if made. */
    item: (id) => items.get(id) || null,
  };
}

/**
 * why(id): the sentence of the cut that pruned node `id` at the current
 * step (the cut that skipped it or its topmost pruned ancestor). The prune
 * events are indexed once as they are fetched, not searched per node.
 */
export function pruneReasons(tree, getRun) {
  let indexed = null, upTo = 0, steps = new Map();   // skipped id -> [event index]
  return (id) => {
    const run = getRun();
    if (!run) return null;
    if (run !== indexed) { indexed = run; upTo = 0; steps = new Map(); }
    for (upTo = Math.max(upTo, run.low ?? 0); upTo < run.fetched; upTo++) {
      const ev = run.events[upTo];
      if (ev.type !== 'prune') continue;
      for (const s of ev.skipped || []) {
        if (!steps.has(s)) steps.set(s, []);
        steps.get(s).push(upTo);
      }
    }
    // Walk up to the child the cut skipped, then take its latest cut so far.
    let n = tree.byId.get(id);
    while (n && !steps.has(n.id)) n = n.parent;
    const list = n ? steps.get(n.id) : null;
    if (!list) return null;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i] < run.step) return run.events[list[i]]?.text ?? null;   // null: let go (model.js keep)
    }
    return null;
  };
}

/**
 * The narration for screen readers: one polite live region that speaks
 * each step once, a moment after the last move (holding → speaks only
 * where it stops), says "playing" once when a play starts and is quiet
 * while it runs, then speaks the step where it paused.
 */
export function makeAnnouncer(el, { delay = 250 } = {}) {
  let timer = 0, last = null, wasPlaying = false;
  function speak(text) {
    clearTimeout(timer);
    timer = setTimeout(() => {
      // The same text twice is spoken again only if the region changes.
      if (el.textContent === text) el.textContent = '';
      requestAnimationFrame(() => { el.textContent = text; });
    }, delay);
  }
  return {
    say: speak,
    /** The step's sentence `text`, while `playing` or not. */
    step(text, playing) {
      if (playing) {
        if (!wasPlaying) speak(t('Playing. Press Space to pause.'));
        wasPlaying = true;
        return;
      }
      wasPlaying = false;
      if (text !== last) { last = text; speak(text); }
    },
  };
}
