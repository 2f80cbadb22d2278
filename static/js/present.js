// Presentation mode: full screen, large type, high contrast (class
// `present` on <html>; the look is all in CSS). Side panels can be hidden.

export function makePresentation(page, { onChange } = {}) {
  const root = document.documentElement;
  const button = page.querySelector('[data-action=present]');
  const panels = page.querySelector('[data-action=toggle-panels]');

  function set(on) {
    root.classList.toggle('present', on);
    button?.setAttribute('aria-pressed', String(on));
    onChange?.(on);
  }

  function toggle() {
    const on = !root.classList.contains('present');
    set(on);
    // Full screen is a bonus: refused (no user gesture, headless) is fine.
    if (on && !document.fullscreenElement) {
      document.documentElement.requestFullscreen?.().catch(() => {});
    } else if (!on && document.fullscreenElement) {
      document.exitFullscreen?.().catch(() => {});
    }
  }

  // Leaving full screen with Esc leaves presentation mode too.
  document.addEventListener('fullscreenchange', () => {
    if (!document.fullscreenElement && root.classList.contains('present')) set(false);
  });

  panels?.addEventListener('click', () => {
    const hidden = page.classList.toggle('no-panels');
    panels.setAttribute('aria-pressed', String(!hidden));
    onChange?.(root.classList.contains('present'));
  });

  return { toggle, get on() { return root.classList.contains('present'); } };
}
