// The editor's draft: the last accepted tree (and its search options) kept
// in this browser's storage under the page's address (/edit, /edit/<id>),
// so that a reload, a closed tab or a crash loses no work. Restored with a
// note and a way to discard it (editor.js). Written a moment after the
// edits stop (and when the page goes), never in an edit's own frame. No DOM here.

const PREFIX = 'editor-draft:';
const MAX_CHARS = 2_000_000;   // a tree past this is not kept (storage holds ~5 MB a site)
const QUIET_MS = 400;          // written once the edits pause this long

/** {keep(doc, options), read() -> {doc, options, at} | null, drop()} for the tree `where`. */
export function makeDraft(where) {
  const key = PREFIX + (where || 'new');
  let waiting = null;           // the draft to write, and its timer
  function write() {
    if (!waiting) return;
    clearTimeout(waiting.timer);
    const text = JSON.stringify({ doc: waiting.doc, options: waiting.options, at: Date.now() });
    waiting = null;
    try {
      if (text.length > MAX_CHARS) { localStorage.removeItem(key); return; }
      try {
        localStorage.setItem(key, text);
      } catch {                 // storage full: other trees' drafts go first, this one is the newest
        for (const k of Object.keys(localStorage)) if (k.startsWith(PREFIX) && k !== key) localStorage.removeItem(k);
        localStorage.setItem(key, text);
      }
    } catch { /* private mode or still full: the page works on, without a draft */ }
  }
  addEventListener('pagehide', write);
  return {
    keep(doc, options) {
      if (waiting) clearTimeout(waiting.timer);
      waiting = { doc, options, timer: setTimeout(write, QUIET_MS) };
    },
    read() {
      try {
        const kept = JSON.parse(localStorage.getItem(key) || 'null');
        return kept && kept.doc && kept.doc.root && typeof kept.doc.root === 'object' ? kept : null;
      } catch { return null; }
    },
    drop() {
      if (waiting) { clearTimeout(waiting.timer); waiting = null; }
      try { localStorage.removeItem(key); } catch { /* nothing kept */ }
    },
  };
}
