// Presentation mode: full screen, large type, the tree filling the stage
// (class `present` on <html>; the look is all in CSS), side panels off until
// asked for. The high-contrast theme (class `contrast`, for bright rooms) is
// a separate switch, remembered by the browser.

export function makePresentation(page, { onChange } = {}) {
  const root = document.documentElement;
  const button = page.querySelector('[data-action=present]');
  const panels = page.querySelector('[data-action=toggle-panels]');
  const contrast = page.querySelector('[data-action=contrast]');
  let panelsBefore = null;   // the panels' state outside presentation mode

  function setPanels(shown) {
    page.classList.toggle('no-panels', !shown);
    panels?.setAttribute('aria-pressed', String(shown));
  }

  function setContrast(on) {
    root.classList.toggle('contrast', on);
    contrast?.setAttribute('aria-pressed', String(on));
    try { localStorage.setItem('contrast', on ? '1' : ''); } catch { /* private mode */ }
    onChange?.(root.classList.contains('present'));
  }
  let saved = '';
  try { saved = localStorage.getItem('contrast') || ''; } catch { /* private mode */ }
  if (saved) setContrast(true);
  // The button and the C key reach toggleContrast through controls.js.

  function set(on) {
    // The stage is the tree's: panels go away in presentation mode and come
    // back as they were when it ends.
    if (on && panelsBefore === null) {
      panelsBefore = !page.classList.contains('no-panels');
      setPanels(false);
    } else if (!on && panelsBefore !== null) {
      setPanels(panelsBefore);
      panelsBefore = null;
    }
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
    setPanels(page.classList.contains('no-panels'));
    onChange?.(root.classList.contains('present'));
  });

  return {
    toggle,
    toggleContrast: () => setContrast(!root.classList.contains('contrast')),
    get on() { return root.classList.contains('present'); },
  };
}
