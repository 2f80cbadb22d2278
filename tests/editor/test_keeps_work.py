"""Issue 26: the editor keeps every piece of work. A refused text never hides
the editor (the stale note is found by its own hook, not the page's); the
last accepted tree is kept in this browser and restored after a reload with
a note and a way to discard it; the text's errors are said in the page's
language even when the language cookie says another (a second tab); loading
a whole tree says how the cut-offs changed."""
from __future__ import annotations


import pytest

from tests.browser.helpers import new_screen, notes_shot, settled
from tests.editor.test_browser import Editor

pytestmark = pytest.mark.browser
VISIBLE = "() => { const e = document.querySelector('#editor'); return !e.hidden && e.offsetHeight > 100; }"
# The nodes whose shape or labels the stale note or the zoom buttons cover.
UNDER_NOTE = """() => {
    const over = [...document.querySelectorAll('.stale-note, #stage > .zoom-buttons')]
        .map((e) => e.getBoundingClientRect());
    return [...document.querySelectorAll('#tree [data-node] :is(.shape, text)')].filter((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && over.some((n) => Math.min(r.right, n.right) > Math.max(r.left, n.left)
            && Math.min(r.bottom, n.bottom) > Math.max(r.top, n.top));
    }).map((e) => e.closest('[data-node]').dataset.node);
}"""


@pytest.mark.parametrize("lang", ["en", "id"])
def test_a_refused_text_then_a_reload_keep_the_work(browser, live_server, lang):
    ctx, pg = new_screen(browser, live_server, 1366, 768, console=True)
    try:
        ed = Editor(pg).open(f"/edit?lang={lang}", yaml=False)
        assert not pg.is_visible("[data-draft]")            # nothing kept yet: no note
        # Another tab switched the language: this page still speaks its own.
        other = "en" if lang == "id" else "id"
        ctx.add_cookies([{"name": "lang", "value": other, "url": live_server}])
        box = pg.locator("[data-notation]")
        box.fill("(")
        box.press("Enter")
        error = pg.locator("[data-text-error=notation]")
        error.wait_for(state="visible")
        said = error.inner_text()
        assert ("tidak pernah ditutup" in said and "never" not in said) if lang == "id" \
            else ("never closed" in said and "tidak" not in said), said
        assert pg.locator(".stale-note").is_visible()
        notes_shot(pg, f"editor-refused-{lang}")

        # The next accepted edit: the note goes, the editor stays.
        ed.act("add-child")
        pg.wait_for_function("() => !document.querySelector('#editor').hasAttribute('data-stale')")
        assert pg.evaluate(VISIBLE), "the editor was hidden"
        assert pg.locator(".stale-note").is_hidden() and pg.is_visible("[data-action=add-child]")
        # A whole tree typed in: the sentence says the cut-offs it brings.
        box.fill("((3 12 8) (2 4 6) (14 5 2))")
        box.press("Enter")
        pg.wait_for_function("() => document.querySelector('[data-result=cutoffs]').textContent === '1'")
        ed.settle()
        sentence = ed.sentence
        assert ("tidak mengubah" not in sentence) if lang == "id" else ("no cut" not in sentence), sentence
        assert ("dari 0 menjadi 1" if lang == "id" else "from 0 to 1") in sentence, sentence
        kept = ed.notation
        # Refused again over this tree: neither the note nor the zoom buttons cover
        # any of its nodes, on a small phone too (the Indonesian note takes four lines).
        box.fill("(")
        box.press("Enter")
        pg.locator(".stale-note").wait_for()
        for size in ({"width": 360, "height": 640}, {"width": 1366, "height": 768}):
            pg.set_viewport_size(size)
            settled(pg)
            assert pg.evaluate(UNDER_NOTE) == [], (size, pg.evaluate(UNDER_NOTE))
        # A reload: the draft is back, and says so.
        pg.reload()
        pg.wait_for_selector("#editor[data-revision]", timeout=15000)
        ed.settle()
        assert ed.notation == kept
        note = pg.locator("[data-draft]")
        assert note.is_visible()
        assert ("draf" in note.inner_text().lower()) if lang == "id" else ("draft" in note.inner_text())
        notes_shot(pg, f"editor-after-reload-{lang}")
        # Discarded: the editor starts as the address says (an empty root), and stays so.
        pg.click("[data-action=discard-draft]")
        pg.wait_for_function("k => document.querySelector('[data-notation]').value !== k", arg=kept)
        ed.settle()
        assert note.is_hidden() and len(ed.ids()) == 1
        pg.reload()
        pg.wait_for_selector("#editor[data-revision]", timeout=15000)
        ed.settle()
        assert len(ed.ids()) == 1 and not pg.is_visible("[data-draft]")
        assert not [e for e in pg.js_errors if "status of 4" not in e], pg.js_errors
    finally:
        ctx.close()
