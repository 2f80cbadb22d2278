// static/js/core/tidy.js, the tidy tree over flat arrays, against the very
// library it ports (d3-hierarchy's tree(), vendored): on every tree of the
// fixture, with widths per node as the page's label plans give them, every
// node at exactly d3's x (not merely close: the same arithmetic).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, page } from './fixture.mjs';

const { hierarchy, tree: d3tree } = await import(new URL('../../static/vendor/d3-hierarchy/d3-hierarchy.mjs', import.meta.url).href);
const { tidy } = await import(page('core/tidy.js'));

/** The fixture's nested [left, right, children] into nodes numbered in preorder. */
function build(raw) {
  let index = 0;
  const make = ([left, right, kids]) => {
    const n = { index: index++, left, right, children: [] };
    for (const k of kids) n.children.push(make(k));
    return n;
  };
  return make(raw);
}

for (const c of fixture().trees) {
  test(`tidy.js places ${c.name} as d3-hierarchy does`, () => {
    const root = build(c.tree);
    const below = (n) => (c.cut != null && n.index % c.cut === 1 ? null : n.children);
    // As tree.js spaces them: labels of the left one's right and the right one's left, near or far.
    const theirs = d3tree().nodeSize([1, 96]).separation((a, b) => {
      const [l, r] = a.data.index < b.data.index ? [a.data, b.data] : [b.data, a.data];
      return l.right + r.left + (a.parent === b.parent ? 10 : 22);
    })(hierarchy(root, below));
    const mine = tidy(root, below, (a, b, siblings) => {
      const [l, r] = a.index < b.index ? [a, b] : [b, a];
      return l.right + r.left + (siblings ? 10 : 22);
    });
    const want = new Map();
    theirs.each((h) => want.set(h.data, [h.x, h.depth]));
    assert.equal(mine.nodes.length, want.size);
    assert.equal(mine.nodes[0], root);
    for (let i = 0; i < mine.nodes.length; i++) {
      const [x, depth] = want.get(mine.nodes[i]);
      assert.equal(mine.x[i], x, `node ${mine.nodes[i].index}: x`);
      assert.equal(mine.depth[i], depth, `node ${mine.nodes[i].index}: depth`);
    }
  });
}
