// static/js/core/move-words.js against app/search/states.py move_words and
// narrate_mcts.playout_words (tests/js/test_move_words.py makes the fixture
// from the Python core: random positions and playouts of tic-tac-toe and
// Connect Four, said in each language with the catalogue the page receives).
// Each language imports its own copy of i18n.js (a query in the URL), as
// i18n.test.mjs does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, page } from './fixture.mjs';

const { langs } = fixture();
const { moveWords, playoutWords } = await import(page('core/move-words.js'));

for (const [lang, { catalogue, moves, playouts }] of Object.entries(langs)) {
  globalThis.document = { documentElement: { lang } };
  globalThis.fetch = async () => ({ ok: true, json: async () => catalogue });
  const { t } = await import(`${page('core/i18n.js')}?lang=${lang}`);

  test(`moveWords says every move as states.move_words: ${lang}`, () => {
    for (const [kind, parent, child, said] of moves) {
      assert.equal(moveWords(kind, parent, child, t), said, `${kind} ${parent} -> ${child}`);
    }
  });

  test(`playoutWords says every playout as narrate_mcts.playout_words: ${lang}`, () => {
    for (const [kind, label, names, said] of playouts) {
      assert.deepEqual(playoutWords(kind, label, names, t), said, `${kind} ${label} ${names}`);
    }
  });
}
