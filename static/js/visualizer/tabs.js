// On a narrow screen the side panels become tabs under the tree: a row of
// tab buttons (one per panel, named by its heading) and one panel shown at a
// time. On a wide screen the row is hidden and every panel shows, as before.

const NARROW = '(max-width: 760px), (max-height: 500px)';

/** makeTabs(panels) -> {narrow}: panels is the <aside> of <section class="panel">s. */
export function makeTabs(panels) {
  const sections = [...panels.querySelectorAll(':scope > section.panel')];
  const list = document.createElement('div');
  list.className = 'tabs';
  list.setAttribute('role', 'tablist');
  list.setAttribute('aria-label', panels.getAttribute('aria-label') || 'Panels');
  const buttons = sections.map((sec, i) => {
    sec.id ||= `panel-${i}`;
    const b = document.createElement('button');
    b.type = 'button';
    b.setAttribute('role', 'tab');
    b.setAttribute('aria-controls', sec.id);
    b.dataset.tab = sec.id;
    b.textContent = sec.querySelector('h2')?.textContent || String(i + 1);
    b.addEventListener('click', () => select(i));
    return b;
  });
  list.append(...buttons);
  panels.prepend(list);
  const media = matchMedia(NARROW);
  let current = 0;

  function select(i) {
    current = i;
    apply();
  }

  function apply() {
    const narrow = media.matches;
    panels.classList.toggle('tabbed', narrow);
    sections.forEach((sec, i) => {
      const shown = !narrow || i === current;
      sec.classList.toggle('tab-hidden', !shown);
      if (narrow) sec.setAttribute('role', 'tabpanel');
      else sec.removeAttribute('role');
      buttons[i].setAttribute('aria-selected', String(narrow && i === current));
      // A panel hidden for its own reason (iterations of another algorithm) has no tab.
      buttons[i].hidden = sec.hidden;
    });
  }
  media.addEventListener('change', apply);
  apply();
  return { refresh: apply, get narrow() { return media.matches; } };
}
