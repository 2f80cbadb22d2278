// Swipe to step on a touch screen: a quick horizontal flick (left: forward,
// right: back). On the tree it counts only while the tree is not zoomed by
// hand (then a drag pans); `accept()` says whether it may count now.

export function onSwipe(el, { left, right, accept = () => true }) {
  let start = null;
  el.addEventListener('pointerdown', (e) => {
    start = e.isPrimary && e.pointerType !== 'mouse' ? { x: e.clientX, y: e.clientY, t: e.timeStamp, ok: accept() } : null;
  });
  el.addEventListener('pointercancel', () => { start = null; });
  // A second finger (a pinch) is no swipe.
  el.addEventListener('pointerdown', (e) => { if (!e.isPrimary) start = null; });
  el.addEventListener('pointerup', (e) => {
    if (!start || !e.isPrimary) return;
    const dx = e.clientX - start.x, dy = e.clientY - start.y, dt = e.timeStamp - start.t;
    const ok = start.ok;
    start = null;
    if (!ok || dt > 600 || Math.abs(dx) < 50 || Math.abs(dx) < 2 * Math.abs(dy)) return;
    (dx < 0 ? left : right)?.();
  });
}
