// Keep a sentence whole in a box of fixed height: when it overflows, step
// its font size down (to `min` of the size the CSS gives); the box itself
// never changes size, so the tree under it is never refitted (and never jumps).

export function fitText(el, { min = 0.7, steps = 6 } = {}) {
  el.style.fontSize = '';
  if (el.scrollHeight <= el.clientHeight + 1) return;
  const base = parseFloat(getComputedStyle(el).fontSize);
  for (let i = 1; i <= steps; i++) {
    el.style.fontSize = `${base * (1 - ((1 - min) * i) / steps)}px`;
    if (el.scrollHeight <= el.clientHeight + 1) return;
  }
}
