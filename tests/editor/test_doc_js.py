"""The editor's pure document code (static/js/editor/editor-doc.js and
editor-convert.js), run in the real browser on hand-made documents."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

RUN = """async (name) => {
  const D = await import('/static/js/editor/editor-doc.js');
  const C = await import('/static/js/editor/editor-convert.js');
  const chance = () => ({ title: 't', root: { key: 'r', type: 'chance', children: [
    { key: 'a', probability: '1/2', value: 1 }, { key: 'b', probability: '1/2', value: 2 }] } });
  const probs = (doc) => doc.root.children.map((c) => c.probability);
  const cases = {
    // Equal shares stay equal when a child comes or goes; others are scaled back to 1.
    addToChance: () => probs(D.addChild(chance(), 'r').doc),
    removeFromChance: () => probs(D.remove(D.addChild(chance(), 'r').doc, 'a').doc),
    unequal: () => {
      const doc = D.addSibling(chance(), 'b').doc;         // a new child gets 0: 1/2 1/2 0
      const [a, b, c] = doc.root.children;
      a.probability = 0.5; b.probability = 0.25; c.probability = 0.25;
      return [probs(D.addSibling(doc, 'a').doc), probs(D.remove(doc, 'a').doc)];
    },
    // A leaf made MAX gets two children; made a leaf again, its subtree goes.
    kinds: () => {
      const doc = { title: 't', root: { key: 'r', value: 3 } };
      const max = D.setKind(doc, 'r', 'MIN', 0).doc;
      const back = D.setKind(max, 'r', 'leaf', 0).doc;
      return [max.root.player, max.root.children.length, back.root.value, 'children' in back.root];
    },
    // Three players: values become vectors; two again: their first numbers.
    players: () => {
      const doc = { title: 't', root: { key: 'r', children: [{ key: 'a', value: 4 }] } };
      const three = D.setPlayers(doc, ['A', 'B', 'C'], 'r').doc;
      const two = D.setPlayers(three, ['MAX', 'MIN'], 'r').doc;
      return [three.root.children[0].value, two.root.children[0].value, 'players' in two];
    },
    // The input is never changed (undo keeps it).
    pure: () => {
      const doc = chance();
      const before = JSON.stringify(doc);
      D.addChild(doc, 'a'); D.remove(doc, 'a'); D.setField(doc, 'a', 'value', '9'); D.move(doc, 'a', 1);
      return JSON.stringify(doc) === before;
    },
    readers: () => [D.readValue('3'), D.readValue('[1, 2, 6]'), D.readValue('1 2 6'), D.readValue('x'),
      D.readProbability(' 1 / 3 '), D.readProbability('0.25'), D.readProbability('half')],
    // The notation says nothing of labels, evals and chance: kept from the node of the same id.
    merge: () => {
      const doc = { title: 't', root: { key: 'r', label: 'Root', eval: 5, children: [
        { key: 'x', type: 'chance', children: [
          { key: 'a', probability: '1/2', value: 1 }, { key: 'b', probability: '1/2', value: 2 }] },
        { key: 'y', value: 7 }] } };
      const ids = { r: 'A', x: 'B', a: 'b1', b: 'b2', y: 'a2' };
      const parsed = { title: 'Typed tree', root: { id: 'A', children: [
        { id: 'B', children: [{ id: 'b1', value: 1 }, { id: 'b2', value: 3 }] }, { id: 'a2', value: 8 }] } };
      const { doc: m } = C.mergeText(doc, ids, parsed, { notation: true, text: '((1 3) 8)' });
      return [m.title, m.root.key, m.root.label, m.root.eval, 'id' in m.root, m.root.children[0].type,
        m.root.children[0].children.map((c) => c.probability), m.root.children[0].children.map((c) => c.key),
        m.root.children[1].value];
    },
  };
  return cases[name]();
}"""


EXPECTED = {
    "addToChance": ["1/3", "1/3", "1/3"],
    "removeFromChance": ["1/2", "1/2"],
    "unequal": [[0.5, 0, 0.25, 0.25], [0.5, 0.5]],
    "kinds": ["MIN", 2, 0, False],
    "players": [[4, 0, 0], 4, False],
    "pure": True,
    "readers": [3, [1, 2, 6], [1, 2, 6], "x", "1/3", 0.25, "half"],
    "merge": ["t", "r", "Root", 5, False, "chance", ["1/2", "1/2"], ["a", "b"], 8],
}


def test_document_edits(page):
    page.goto("/edit")
    page.wait_for_selector("#editor[data-revision]")
    got = {name: page.evaluate(RUN, name) for name in EXPECTED}
    assert got == EXPECTED
