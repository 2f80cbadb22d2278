"""The browser tests once more in Bahasa Indonesia: the library, a whole
alpha-beta run, a practice attempt and an upload error; the language is
switched on the page and kept by the browser."""
from __future__ import annotations

import pytest

from tests.browser.expect import trace

pytestmark = pytest.mark.browser


@pytest.fixture
def id_page(browser, live_server):
    context = browser.new_context(viewport={"width": 1366, "height": 768}, base_url=live_server,
                                  locale="id-ID")          # the browser prefers Indonesian
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert not errors, errors


def test_library_in_indonesian_and_the_switch(id_page, shoot):
    pg = id_page
    pg.route("**/api/trees/natsheh-minimax-example", lambda route: route.abort())   # a preview fails
    pg.goto("/")
    assert pg.evaluate("document.documentElement.lang") == "id"
    assert pg.locator("h2#lecture-trees").inner_text() == "Pohon dari materi kuliah"
    card = pg.locator(".card[data-tree=itb-3-ply-lr]")
    card.wait_for()
    assert card.get_attribute("aria-labelledby")
    name = pg.evaluate("id => document.getElementById(id).textContent",
                       card.get_attribute("aria-labelledby"))
    assert name == "Latihan ITB: permainan 3-ply dengan langkah L dan R"
    assert "simpul" in card.locator(".card-meta").inner_text()
    failed = pg.locator(".card[data-tree=natsheh-minimax-example] .preview.failed")
    failed.scroll_into_view_if_needed()
    failed.wait_for()                                   # says so in Indonesian
    said = failed.evaluate("(e) => getComputedStyle(e, '::after').content")
    assert "pratinjau" in said and "preview" not in said, said
    shoot(pg, "id-library")
    pg.click(".lang-switch [data-lang=en]")                # switched on the page ...
    pg.wait_for_function("document.documentElement.lang === 'en'")
    assert pg.locator("h2#lecture-trees").inner_text() == "Lecture trees"
    pg.goto("/practice")                                    # ... and kept by the browser
    assert pg.evaluate("document.documentElement.lang") == "en"


def test_a_whole_alpha_beta_run_in_indonesian(id_page, live_server, shoot):
    pg = id_page
    events = trace(live_server, "aima-fig-5-2", algorithm="alphabeta", lang="id")
    pg.goto("/t/aima-fig-5-2?algorithm=alphabeta")
    pg.wait_for_selector("#visualizer.ready", timeout=15000)
    assert pg.locator("#title").inner_text() == "AIMA Gambar 5.2, permainan dua ply"
    assert pg.locator("#narration").inner_text().startswith("Langkah 0: belum ada yang ditelusuri")
    for ev in events:
        pg.keyboard.press("ArrowRight")
        pg.wait_for_function("k => document.querySelector('[data-step]').textContent === String(k)",
                             arg=ev["step"])
        assert pg.locator("#narration").inner_text() == ev["text"]
    assert events[-1]["text"].startswith("Selesai: akar A bernilai 3")
    assert "Pencarian selesai." == pg.locator("#prune-test").inner_text()
    item = pg.locator("#a11y-tree [data-a11y-node=c2]")
    assert item.get_attribute("aria-label").startswith("daun c2, nilai 4, di-prune. Alasannya: MIN di C")
    assert pg.locator("#pseudocode li", has_text="▷ nilai maks.").count() == 1
    shoot(pg, "id-visualizer-end")


def said_in(pg, lang: str) -> list:
    """The page's requests to the server (the API, Socket.IO) from now on, to
    check that each says the page's language (X-Page-Lang, or the handshake's
    ``lang=``) whatever the cookie says."""
    sent = []
    pg.on("request", lambda r: sent.append(r) if "/api/" in r.url or "/socket.io/" in r.url else None)
    return sent


def not_in(sent: list, lang: str) -> list:
    return [r.url for r in sent if r.headers.get("x-page-lang") != lang and f"lang={lang}" not in r.url]


def test_a_practice_attempt_in_indonesian(id_page, live_server, shoot):
    pg = id_page
    sent = said_in(pg, "id")
    pg.goto("/practice/aima-fig-5-2?mode=values")
    pg.wait_for_selector("#answer-rows input", timeout=15000)
    # Another tab switches the language (the cookie): this page's answers stay Indonesian.
    pg.context.add_cookies([{"name": "lang", "value": "en", "url": live_server}])
    assert pg.locator("[data-panel=answers] h2").text_content() == "Jawaban Anda"
    for node, value in (("A", "3"), ("B", "3"), ("C", "4"), ("D", "2")):
        pg.get_by_label(f"v di {node}", exact=True).fill(value)      # the input's Indonesian name
    pg.click("[data-action=check]")
    summary = pg.locator("[data-role=summary]")
    summary.wait_for()
    pg.wait_for_function("() => document.querySelector('[data-role=summary]').textContent !== ''")
    assert summary.inner_text() == "3 dari 4 benar."
    mistake = pg.locator("[data-role=mistake-text]").inner_text()
    assert mistake.startswith("C adalah simpul MIN") and mistake.endswith("Anda menulis 4."), mistake
    # An answer changed after the check: the summary says so, in Indonesian too.
    pg.get_by_label("v di C", exact=True).fill("2")
    pg.wait_for_selector("#feedback.stale")
    after = pg.evaluate("() => getComputedStyle(document.querySelector('[data-role=summary]'), '::after').content")
    assert "jawaban berubah" in after and "answers" not in after, after
    assert sent and not not_in(sent, "id"), not_in(sent, "id")
    # The chooser marks a tree this browser solved, in Indonesian too.
    pg.evaluate("""() => localStorage.setItem('practice-progress-v1', JSON.stringify({attempts:
        {'aima-fig-5-2|values': {best: 4, total: 4, checks: 1, solved: true, at: Date.now()}}}))""")
    pg.goto("/practice?lang=id")                # (the other tab's cookie says English)
    mark = pg.evaluate("""() => getComputedStyle(document.querySelector(
        'li.solved[data-tree="aima-fig-5-2"] strong'), '::after').content""")
    assert "selesai" in mark and "solved" not in mark, mark
    shoot(pg, "id-practice")


def test_an_upload_error_in_indonesian(id_page, shoot):
    pg = id_page
    pg.goto("/")
    pg.wait_for_selector("#gallery .card")   # the page's script has run (its words are in)
    pg.fill("#paste", "title: x\nroot\n  children: [1, 2]\n")
    pg.click("#open")
    alert = pg.locator("#upload-error[role=alert]")
    pg.wait_for_function("() => document.querySelector('#upload-error').textContent !== ''")
    assert alert.inner_text() == ("Tanda titik dua hilang di baris 2: tulis “root:”. "
                                  "(baris 2, kolom 5)")
    # the cursor is put on the line to fix
    assert pg.evaluate("() => { const t = document.querySelector('#paste'); "
                       "return t.value.slice(t.selectionStart, t.selectionEnd); }") == "root"
    shoot(pg, "id-upload-error")
