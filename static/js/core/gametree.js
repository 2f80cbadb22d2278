// A game searched from its rules (/t/game:...): the server sends the top of
// its tree with the subtrees it left out folded (app.games.lazy, `collapsed`
// nodes with their size). Opening a fold asks again with that node opened,
// and the page's tree is updated in place, so the session, the model and
// the panels keep the same object.

import { fetchTree, readTree } from './tree.js';

/**
 * makeOpener({treeId, tree, onOpened}): open(id) fetches the tree with the
 * node `id` (and those opened before) opened, rewrites `tree`'s nodes in
 * place and calls onOpened(). Errors are thrown to the caller.
 */
export function makeOpener({ treeId, tree, onOpened }) {
  const opened = new Set();
  let busy = null;

  async function open(id) {
    if (busy) await busy;
    opened.add(id);
    busy = fetchTree(treeId, `?open=${encodeURIComponent([...opened].join(','))}`)
      .then((json) => {
        const fresh = readTree(json);
        for (const key of ['root', 'nodes', 'byId', 'height', 'positions', 'moves']) tree[key] = fresh[key];
        onOpened(id);
      })
      .finally(() => { busy = null; });
    return busy;
  }
  return { open, opened };
}
