// The tree's two forms (GET /api/trees/<id> and ?form=flat, its nodes as
// columns) read by static/js/core/tree.js's readTree into the same nodes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, page } from './fixture.mjs';

globalThis.document = { documentElement: { lang: 'en' } };
const { readTree } = await import(page('core/tree.js'));

/** What the page reads of a tree: every node's fields, its parent and children by id. */
function read(json) {
  const t = readTree(json);
  return {
    players: t.players, height: t.height, hasChance: t.hasChance, root: t.root.id,
    nodes: t.nodes.map((n) => ({
      ...n, parent: n.parent?.id ?? null, children: n.children.map((c) => c.id),
    })),
    ids: [...t.byId.keys()],
  };
}

for (const c of fixture().trees) {
  test(`readTree reads ${c.name} alike in both forms`, () => {
    assert.equal(c.flat.form, 'flat');
    assert.equal(c.flat.root, undefined);
    assert.deepEqual(read(c.flat), read(c.nested));
  });
}
