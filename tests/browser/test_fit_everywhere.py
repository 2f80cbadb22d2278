"""Issue 26: Fit works wherever the tree is drawn. Its button is the element
found at its centre (never under the drawing) on the practice, assignment,
editor and class pages; a tree too wide for a phone opens readable and says
that part of it is shown, and Fit then shows all of it. An assignment's
Check is disabled once no attempt is left."""
from __future__ import annotations


import pytest
import requests

from tests.browser.helpers import new_screen, notes_shot, settled

pytestmark = pytest.mark.browser
WIDE = "/practice/random?branching=4&depth=3&seed=7&mode=values"

# The Fit button: found at its centre? And every drawn node inside the stage.
LOOK = """() => {
    const b = document.querySelector('#stage [data-action=fit]'), r = b.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const s = document.querySelector('#stage').getBoundingClientRect();
    const shapes = [...document.querySelectorAll('#tree [data-node] .shape')].map((e) => e.getBoundingClientRect());
    const note = document.querySelector('[data-fit-note]');
    return {fit: r.width > 0 && b.contains(hit) ? 'ok' : `under ${hit?.tagName}#${hit?.id}.${hit?.className?.baseVal ?? hit?.className}`,
            nodes: shapes.length,
            outside: shapes.filter((q) => q.left < s.left - 1 || q.right > s.right + 1
                || q.top < s.top - 1 || q.bottom > s.bottom + 1).length,
            note: !!note && !note.hidden && note.offsetHeight > 0, noteText: note?.textContent || ''};
}"""


# The nodes (shapes, pictures, labels: their parts the drawing shows) the
# active position's board covers.
UNDER_BOARD = """() => {
    const b = document.querySelector('[data-active-board]').getBoundingClientRect();
    const s = document.querySelector('#tree').getBoundingClientRect();
    if (!b.width) return ['no board'];
    return [...document.querySelectorAll('#tree [data-node] :is(.shape, .pic, text)')].filter((e) => {
        const r = e.getBoundingClientRect();
        const left = Math.max(r.left, s.left, b.left), right = Math.min(r.right, s.right, b.right);
        const top = Math.max(r.top, s.top, b.top), bottom = Math.min(r.bottom, s.bottom, b.bottom);
        return r.width > 0 && right > left && bottom > top;
    }).map((e) => e.closest('[data-node]').dataset.node);
}"""


@pytest.mark.parametrize("lang", ["en", "id"])
def test_practice_on_a_phone_opens_readable_and_fits(browser, live_server, lang):
    ctx, pg = new_screen(browser, live_server, 390, 844, phone=True, scale=2, console=True)
    try:
        where = requests.get(f"{live_server}{WIDE}", allow_redirects=False, timeout=10).headers["Location"]
        pg.goto(f"{where}&lang={lang}")
        pg.wait_for_selector("#practice.ready", timeout=15000)
        settled(pg)
        seen = pg.evaluate(LOOK)
        assert seen["fit"] == "ok" and seen["nodes"] >= 80, seen
        # 85 nodes do not read whole at 390 px: a readable part, said so.
        assert seen["outside"] > 0 and seen["note"], seen
        assert ("Fit" in seen["noteText"]) if lang == "en" else ("Paskan" in seen["noteText"]), seen
        notes_shot(pg, f"practice-phone-opened-{lang}")
        pg.tap("#stage [data-action=fit]")
        settled(pg)
        seen = pg.evaluate(LOOK)
        assert seen["outside"] == 0 and not seen["note"], seen           # all of it
        notes_shot(pg, f"practice-phone-after-fit-{lang}")
        assert not pg.js_errors, pg.js_errors
    finally:
        ctx.close()


def test_fit_is_in_reach_on_every_page_with_a_tree(browser, live_server):
    made = requests.post(f"{live_server}/api/assignments", timeout=10, json={
        "title": "Fit", "attempts": 1, "feedback": "submit",
        "exercises": [{"tree": "random", "mode": "values", "branching": 3, "depth": 3}]}).json()
    cls = requests.post(f"{live_server}/api/classes", json={"tree": "aima-fig-5-2", "step": 2}, timeout=10).json()
    ctx, pg = new_screen(browser, live_server, 1366, 768, console=True)
    try:
        for path, ready in ((WIDE, "#practice.ready"), ("/edit/aima-fig-5-2", "#editor[data-revision]"),
                            (f"/c/{cls['code']}/present#{cls['instructor']}", "#class-present.ready"),
                            (f"/c/{cls['code']}", "#class-student.ready")):
            pg.goto(path)
            pg.wait_for_selector(ready, timeout=15000)
            pg.keyboard.press("Escape")           # (the projector's join view)
            settled(pg)
            seen = pg.evaluate(LOOK)
            assert seen["fit"] == "ok", (path, seen)
            box = pg.locator("#tree").bounding_box()          # zoomed in by hand: part of it
            pg.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            pg.mouse.wheel(0, -900)
            settled(pg)
            assert pg.evaluate(LOOK)["outside"] > 0, path
            pg.click("#stage [data-action=fit]")
            settled(pg)
            assert pg.evaluate(LOOK)["outside"] == 0, path
        # The assignment's exercise: Fit in reach; one attempt, then Check is disabled.
        pg.goto(made["student"])
        pg.fill("#student", "Ana Lee")
        pg.click("[data-form=student] button[type=submit]")
        pg.click("[data-exercise='0'] a")
        pg.wait_for_selector("#practice.ready", timeout=15000)
        settled(pg)
        assert pg.evaluate(LOOK)["fit"] == "ok"
        assert pg.is_enabled("[data-action=check]")
        pg.click("[data-action=check]")
        pg.wait_for_selector("[data-role=feedback]:not([hidden])")
        pg.wait_for_function("() => document.querySelector('[data-action=check]').disabled")
        pg.reload()                                 # and still so when the page opens again
        pg.wait_for_selector("#practice.ready", timeout=15000)
        pg.wait_for_function("() => document.querySelector('[data-action=check]').disabled")
        assert not [e for e in pg.js_errors if "status of 4" not in e], pg.js_errors
    finally:
        ctx.close()


@pytest.mark.parametrize("width,height", [(1280, 720), (1920, 1080)])
def test_connect_four_in_presentation_mode_reads_and_says_it_follows(browser, live_server,
                                                                     width, height):
    """A Connect Four position on a projector: its discs are no dots (at least
    1.2 % of the screen's height), the window that follows the search says so
    over the tree, and the board of the active position covers no node."""
    ctx, pg = new_screen(browser, live_server, width, height, console=True)
    try:
        pg.goto("/t/game:connect4:4433")
        pg.wait_for_selector("#visualizer.ready", timeout=30000)
        pg.keyboard.press("p")
        pg.wait_for_function("() => document.documentElement.classList.contains('present')")
        for _ in range(6):
            pg.keyboard.press("ArrowRight")
        pg.wait_for_function("() => document.querySelector('[data-step]').textContent === '6'")
        settled(pg)
        discs = pg.evaluate("""() => [...document.querySelectorAll('#tree .pic-connect4 .pic-x')]
            .map((e) => e.getBoundingClientRect().height).filter((h) => h > 0)""")
        assert discs and min(discs) >= 0.012 * height, discs
        assert pg.evaluate("() => window.visualizer.following")
        assert pg.locator("[data-follow-note]").is_visible()
        bar, canvas = (pg.locator(s).bounding_box() for s in (".stage-bar", "#canvas"))
        assert bar["y"] + bar["height"] <= canvas["y"] + 1            # over the tree, not beside it
        assert pg.evaluate(UNDER_BOARD) == []                          # the board covers no node
        pg.click("[data-action=fit]")                                  # the whole tree: no note
        settled(pg)
        assert pg.evaluate(UNDER_BOARD) == []
        assert not pg.evaluate("() => window.visualizer.following")
        assert pg.locator("[data-follow-note]").is_hidden()
        assert not pg.js_errors, pg.js_errors
    finally:
        ctx.close()
