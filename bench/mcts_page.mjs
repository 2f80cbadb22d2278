// The page's side of bench/mcts.py: static/js/core/narrate.js (with
// narrate-mcts.js) makes the events of a run's compact records, as the page
// does with each pull, under Node (V8, as Chromium; no DOM, no drawing).
// Reads the fixture bench/mcts.py writes (FIXTURE: records of each game, the
// algorithms' document, the catalogue); prints {game: [ms of each round]}.
import { readFileSync } from 'node:fs';

const data = JSON.parse(readFileSync(process.env.FIXTURE, 'utf8'));
globalThis.document = { documentElement: { lang: data.lang } };
globalThis.ALGORITHMS_DOC = data.algorithms;
globalThis.fetch = async () => ({ ok: true, json: async () => data.catalogue });
const { makeNarrator } = await import('../static/js/core/narrate.js');

const out = {};
for (const game of Object.keys(data.records)) out[game] = [];
for (let round = 0; round < data.rounds; round++) {   // (rounds interleaved: the games side by side)
  for (const [game, text] of Object.entries(data.records)) {
    const t0 = performance.now();
    const records = JSON.parse(text);            // (the page parses each pull's text)
    const narrator = makeNarrator(null);         // (a lazy game: its nodes come in the records)
    let events = 0;
    for (let i = 0; i < records.length; i += 1000) events += narrator.feed(records.slice(i, i + 1000)).length;
    out[game].push(performance.now() - t0);
    if (!events) throw new Error('no events');
  }
}
console.log(JSON.stringify(out));
