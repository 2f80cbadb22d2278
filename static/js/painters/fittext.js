// Keep a sentence whole in a box of fixed height: when it overflows, step
// its font size down (to `min` of the size the CSS gives); the box itself
// never changes size, so the tree under it is never refitted (and never jumps).

export function fitText(el, { min = 0.7, steps = 6 } = {}) {
  if (el.style.fontSize) el.style.fontSize = '';   // (unchanged: the layout stays clean to read)
  if (el.scrollHeight <= el.clientHeight + 1) return;
  const base = parseFloat(getComputedStyle(el).fontSize);
  for (let i = 1; i <= steps; i++) {
    el.style.fontSize = `${base * (1 - ((1 - min) * i) / steps)}px`;
    if (el.scrollHeight <= el.clientHeight + 1) return;
  }
}

/**
 * afterLayout(el) -> run(fn): `fn` runs once the next frame has laid the page
 * out, before it paints (a ResizeObserver's delivery: observing `el`, which
 * must be rendered with a size, anew reports it then). There reading sizes
 * costs nothing; measured in an animation frame or a key handler, they would
 * force the frame's style and layout early, once more if anything changes
 * after (a step's frame: the narration fitted, the running line revealed).
 * Writes made by `fn` are laid out and painted in the same frame.
 */
export function afterLayout(el) {
  let queued = [];
  const observer = new ResizeObserver(() => {
    const run = queued;
    queued = [];
    for (const fn of run) fn();
  });
  return function run(fn) {
    if (!queued.includes(fn)) queued.push(fn);
    if (queued.length > 1) return;
    observer.unobserve(el);
    observer.observe(el);
  };
}
