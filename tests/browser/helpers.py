"""Opening a page at a screen size and walking the visualizer's run: what
the screen, layout and class tests share.

- ``new_screen(browser, base, width, height, phone=)``: a fresh context and
  page; ``page.js_errors`` collects its uncaught errors (and, with
  ``console=True``, its console errors).
- ``settle(page)``: two frames, so the fit after a step has been drawn;
  ``settled(page)``: the drawing at rest after a load, a resize or a mode
  switch (a condition, not a fixed wait).
- ``go_to_step(page, k, then=)``: the visualizer at step k, drawn (and
  what the ``then`` script reads there, in the same round trip).
- ``run_to_end(page)``: End on a visualizer just opened; the step of the
  first cut-off (the middle of a run without one) and the last step.
"""
from __future__ import annotations

SETTLE_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"

FIRST_CUT_JS = """() => {
    const evs = window.visualizer.session.run.events;
    const i = evs.findIndex((e) => e && e.type === 'prune');
    return i >= 0 ? i + 1 : Math.floor(evs.length / 2);
}"""


def new_screen(browser, base_url: str, width: int, height: int, *, phone: bool = False,
               scale: float = 1, console: bool = False):
    """``(context, page)`` at ``width`` x ``height``; a ``phone`` has touch and a
    mobile viewport. The caller closes the context."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, base_url=base_url,
                              has_touch=phone, is_mobile=phone, device_scale_factor=scale)
    pg = ctx.new_page()
    pg.js_errors = []
    pg.on("pageerror", lambda exc: pg.js_errors.append(f"uncaught: {exc}"))
    if console:
        pg.on("console", lambda m: pg.js_errors.append(f"console: {m.text}") if m.type == "error" else None)
    return ctx, pg


def settle(pg) -> None:
    pg.evaluate(SETTLE_JS)


# The page at rest: no CSS transition running, and the same transform, stage
# box and sentence size over three frames in a row (the fit after a resize
# or a mode switch takes a frame or two: the presentation's redraw, then the
# zoom's own frame).
SETTLED_JS = """async () => {
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const look = () => {
    const svg = document.querySelector('#tree');
    const r = svg ? svg.getBoundingClientRect() : {};
    const n = document.querySelector('#narration');
    return [svg?.querySelector('.viewport')?.getAttribute('transform'), r.left, r.top, r.width,
            r.height, svg?.querySelectorAll('text').length, n && getComputedStyle(n).fontSize,
            document.documentElement.className, innerWidth, innerHeight].join('|');
  };
  let last = look(), still = 0;
  for (let i = 0; i < 600 && still < 3; i++) {
    await frame();
    const now = look();
    const moving = document.getAnimations().some((x) => x.playState === 'running');
    still = now === last && !moving ? still + 1 : 0;
    last = now;
  }
  return still >= 3;
}"""


def settled(page) -> None:
    """Wait until the page has stopped moving (at most 600 frames, ~10 s)."""
    assert page.evaluate(SETTLED_JS), "the drawing kept moving"


def wait_step(pg, k: int, timeout: float = 15000) -> None:
    pg.wait_for_function("k => document.querySelector('[data-step]').textContent === String(k)",
                         arg=k, timeout=timeout)


# Step k, once the counter shows it, and two frames more (the fit drawn):
# one round trip, then the caller's measure (``then``) in the same one.
GO_JS = """async (k) => {
  window.visualizer.session.goTo(k);
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const shown = document.querySelector('[data-step]'), t0 = performance.now();
  while (shown.textContent !== String(k)) {
    if (performance.now() - t0 > 15000) throw new Error(`step ${k} not shown after 15 s`);
    await frame();
  }
  await frame();
  await frame();
}"""


def go_to_step(pg, k: int, then: str | None = None):
    """The page at step ``k``, drawn; with ``then`` (a JS function of no
    arguments), its answer, read in the same round trip."""
    if then is None:
        return pg.evaluate(GO_JS, k)
    return pg.evaluate(f"async (k) => {{ await ({GO_JS})(k); return ({then})(); }}", k)


def run_to_end(pg) -> tuple[int, int]:
    """(first cut-off, last step) of the run the visualizer just opened (End streams it all)."""
    pg.keyboard.press("End")
    pg.wait_for_function("() => document.querySelector('[data-step]').dataset.total", timeout=15000)
    total = int(pg.locator("[data-step]").get_attribute("data-total"))
    return pg.evaluate(FIRST_CUT_JS), total
