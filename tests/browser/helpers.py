"""Opening a page at a screen size and walking the visualizer's run: what
the screen, layout and class tests share.

- ``new_screen(browser, base, width, height, phone=)``: a fresh context and
  page; ``page.js_errors`` collects its uncaught errors (and, with
  ``console=True``, its console errors).
- ``settle(page)``, ``settled(page)``: the drawing at rest (after a step;
  after a load, a resize or a mode switch): a condition, not a fixed wait.
- ``go_to_step(page, k, then=)``: the visualizer at step k, drawn (and
  what the ``then`` script reads there, in the same round trip).
- ``run_to_end(page)``: End on a visualizer just opened; the step of the
  first cut-off (the middle of a run without one) and the last step.
"""
from __future__ import annotations

import os
from pathlib import Path

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


# A frame, whole: its animation callbacks, then (a task later) its layout,
# resize observers and paint; the page's work a frame schedules for the next
# one shows in the next. "At rest": nothing running (CSS transitions), and
# the tree's transform, the stage's and the tree's boxes, the labels and the
# sentence's size the same over ``still`` whole frames in a row.
REST_JS = """async (still) => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const box = (sel) => { const e = document.querySelector(sel); if (!e) return '';
    const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height].join(','); };
  const look = () => {
    const svg = document.querySelector('#tree');
    const n = document.querySelector('#narration');
    return [svg?.querySelector('.viewport')?.getAttribute('transform'), box('#tree'), box('#stage'),
            svg?.querySelectorAll('text').length, n && getComputedStyle(n).fontSize,
            document.documentElement.className, innerWidth, innerHeight].join('|');
  };
  let last = look(), same = 0;
  const t0 = performance.now();
  const busy = () => document.querySelector('[role=tree][aria-busy=true]');   // hook items still to make
  while (same < still || busy()) {
    if (performance.now() - t0 > 15000) return false;
    await frame();
    const now = look();
    const moving = document.getAnimations().some((x) => x.playState === 'running');
    same = now === last && !moving ? same + 1 : 0;
    last = now;
  }
  return true;
}"""


def settle(pg) -> None:
    """The drawing at rest after a step (two whole frames without a change)."""
    assert pg.evaluate(REST_JS, 2), "the drawing kept moving for 15 s"


def settled(pg) -> None:
    """The page at rest after a load, a resize or a mode switch (three whole frames)."""
    assert pg.evaluate(REST_JS, 3), "the page kept moving for 15 s"


def wait_step(pg, k: int, timeout: float = 15000) -> None:
    pg.wait_for_function("k => document.querySelector('[data-step]').textContent === String(k)"
                         " && !document.querySelector('[role=tree][aria-busy=true]')",
                         arg=k, timeout=timeout)


# Step k, once the counter shows it and the drawing is at rest: one round
# trip, and the caller's measure (``then``) in the same one.
GO_JS = f"""async (k) => {{
  window.visualizer.session.goTo(k);
  const shown = document.querySelector('[data-step]'), t0 = performance.now();
  while (shown.textContent !== String(k)) {{
    if (performance.now() - t0 > 15000) throw new Error(`step ${{k}} not shown after 15 s`);
    await new Promise((r) => requestAnimationFrame(r));
  }}
  if (!await ({REST_JS})(2)) throw new Error(`the drawing of step ${{k}} kept moving for 15 s`);
}}"""


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


def notes_shot(pg, name: str) -> None:
    """A picture for a person to look at, taken only when ``SHOTS_DIR`` names
    a folder (the tests assert what the page shows; a picture costs a few
    tenths of a second, and a run should not write outside the clone)."""
    folder = os.environ.get("SHOTS_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(Path(folder) / f"{name}.png"))
