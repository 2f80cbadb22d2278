// The class's words that come from the server, said in the page's language:
// the server sends catalogue message ids with their fields, never English
// sentences (app/classes/questions.py), so every phone reads its own language.

import { t } from '../core/i18n.js';

/** The question's prompt in the page's language: the server sends a
 *  catalogue message id with its fields (app/classes/questions.py), never
 *  an English sentence. */
export const promptOf = (q) => (q.say ? t(q.say.msgid, q.say.fields) : q.prompt);

/** An answer's label as the server keeps it, said in the page's language
 *  (the one word in a label is "none": no child pruned). */
/** [mcts] The formula line of a UCB1 question (C, N and the scale), in the page's language. */
export const givensOf = (q) => (q.givens?.say ? t(q.givens.say.msgid, q.givens.say.fields) : '');

export const sayLabel = (label) => (label === 'none' ? t('none') : label);

// The server's question prompts, here so that the page's catalogue holds
// them (the extractor finds t() calls; this function is never called).
// eslint-disable-next-line no-unused-vars
function serverSays() {
  return [t('What value does {x} return?'), t('Which children of {x} are pruned? Tap them, or “none”.'),
    t('What are α and β at {x} now?'), t('What are α and β at {x} when the search enters it?'),
    t('Which move does the root {x} choose?'), t('Which node does the search visit next?'),
    t('Which child of {x} does UCB1 select next?'),
    t("UCB1 = exploit + {c} × √(ln {n} / n); exploit: the mean for MAX on {player}'s scale from {worst} to {best}.")];
}
