// The editor's keys, for the drawing (not while typing in a box):
// arrows move the selection (Up: parent, Down: first child, Left/Right:
// siblings), Alt+Left/Right move the node among its siblings, A (Insert)
// adds a child, S a sibling, Delete (Backspace) deletes the subtree, C folds
// or unfolds it, Enter (F2) edits its value or eval, Ctrl+Z undoes and
// Ctrl+Shift+Z (Ctrl+Y) redoes.

import * as D from './editor-doc.js';

/**
 * `on`: {select(key), act(name), move(key, index), collapse(key), undo(), redo()}
 * with `state` the page's (its doc, selected and collapsed keys).
 */
export function bindKeys(state, on) {
  document.addEventListener('keydown', (e) => {
    const typing = e.target.closest?.('input, textarea, select, [contenteditable]');
    const mod = e.ctrlKey || e.metaKey;
    if (mod && !typing && (e.key === 'z' || e.key === 'Z')) {
      e.preventDefault();
      if (e.shiftKey) on.redo(); else on.undo();
      return;
    }
    if (mod && !typing && (e.key === 'y' || e.key === 'Y')) { e.preventDefault(); on.redo(); return; }
    if (typing || mod || (e.altKey && !e.key.startsWith('Arrow')) || !state.doc) return;
    const found = D.find(state.doc, state.selected);
    if (!found) return;
    const { node, parent, index } = found;
    const go = (n) => { if (n) { e.preventDefault(); on.select(n.key); } };
    const step = (by) => {
      if (e.altKey && parent) { e.preventDefault(); on.move(node.key, index + by); } else go(parent?.children[index + by]);
    };
    switch (e.key) {
      case 'ArrowUp': go(parent); break;
      case 'ArrowDown':
        if (node.children && state.collapsed.has(node.key)) on.collapse(node.key);
        go(node.children?.[0]);
        break;
      case 'ArrowLeft': step(-1); break;
      case 'ArrowRight': step(1); break;
      case 'a': case 'A': case 'Insert': e.preventDefault(); on.act('add-child'); break;
      case 's': case 'S': e.preventDefault(); on.act('add-sibling'); break;
      case 'Delete': case 'Backspace': e.preventDefault(); on.act('delete'); break;
      case 'c': case 'C': e.preventDefault(); on.collapse(node.key); break;
      case 'Enter': case 'F2': {
        e.preventDefault();
        const input = document.querySelector(node.children ? '[data-edit=eval]' : '[data-edit=value]');
        input.focus();
        input.select();
        break;
      }
      default:
    }
  });
}
