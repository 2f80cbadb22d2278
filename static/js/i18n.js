// The page's words in the page's language, from the same gettext catalogue
// the server uses (translations/<lang>/LC_MESSAGES/messages.po, served as
// /i18n/<lang>.json). English is the message id itself, so an English page
// fetches nothing. Every module that writes a word imports t() from here;
// the top-level await makes them wait until the catalogue has arrived.
//
//   t('Step {n} of {total}', { n: 3, total: 20 })  ->  'Langkah 3 dari 20'
//
// Message ids are found by `pybabel extract` (keyword t), so write them as
// plain string literals.

export const lang = document.documentElement.lang || 'en';
const catalogue = lang === 'en' ? {} : await load(lang);

async function load(code) {
  try {
    const res = await fetch(`/i18n/${encodeURIComponent(code)}.json`);
    return res.ok ? await res.json() : {};
  } catch {
    return {};   // no catalogue: the page still works, in English
  }
}

/** The message `id` in the page's language, with `{name}` fields filled in. */
export function t(id, fields) {
  const text = Object.prototype.hasOwnProperty.call(catalogue, id) ? catalogue[id] : id;
  if (!fields) return text;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in fields ? String(fields[name]) : m));
}

/** A number written the page's way (thousands separated). */
export function num(n) {
  return Number(n).toLocaleString(lang === 'id' ? 'id-ID' : 'en');
}
