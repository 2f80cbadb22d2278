// The projector's join view ([data-join-view]): the code, the QR code, the
// short link and the live count, full screen for a hall (the class starting,
// "Show join", J) or a card in the corner once the instructor steps.

/** The join view: full screen (class starting, "Show join", J), else a card
 *  in the corner. Whether it was shown is kept for the tab, so a reload in
 *  mid-class does not cover the tree again. */
export function makeJoinView(code, { live = false } = {}) {
  const view = document.querySelector('[data-join-view]');
  const link = view.querySelector('.join-link');
  const seen = `class-join-seen:${code}`;
  let shown = false;
  try { shown = !!sessionStorage.getItem(seen); } catch { /* private mode */ }
  function fitLink() {            // the link large and on one line, whatever its length
    link.style.fontSize = '';
    const size = parseFloat(getComputedStyle(link).fontSize);
    for (let f = size; link.scrollWidth > link.clientWidth + 1 && f > 10; f *= 0.92) {
      link.style.fontSize = `${f * 0.92}px`;
    }
  }
  function set(full) {
    view.classList.toggle('full', full);
    document.documentElement.classList.toggle('joining', full);
    if (full) {
      requestAnimationFrame(fitLink);
      view.querySelector('[data-action=hide-join]').focus();   // Enter (or Esc) starts
    } else {
      if (view.contains(document.activeElement)) document.activeElement.blur();
      link.style.fontSize = '';
      try { sessionStorage.setItem(seen, '1'); } catch { /* private mode */ }
    }
  }
  set(!shown && !live && innerWidth > 760);   // not on the instructor's own phone
  new ResizeObserver(() => { if (view.classList.contains('full')) fitLink(); }).observe(view);
  return { show: () => set(true), hide: () => set(false), toggle: () => set(!view.classList.contains('full')),
    get full() { return view.classList.contains('full'); } };
}
