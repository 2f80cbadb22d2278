// "Start a class" on the visualizer: the tree, options and step on screen
// become a live class (POST /api/classes), and this tab becomes its
// projector view. The instructor token goes in the address's fragment,
// which the projector view moves into this browser's storage at once.

import { t, pageFetch } from '../core/i18n.js';

const TEXT = { failed: t('The class could not start: ') };

/** Wire the [data-action=start-class] button; `current()` gives {tree, ...options, step}. */
export function startClassButton(root, current, showError) {
  const button = root.querySelector('[data-action=start-class]');
  if (!button) return;
  button.addEventListener('click', async () => {
    button.disabled = true;
    const c = current();
    const body = { tree: c.tree, algorithm: c.algorithm, depth: c.depth ?? null,
      order: c.order, seed: c.seed ?? null, strict: !!c.strict, style: c.style, step: c.step };
    try {
      const res = await pageFetch('/api/classes', {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
      });
      const out = await res.json().catch(() => ({}));
      if (!res.ok) throw new Error(out.error?.message || `HTTP ${res.status}`);
      try { localStorage.setItem(`class-token:${out.code}`, out.instructor); } catch { /* the fragment carries it */ }
      location.assign(`/c/${out.code}/present#${encodeURIComponent(out.instructor)}`);
    } catch (err) {
      showError(TEXT.failed + err.message);
      button.disabled = false;
    }
  });
}
