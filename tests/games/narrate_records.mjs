// The page's narrator (static/js/core/narrate.js) under Node, for the game-words
// check (tests/games/test_words.py): reads {catalogue, runs: [[records]]} as
// JSON on stdin and prints, per run, the sentences it makes. The page's
// i18n.js reads the document's language at import: a stub says English, and
// the catalogue comes in `say` instead (as the page's t() would say it). The
// algorithms' document (the sentences' table with it) comes on stdin, as the
// page's <meta name="algorithms"> gives it.
globalThis.document = { documentElement: { lang: 'en' } };
let input = '';
for await (const chunk of process.stdin) input += chunk;
const { catalogue, runs, algorithms } = JSON.parse(input);
globalThis.ALGORITHMS_DOC = algorithms;
const { makeNarrator } = await import(new URL('../../static/js/core/narrate.js', import.meta.url));
const say = (id, fields) => {
  const text = catalogue[id] ?? id;
  return fields ? text.replace(/\{(\w+)\}/g, (m, k) => (k in fields ? String(fields[k]) : m)) : text;
};
const out = runs.map((records) => {
  const narrator = makeNarrator({ byId: new Map(), root: null, nodes: [] }, say);
  return narrator.feed(records).map((ev) => ev.text);
});
process.stdout.write(JSON.stringify(out));
