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
    // the versioned address the page preloads (base.html), fetched while the modules load
    const preloaded = document.querySelector?.('link[data-catalogue]');
    const res = await fetch(preloaded ? preloaded.href : `/i18n/${encodeURIComponent(code)}.json`);
    return res.ok ? await res.json() : {};
  } catch {
    return {};   // no catalogue: the page still works, in English
  }
}

// Each message split at its {fields} once: filling it is then a few
// concatenations (a big run says 140,000 sentences, an accessible tree
// 66,000 names; a regular expression for each was a tenth of End).
const split = new Map();

/** The message `id` in the page's language, with `{name}` fields filled in. */
export function t(id, fields) {
  let parts = split.get(id);
  if (parts === undefined) {
    const text = Object.prototype.hasOwnProperty.call(catalogue, id) ? catalogue[id] : id;
    parts = text.split(/\{(\w+)\}/);
    split.set(id, parts);
  }
  let out = parts[0];
  if (parts.length === 1) return out;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i];
    out += (fields && name in fields ? String(fields[name]) : `{${name}}`) + parts[i + 1];
  }
  return out;
}

/** A number written the page's way (thousands separated). */
export function num(n) {
  return Number(n).toLocaleString(lang === 'id' ? 'id-ID' : 'en');
}

/**
 * fetch() saying the page's language (the X-Page-Lang header, read by the
 * server's page_language()): its answer is in the language this page was
 * drawn in, even after another tab switched the language cookie. Every page
 * script asks the server through this (or socketOptions).
 */
export function pageFetch(url, init = {}) {
  const headers = new Headers(init.headers);
  headers.set('X-Page-Lang', lang);
  return fetch(url, { ...init, headers });
}

/** A Socket.IO connection's options with the page's language in its handshake (`?lang=`). */
export function socketOptions(options = {}) {
  return { ...options, query: { ...options.query, lang } };
}
