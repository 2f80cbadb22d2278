// static/js/core/model.js against app.search.View (tests/js/test_model.py makes
// the fixture: the core's events and the Python view at every step).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, page } from './fixture.mjs';

const m = await import(page('core/model.js'));
const { steps, shown } = fixture();

/** The view as View.snapshot() gives it: {id: {status, value, alpha, beta}}
 * for the nodes that differ from step 0. */
function snap(view) {
  const out = {};
  for (const f of m.FIELDS) for (const [id, x] of view[f]) (out[id] ||= { ...m.EMPTY })[f] = x;
  return out;
}

for (const c of steps) {
  test(`apply, undo, jumps and counts: ${c.label}`, () => {
    const view = m.makeView();
    c.events.forEach((e, k) => {
      m.apply(view, e.changes);
      assert.deepEqual(snap(view), c.forward[k], `forward to step ${k + 1}`);
    });
    for (let k = c.events.length - 1; k >= 0; k--) {
      assert.deepEqual(snap(view), c.forward[k], `back at step ${k + 1}`);
      m.undo(view, c.events[k].changes);
    }
    assert.deepEqual(snap(view), {}, 'back at step 0');

    const run = m.makeRun();
    run.push(c.events);
    for (const k of c.jumps) {
      run.goTo(k);
      assert.equal(run.step, k);
      assert.deepEqual(snap(run.view), k ? c.forward[k - 1] : {}, `jump to step ${k}`);
      assert.deepEqual(snap(m.replay(c.events, k)), k ? c.forward[k - 1] : {}, `replay to step ${k}`);
    }
    run.goTo(c.events.length);
    assert.equal(run.total, c.events.length);
    for (const key of Object.keys(c.stats)) assert.equal(run.counts[key], c.stats[key], key);
  });
}

/** The tree as model.js's view reads it: nodes with parent and children, by id. */
function readShape(root) {
  const byId = new Map();
  const nodes = [];
  const stack = [[root, null]];
  while (stack.length) {
    const [raw, parent] = stack.pop();
    const node = { id: raw.id, parent, children: [] };
    if (parent) parent.children.push(node);
    byId.set(node.id, node);
    nodes.push(node);
    for (let i = raw.children.length - 1; i >= 0; i--) stack.push([raw.children[i], node]);
  }
  return { byId, nodes };
}

for (const c of shown) {
  test(`read and touched below pruned tops: ${c.label}`, () => {
    const tree = readShape(c.tree);
    const run = m.makeRun({ tree });
    run.push(c.events);
    for (let k = 0; k <= c.events.length; k++) {
      const touched = run.goTo(k, new Set());
      const now = Object.fromEntries(tree.nodes.map((n) => [n.id, m.read(run.view, n.id).status]));
      assert.deepEqual(now, c.shown[k], `shown at step ${k}`);
      if (k > 0) {
        for (const id of Object.keys(now)) {
          if (now[id] !== c.shown[k - 1][id]) assert.ok(touched.has(id), `step ${k}: ${id} not redrawn`);
        }
      }
    }
    // Back down to step 0 in one move: every node redrawn that changed.
    const touched = run.goTo(0, new Set());
    const last = c.shown[c.events.length];
    for (const id of Object.keys(last)) {
      if (last[id] !== 'unvisited') assert.ok(touched.has(id), `back to 0: ${id} not redrawn`);
    }
  });
}
