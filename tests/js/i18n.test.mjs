// static/js/core/i18n.js against app.i18n.words (tests/js/test_i18n.py makes the
// fixture: per language, the page's catalogue and each message as the
// server says it). The module reads the page's language and fetches its
// catalogue when first imported, so each language imports its own copy
// (a query in the URL) under a document and fetch of our own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, page } from './fixture.mjs';

const { langs } = fixture();

async function load(lang, catalogue) {
  const fetched = [];
  globalThis.document = { documentElement: { lang } };
  globalThis.fetch = async (url) => {
    fetched.push(url);
    return { ok: true, json: async () => catalogue };
  };
  const mod = await import(`${page('core/i18n.js')}?lang=${lang}`);
  return { mod, fetched };
}

for (const [lang, { catalogue, cases, numbers }] of Object.entries(langs)) {
  test(`t() says every page message as the server does: ${lang}`, async () => {
    const { mod, fetched } = await load(lang, catalogue);
    assert.equal(mod.lang, lang);
    // English is the message id itself: an English page fetches nothing.
    assert.deepEqual(fetched, lang === 'en' ? [] : [`/i18n/${lang}.json`]);
    for (const [id, fields, said] of cases) {
      assert.equal(mod.t(id, fields), said, id);
      assert.equal(mod.t(id, fields), said, `${id} (again, from the split cache)`);
    }
  });

  test(`num() writes numbers as CLDR does: ${lang}`, async () => {
    const { mod } = await load(lang, catalogue);
    for (const [n, written] of numbers) assert.equal(mod.num(n), written, String(n));
  });
}

test('a catalogue that cannot be fetched leaves the page in English', async () => {
  globalThis.document = { documentElement: { lang: 'id' } };
  globalThis.fetch = async () => { throw new Error('offline'); };
  const mod = await import(`${page('core/i18n.js')}?offline`);
  assert.equal(mod.lang, 'id');
  // A message Indonesian says otherwise: the page says it in English.
  const k = langs.en.cases.findIndex(([, , said], i) => said !== langs.id.cases[i][2]);
  const [id, fields, said] = langs.en.cases[k];
  assert.equal(mod.t(id, fields), said);
});
