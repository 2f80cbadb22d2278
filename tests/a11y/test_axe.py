"""axe-core (axe-playwright-python) over every page, in the real browser:
normal, presentation and high-contrast mode, laptop and phone size, English
and Bahasa Indonesia. No violation of serious or critical impact; a lesser one fails
too unless it is named below with the reason it stays."""
from __future__ import annotations

import pytest
import requests
from axe_playwright_python.sync_playwright import Axe

from tests.browser.helpers import settled

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Rule id -> why a violation of it (moderate or minor impact) is accepted.
ACCEPTED: dict[str, str] = {}

SIZES = {"laptop": (1366, 768), "phone": (390, 844)}
_axe = Axe()


def audit(pg) -> list[str]:
    """The violations axe finds on the page now, as readable lines."""
    results = _axe.run(pg).response["violations"]
    problems = []
    for v in results:
        if v["impact"] in ("serious", "critical") or v["id"] not in ACCEPTED:
            where = ", ".join(str(n["target"]) for n in v["nodes"][:3])
            problems.append(f"{v['impact']} {v['id']}: {v['help']} at {where}")
    return problems


@pytest.fixture(scope="module")
def klass(live_server):
    res = requests.post(f"{live_server}/api/classes", json={"tree": "aima-fig-5-2"}, timeout=10)
    assert res.status_code == 201, res.text
    return res.json()


# The mark a page's script sets once it has drawn the page.
DRAWN = {"ready": "#visualizer.ready", "present": "#visualizer.ready", "contrast": "#visualizer.ready",
         "practice": "#practice.ready", "editor": "#editor[aria-busy=false]",
         "student": "#class-student.ready", "instructor": "#class-present.ready"}


def pages(klass):
    """(name, path, what to do once loaded) of every page the audit covers."""
    return [
        ("library", "/", None),
        ("upload-error", "/", "upload-error"),
        ("visualizer", "/t/aima-fig-5-2?step=14", "ready"),
        ("visualizer-end", "/t/aima-fig-5-2?step=27", "ready"),
        ("presentation", "/t/aima-fig-5-2?step=14", "present"),
        ("game", "/t/game:tictactoe?step=3", "ready"),
        ("missing-tree", "/t/no-such-tree", None),
        ("practice-index", "/practice", None),
        ("practice-values", "/practice/aima-fig-5-2?mode=values", "practice"),
        ("practice-full", "/practice/aima-fig-5-2?mode=full", "practice"),
        ("practice-guided", "/practice/aima-fig-5-2?mode=guided", "practice"),
        ("practice-order", "/practice/aima-fig-5-2?mode=order", "practice"),
        ("editor", "/edit/aima-fig-5-2", "editor"),
        ("class-join", "/c", None),
        ("play", "/play", None),
        ("play-tictactoe", "/play/tictactoe", None),
        ("class-student", klass["join"], "student"),
        ("class-present", f"{klass['join']}/present#{klass['instructor']}", "instructor"),
        # last: the theme is kept in the browser, for every page after it
        ("high-contrast", "/t/aima-fig-5-2?step=14", "contrast"),
    ]


class InFlight:
    """The page's requests not yet answered (Playwright's own "networkidle"
    waits a fixed half second of quiet after them: 12 s of this file)."""

    def __init__(self, context):
        self.pending: set = set()
        context.on("request", lambda r: self.pending.add(r))
        context.on("requestfinished", lambda r: self.pending.discard(r))
        context.on("requestfailed", lambda r: self.pending.discard(r))

    def wait(self, pg) -> None:
        """Every request answered, the page at rest, and still none asked."""
        polls_left = 150                      # 15 s of 100-ms polls
        while True:
            while self.pending:
                polls_left -= 1
                assert polls_left > 0, f"requests unanswered: {[r.url for r in self.pending]}"
                pg.wait_for_timeout(100)
            settled(pg)
            if not self.pending:
                return


def prepare(pg, action, inflight: InFlight):
    """Wait until the page's script has drawn it: its own mark, or (a page
    without one) every request it made answered; then the page at rest."""
    if action in DRAWN:
        pg.wait_for_selector(DRAWN[action], timeout=15000)
    else:
        inflight.wait(pg)
    if action == "contrast":
        pg.keyboard.press("c")
        pg.wait_for_function("() => document.documentElement.classList.contains('contrast')")
    if action == "present":
        pg.keyboard.press("p")
        pg.wait_for_function("() => document.documentElement.classList.contains('present')")
    if action == "upload-error":
        pg.fill("#paste", "title: x\nroot\n  children: [1, 2]\n")
        pg.click("#open")
        pg.wait_for_function("() => document.querySelector('#upload-error').textContent !== ''")
    settled(pg)


# Both sizes in English; the Indonesian pages (longer words) once, on a laptop.
@pytest.mark.parametrize("size, lang", [("laptop", "en"), ("phone", "en"), ("laptop", "id")])
def test_no_serious_violations_anywhere(browser, live_server, klass, size, lang, shoot):
    w, h = SIZES[size]
    context = browser.new_context(viewport={"width": w, "height": h}, base_url=live_server,
                                  has_touch=size == "phone", is_mobile=size == "phone")
    context.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
    inflight = InFlight(context)
    pg = context.new_page()
    found = {}
    try:
        for name, path, action in pages(klass):
            pg.goto(path)
            prepare(pg, action, inflight)
            assert pg.evaluate("document.documentElement.lang") == lang, name
            problems = audit(pg)
            if problems:
                found[name] = problems
                shoot(pg, f"axe-{name}-{size}-{lang}")
    finally:
        context.close()
    assert not found, "\n".join(f"{name}:\n  " + "\n  ".join(p) for name, p in found.items())
