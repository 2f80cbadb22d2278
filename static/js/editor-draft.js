// The editor's draft: the last accepted tree (and its search options) kept
// in this browser's storage under the page's address (/edit, /edit/<id>),
// so that a reload, a closed tab or a crash loses no work. Restored with a
// note and a way to discard it (editor.js). No DOM here.

const PREFIX = 'editor-draft:';
const MAX_CHARS = 2_000_000;   // a tree past this is not kept (storage holds ~5 MB a site)

/** {keep(doc, options), read() -> {doc, options, at} | null, drop()} for the tree `where`. */
export function makeDraft(where) {
  const key = PREFIX + (where || 'new');
  return {
    keep(doc, options) {
      try {
        const text = JSON.stringify({ doc, options, at: Date.now() });
        if (text.length <= MAX_CHARS) localStorage.setItem(key, text);
        else localStorage.removeItem(key);
      } catch { /* private mode or storage full: the page still works, without a draft */ }
    },
    read() {
      try {
        const kept = JSON.parse(localStorage.getItem(key) || 'null');
        return kept && kept.doc && kept.doc.root && typeof kept.doc.root === 'object' ? kept : null;
      } catch { return null; }
    },
    drop() {
      try { localStorage.removeItem(key); } catch { /* nothing kept */ }
    },
  };
}
