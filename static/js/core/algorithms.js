// Every algorithm's record, as the core keeps it (app/search/descriptors.py,
// served as GET /api/algorithms in the page's language): its names, the
// players and node kinds it takes, whether it keeps alpha and beta, its
// options. Pages, practice, classes and the editor read these instead of
// spelling out lists of algorithms; a new algorithm needs no change here.
// DOM-free: tests under Node give the document as globalThis.ALGORITHMS_DOC.
//
//   import { ALGORITHMS, algorithm, nameOf } from './algorithms.js';
//   algorithm('alphabeta').bounds   // true

const lang = globalThis.document?.documentElement?.lang || 'en';
// Every page carries them (base.html's <meta name="algorithms">): no request, no wait.
const embedded = globalThis.document?.querySelector?.('meta[name=algorithms]')?.content;
const doc = globalThis.ALGORITHMS_DOC ?? (embedded ? JSON.parse(embedded) : await load());

async function load() {
  try {
    const res = await fetch(`/api/algorithms?lang=${encodeURIComponent(lang)}`);
    if (res.ok) return await res.json();
  } catch { /* offline: no records; the server still refuses what does not fit */ }
  return { algorithms: [] };
}

/** The narration's sentences, kind -> message id (app/search/sentences.py: written
 * once; narrate.js says them through the page's catalogue, i18n.js's t()). */
export const SENTENCES = Object.freeze({ ...(doc.sentences ?? {}) });
/** The records, in the order menus list them. */
export const RECORDS = doc.algorithms;
/** Their ids, in that order. */
export const ALGORITHMS = RECORDS.map((a) => a.id);
const BY_ID = new Map(RECORDS.map((a) => [a.id, a]));

/** The record of `id` (undefined if unknown). */
export const algorithm = (id) => BY_ID.get(id);
/** Its menu name in the page's language (the id itself if unknown). */
export const nameOf = (id) => BY_ID.get(id)?.name ?? id;
/** Its name inside a sentence ("alpha-beta"). */
export const shortName = (id) => BY_ID.get(id)?.short ?? id;
/** Does it keep alpha and beta (and prune)? */
export const keepsBounds = (id) => Boolean(BY_ID.get(id)?.bounds);
/** Tree.default_algorithm (app/search/descriptors.py default_for): by the tree's shape. */
export function defaultFor(multiplayer, chance) {
  // (players decide first: a 3-player tree with chance nodes is max^n's)
  const fit = multiplayer ? RECORDS.filter((a) => a.players === 'vectors')
    : RECORDS.filter((a) => a.players === 'two' && (a.chance === 'accepts') === Boolean(chance)
      && !a.leaf_bounds && a.one_search);
  return (fit.find((a) => a.bounds) ?? fit[0])?.id ?? null;
}
/** Does it read run option `name` (its record's `options`: 'iterations' for Monte Carlo tree search)? */
export const takes = (id, name) => (BY_ID.get(id)?.options ?? []).includes(name);
/** Is its seed its own (read without an order to shuffle: Monte Carlo tree search's playouts)? */
export const ownSeed = (id) => takes(id, 'seed') && !takes(id, 'order');
/** Its run comes as compact records the page narrates (narrate.js); false: as narrated JSON events. */
export const compact = (id) => BY_ID.get(id)?.compact !== false;
/** The visualizer's panel that shows its run ("" where the stack and counts do). */
export const panelOf = (id) => BY_ID.get(id)?.panel ?? '';
/** Does it search again from the root, round after round (iterative deepening)? */
export const repeats = (id) => Boolean(BY_ID.get(id)?.repeats);
/** The question kinds a class asks of its runs (app/classes/questions.py; the server refuses others). */
export const questionsOf = (id) => BY_ID.get(id)?.questions ?? [];
/** Does its record offer transport control `name` (e.g. 'next-cut': none where nothing is cut)? */
export const offers = (id, name) => (BY_ID.get(id)?.controls ?? []).includes(name);
