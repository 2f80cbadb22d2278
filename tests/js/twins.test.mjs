// The page's DOM-free twins against the Python core, under Node's own test
// runner (no browser, no npm): narrate.js makes from the compact records the
// very events app.search.run yields; localsearch.js answers the editor's
// what-if run as the server does. tests/js/test_twins_agree_with_the_core.py writes
// the cases (its fixture) from the Python core and runs this file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './fixture.mjs';

const data = fixture();
// What the page's modules read from the browser: its language, the records
// of the algorithms (GET /api/algorithms) and the catalogue (/i18n/<lang>.json).
globalThis.document = { documentElement: { lang: data.lang } };
globalThis.ALGORITHMS_DOC = data.algorithms;
globalThis.fetch = async () => ({ ok: true, json: async () => data.catalogue });

const { makeNarrator } = await import('../../static/js/core/narrate.js');
const { readTree } = await import('../../static/js/core/tree.js');
const { localRun } = await import('../../static/js/core/localsearch.js');

for (const c of data.narrate) {
  test(`narrate.js: ${c.name}`, () => {
    const narrator = makeNarrator(c.tree ? readTree(c.tree) : null);
    const out = [];
    // In pulls of a few records, as the stream brings them.
    for (let i = 0; i < c.records.length; i += 7) out.push(...narrator.feed(c.records.slice(i, i + 7)));
    assert.equal(out.length, c.events.length, 'number of events');
    for (let k = 0; k < out.length; k++) assert.deepEqual(out[k], c.events[k], `event ${k + 1}`);
  });
}

for (const c of data.local) {
  test(`localsearch.js: ${c.name}`, (t) => {
    const mine = localRun(c.doc, c.options, { accepted: c.doc });
    if (!mine) return t.skip('left to the server');   // (a tree the page is unsure of)
    const { text: _t, ...theirs } = c.answer.result;
    const { text: _m, ...got } = mine.result;
    assert.deepEqual(JSON.parse(JSON.stringify(got)), theirs);
    assert.deepEqual(mine.ids, c.answer.ids);
    assert.deepEqual(mine.algorithms, c.answer.algorithms);
  });
}
