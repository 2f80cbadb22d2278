"""A word longer than a phone is wide (an e-mail address typed as a name, an
LMS's address in a refusal, a mistyped id in a link) breaks inside its line
at 360 px: the page never scrolls sideways and nothing is cut at its edge."""
from __future__ import annotations

import pytest
import requests

from tests.browser.helpers import new_screen

pytestmark = pytest.mark.browser
KEY = "long-words-registration-key-0123456789"
EMAIL = "maria.fernanda.kusumawardhani@student.universitas-contoh.ac.id"

# The document's width, and every text that reaches past the window's right edge.
WIDE = """() => {
    const out = [];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        if (!n.textContent.trim() || n.parentElement.closest('.sr')) continue;
        const r = document.createRange();
        r.selectNodeContents(n);
        if ([...r.getClientRects()].some((q) => q.width > 0 && q.right > innerWidth + 1))
            out.push(n.textContent.trim().slice(0, 40));
    }
    return {width: document.documentElement.scrollWidth, cut: out};
}"""


@pytest.mark.parametrize("lang", ["id"])
def test_long_words_wrap_on_a_small_phone(browser, live_server, monkeypatch, lang):
    monkeypatch.setenv("LTI_REGISTRATION_KEY", KEY)
    made = requests.post(f"{live_server}/api/assignments", timeout=10, json={
        "title": "Tugas", "attempts": 1, "feedback": "submit",
        "exercises": [{"tree": "aima-fig-5-2", "mode": "values"}]}).json()
    ctx, pg = new_screen(browser, live_server, 360, 640, phone=True, console=True)
    try:
        pg.goto(f"{made['student'].split('#')[0]}?lang={lang}")
        pg.fill("#student", EMAIL)                       # the name a student types: an e-mail
        pg.click("[data-form=student] button[type=submit]")
        pg.wait_for_selector("[data-exercise='0']")
        assert pg.text_content("[data-role=student]") == EMAIL
        seen = {"assignment": pg.evaluate(WIDE)}
        # A link to a tree or a game that is not there names what it was given.
        for name, path in (("missing tree", "/t/" + "anoldlinktoatreethatisgone" * 3),
                           ("missing game", "/play/tictactoe?position=game:nim:" + "9" * 30)):
            pg.goto(f"{path}{'&' if '?' in path else '?'}lang={lang}")
            pg.wait_for_selector("[role=alert]")
            seen[name] = pg.evaluate(WIDE)
        # An LMS administrator pastes an http address: refused, the address named.
        long_url = "http://elearning.universitasnegeri.example/moodle/mod/lti/openid_configuration.php"
        pg.goto(f"/lti/register/{KEY}?lang={lang}&openid_configuration={long_url}")
        pg.wait_for_selector("[data-lti-refused]")
        assert "universitasnegeri" in pg.text_content("[data-lti-refused]")
        seen["lti refused"] = pg.evaluate(WIDE)
        bad = {k: v for k, v in seen.items() if v["width"] > 360 or v["cut"]}
        assert not bad, bad
        # A long title and source, cut short in the visualizer's header on a phone
        # (one row), are read whole in the panel about the tree.
        pg.goto(f"/t/aima-fig-5-12-transformed?lang={lang}")
        pg.wait_for_selector("#visualizer.ready", timeout=15000)
        head = pg.evaluate("() => { const h = document.querySelector('#title'); "
                           "return [h.title, h.scrollWidth > h.clientWidth]; }")
        assert head[1], head                                   # cut short up there
        pg.locator(".tabs [role=tab]").last.tap()
        about = pg.locator(".panel.about")
        about.wait_for()
        assert about.locator(".about-title").inner_text() == head[0]
        assert about.locator(".about-source").inner_text().startswith("Russell & Norvig")
        assert pg.evaluate("document.documentElement.scrollWidth") <= 360
        assert not [e for e in pg.js_errors if "status of 4" not in e], pg.js_errors
    finally:
        ctx.close()
