"""The editor keeps its word (issue 20), as a user meets it at 1366 x 768: a
node keeps its id and name when moved (automatic ids are given once), a
drag that changes nothing announces nothing, a refused notation shows its
error next to the box, in view, and marks the tree as not updated; in
Indonesian every what-if sentence is Indonesian."""
from __future__ import annotations

import pytest

from tests.browser.helpers import new_screen

pytestmark = pytest.mark.browser

IDS = "() => [...document.querySelectorAll('#tree [data-node]')].map((g) => g.dataset.node)"


def ready(pg):
    pg.wait_for_function("() => document.querySelector('#editor').getAttribute('aria-busy') === 'false'")


def test_the_editor_keeps_its_word(browser, live_server):
    ctx, pg = new_screen(browser, live_server, 1366, 768)
    pg.goto("/edit")
    pg.wait_for_selector("[data-notation]")
    ready(pg)
    box = pg.locator("[data-notation]")
    box.fill("((3 12 8) (2 4 6) (14 5 2))")         # no ids written: the loader names them all
    box.press("Enter")
    pg.wait_for_selector("[data-node=d3]")
    ready(pg)
    assert pg.evaluate(IDS)[:4] == ["A", "B", "b1", "b2"]
    # D moved first, in two steps: it stays D (and its leaves d1..d3), and the banner says so.
    pg.locator("[data-node=D] .shape").click(force=True)
    for _ in range(2):
        pg.keyboard.press("Alt+ArrowLeft")
        ready(pg)
    assert pg.evaluate(IDS) == ["A", "D", "d1", "d2", "d3", "B", "b1", "b2", "b3", "C", "c1", "c2", "c3"]
    change = pg.locator("#change")
    pg.wait_for_function("() => document.querySelector('#change').textContent.startsWith('Moving D')")
    assert box.input_value() == "(D(14 5 2) (3 12 8) C(2 4 6))"   # ids written only where places no longer give them
    # A drag that ends where it began: no edit, nothing announced.
    said = change.inner_text()
    s = pg.locator("[data-node=B] .shape").bounding_box()
    x, y = s["x"] + s["width"] / 2, s["y"] + s["height"] / 2
    pg.mouse.move(x, y)
    pg.mouse.down()
    pg.mouse.move(x + 16, y + 4, steps=4)
    pg.mouse.move(x + 1, y, steps=2)
    pg.mouse.up()
    ready(pg)
    assert change.inner_text() == said and pg.evaluate(IDS)[5] == "B"
    # A notation the loader refuses: its error beside the box, on screen; the tree marked not updated.
    box.fill("(D(14 5 2) (3 12 8")
    box.press("Enter")
    error = pg.locator("[data-text-error=notation]")
    error.wait_for(state="visible")
    b = error.bounding_box()
    assert 0 <= b["y"] and b["y"] + b["height"] <= 768, b
    near = box.bounding_box()
    assert 0 <= b["y"] - (near["y"] + near["height"]) <= 40          # right under the box
    assert "never closed" in error.inner_text()
    assert pg.locator("[data-stale]").first.is_visible()
    assert pg.evaluate("() => document.querySelector('#editor').hasAttribute('data-stale')")
    assert box.get_attribute("aria-invalid") == "true"
    box.fill("(D(14 5 2) (3 12 8) C(2 4 1))")
    box.press("Enter")
    pg.wait_for_function("() => !document.querySelector('#editor').hasAttribute('data-stale')")
    assert pg.locator("[data-stale]").first.is_hidden() and error.is_hidden()
    assert pg.js_errors == []
    ctx.close()


def test_what_if_sentences_in_indonesian(browser, live_server):
    ctx, pg = new_screen(browser, live_server, 1366, 768)
    pg.goto("/edit/aima-fig-5-2?lang=id")
    pg.wait_for_selector("[data-node=c2]")
    ready(pg)
    pg.wait_for_function("() => document.querySelector('#whatif .note')?.textContent")
    assert pg.locator("#whatif .note").inner_text().startswith("Selesai: akar A bernilai 3")
    pg.locator("[data-node=c2] .shape").click(force=True)
    value = pg.locator("[data-edit=value]")
    value.fill("1")
    value.press("Enter")
    pg.wait_for_function("() => document.querySelector('#change').textContent.startsWith('Mengubah c2')")
    assert "sudah dipangkas" in pg.locator("#change").inner_text()
    assert pg.js_errors == []
    ctx.close()
