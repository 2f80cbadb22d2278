"""Issue 26, the dashboard's smaller things: the most common mistakes said in
the page's language with the right plural ("1 student"), a Copy button for
the student link and for every personal link of a roster, and a roster's
error shown next to its upload form."""
from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
import requests

from tests.a11y.test_indonesian import not_in, said_in
from tests.browser.helpers import new_screen

pytestmark = pytest.mark.browser

# What is wider than the phone's screen: the page, a table's frame (scrolled
# sideways), an element past the right edge (screen readers' text aside).
WIDE_JS = """() => {
    const W = innerWidth, out = [];
    if (document.documentElement.scrollWidth > W) out.push(`page ${document.documentElement.scrollWidth}`);
    for (const w of document.querySelectorAll('#dashboard .table-wrap')) {
        if (w.scrollWidth > w.clientWidth + 1) out.push(`table ${w.firstElementChild.dataset.role} ${w.scrollWidth}`);
    }
    for (const e of document.querySelectorAll('#dashboard *')) {
        const r = e.getBoundingClientRect();
        if (r.width && r.right > W + 1 && !e.closest('.sr')) out.push(`${e.tagName}.${e.className} ${Math.round(r.right)}`);
    }
    return out;
}"""


@pytest.mark.parametrize("lang", ["en", "id"])
def test_the_dashboard_speaks_counts_and_copies(browser, live_server, lang):
    made = requests.post(f"{live_server}/api/assignments", timeout=10, json={
        "title": "Words", "exercises": [{"tree": "aima-fig-5-2", "mode": "cuts"},
                                         {"tree": "aima-fig-5-2", "mode": "values"}]}).json()
    base = f"{live_server}/api/assignments/{made['id']}"
    for name, pruned in (("Ana Maria Lestari Wijayakusuma", ["c2"]), ("Budi", ["c2", "d1"])):      # c3 missed twice, d1 once
        me = requests.post(f"{base}/students", json={"student": name}, timeout=10).json()
        requests.post(f"{base}/me/exercises/0", headers={"X-Student-Token": me["token"]},
                      json={"answers": {"pruned": pruned}}, timeout=10).raise_for_status()
    ctx, pg = new_screen(browser, live_server, 1280, 720, console=True)
    ctx.grant_permissions(["clipboard-read", "clipboard-write"])
    sent = said_in(pg, lang)
    try:
        pg.goto(f"{made['dashboard'].replace('#', f'?lang={lang}#')}")
        pg.wait_for_selector("#dashboard.ready", timeout=15000)
        # Another tab chooses the other language (the cookie): this page stays in its own.
        ctx.add_cookies([{"name": "lang", "value": "en" if lang == "id" else "id", "url": live_server}])
        said = pg.locator("[data-role=exercises] .mistakes li").all_inner_texts()
        if lang == "id":
            assert "cut-off di c3 terlewat (2 mahasiswa)" in said, said
            assert "d1 ditandai terpangkas, padahal tidak (1 mahasiswa)" in said, said
            assert not [s for s in said if "missed" in s or "marked" in s or "students" in s], said
        else:
            assert "cut c3 missed (2 students)" in said, said
            assert "cut d1 marked, not pruned (1 student)" in said, said
        pg.click("[data-copy=student-link]")
        assert pg.evaluate("navigator.clipboard.readText()") == f"{live_server}/a/{made['id']}"
        # A refused roster: its error under its form, in view with it.
        pg.set_input_files("#roster", files=[{"name": "r.csv", "mimeType": "text/csv",
                                              "buffer": b"name,shoe size\nAna,40\n"}])
        pg.click("[data-form=roster] button[type=submit]")
        err = pg.locator("[data-role=roster-alert]")
        err.wait_for(state="visible")
        gap = pg.evaluate("""() => document.querySelector('[data-role=roster-alert]').getBoundingClientRect().top
            - document.querySelector('[data-form=roster]').getBoundingClientRect().bottom""")
        assert 0 <= gap <= 40 and "shoe size" in err.inner_text(), (gap, err.inner_text())
        assert pg.is_hidden("#alert")
        # A student's attempts opened under their name ...
        pg.locator("[data-role=students] summary").first.click()
        pg.wait_for_selector("[data-role=students] details[open] .student-work")
        pg.evaluate("document.querySelector('[data-role=students] tbody tr').dataset.before = 1")
        # A good one: every personal link with its Copy button; the error goes.
        pg.set_input_files("#roster", files=[{"name": "r.csv", "mimeType": "text/csv",
                                              "buffer": b"name,id\nCici,S1\nDodi,S2\n"}])
        pg.click("[data-form=roster] button[type=submit]")
        pg.wait_for_selector("[data-role=links]:not([hidden]) tr")
        assert err.is_hidden()
        # ... stay open when the roster refreshes the table (rows made anew).
        pg.wait_for_selector("[data-role=students] tbody tr[data-before]", state="detached")
        pg.wait_for_selector("[data-role=students] details[open] .student-work", timeout=5000)
        rows = pg.locator("[data-role=links] tr")
        assert rows.count() == 2
        cici_old = rows.nth(0).locator("td.link").inner_text()
        # Shown only now (only hashes are kept), and said so (w35d)
        assert pg.locator("[data-role=links-once]").inner_text().startswith({
            "en": "These personal links are shown only now.",
            "id": "Tautan pribadi ini hanya ditampilkan sekarang."}[lang])
        link = rows.nth(1).locator("td.link").inner_text()
        rows.nth(1).locator("button.copy").click()
        assert pg.evaluate("navigator.clipboard.readText()") == link and "/a/" in link
        # The list again with a late enrolee (w35c): a link for her; the two keep theirs.
        pg.set_input_files("#roster", files=[{"name": "r.csv", "mimeType": "text/csv",
                                              "buffer": b'name,id\nCici,S1\nDodi,S2\n'
                                                        b'"=Eka ""Dewi"" Kusumawardhani, S.Kom",2231001234\n'}])
        sent = []                 # a double tap on Upload sends the list once
        pg.on("request", lambda r: sent.append(r) if r.method == "POST" and r.url.endswith(
            "/roster") else None)
        pg.dblclick("[data-form=roster] button[type=submit]")
        kept = pg.locator("[data-role=roster-kept]")
        kept.wait_for(state="visible")
        pg.wait_for_load_state("networkidle")
        assert len(sent) == 1 and err.is_hidden(), (len(sent), err.inner_text())
        assert kept.inner_text() == {
            "en": "2 students already on the roster keep their links.",
            "id": "2 mahasiswa yang sudah ada di daftar kelas tetap memakai tautan mereka."}[lang]
        assert rows.count() == 1 and "Eka" in rows.first.inner_text() and err.is_hidden()
        # The links as a file: name, id, link; UTF-8, no cell a spreadsheet runs (w35d).
        with pg.expect_download() as dl:
            pg.click("[data-action=links-csv]")
        got = list(csv.reader(io.StringIO(Path(dl.value.path()).read_text(encoding="utf-8-sig"))))
        assert got == [["name", "id", "link"], ["'=Eka \"Dewi\" Kusumawardhani, S.Kom", "2231001234",
                                                rows.first.locator("td.link").inner_text()]], got
        # Cici lost her link: the instructor makes her a new one; the old one stops working.
        asked = []
        pg.on("dialog", lambda d: (asked.append(d.message), d.accept()))
        cici = pg.locator("[data-role=students] tr[data-student='Cici']")
        cici.locator("summary").click()
        cici.locator("[data-action=new-link]").click()
        fresh = cici.locator(".new-link output.link")
        fresh.wait_for()
        assert asked == [{"en": "Make a new personal link for Cici? Their old link stops working.",
                          "id": "Buat tautan pribadi baru untuk Cici? Tautan lamanya tidak "
                                "berfungsi lagi."}[lang]], asked
        cici.locator(".new-link button.copy").click()
        assert pg.evaluate("navigator.clipboard.readText()") == fresh.inner_text() != cici_old
        for link, status in ((cici_old, 401), (fresh.inner_text(), 200)):
            me = requests.get(f"{base}/me", timeout=10,
                              headers={"X-Student-Token": link.split("#s=")[1]})
            assert me.status_code == status and (status == 401 or me.json()["student"] == "Cici")
        # On a phone (360 and 390 px) nothing is wider than the screen, no table
        # scrolls sideways, with every section open (a student's attempts too).
        for width, height in ((360, 640), (390, 844)):
            pg.set_viewport_size({"width": width, "height": height})
            assert pg.evaluate(WIDE_JS) == [], (width, lang)
        assert sent and not not_in(sent, lang), not_in(sent, lang)
        assert not [e for e in pg.js_errors if "status of 4" not in e], pg.js_errors
    finally:
        ctx.close()
