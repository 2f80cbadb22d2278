"""Real-browser fixtures: Debian's Chromium driven by Playwright for Python.

- ``browser`` (tests/conftest.py): one headless Chromium for the whole session.
- ``page``: a fresh page whose JavaScript errors fail the test.
- ``fig52``: the id of AIMA Figure 5.2 on the live server (the built-in tree,
  or the same tree uploaded through the API when the library lacks it).
- ``viz``: helpers to open the visualizer and read its hooks.
- ``shoot(page, name)``: a screenshot in ``test-artifacts/`` to look at.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import requests

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
BUILTIN_FIG52 = "aima-fig-5-2"


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=live_server)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    pg.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
    pg.js_errors = errors
    yield pg
    context.close()
    # 4xx answers a test provokes on purpose show up as console errors too.
    real = [e for e in errors if "status of 4" not in e]
    assert not real, "JavaScript errors on the page:\n" + "\n".join(real)


@pytest.fixture
def shoot():
    ARTIFACTS.mkdir(exist_ok=True)

    def take(pg, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        pg.screenshot(path=str(path))
        return path

    return take


@pytest.fixture(scope="session")
def fig52(live_server) -> str:
    from tests.conftest import FIG_5_2

    listing = requests.get(f"{live_server}/api/trees", timeout=10).json()
    if any(t["id"] == BUILTIN_FIG52 for t in listing):
        return BUILTIN_FIG52
    res = requests.post(f"{live_server}/api/trees", data=FIG_5_2.encode(),
                        headers={"Content-Type": "application/x-yaml"}, timeout=10)
    assert res.status_code == 201, res.text
    return res.json()["id"]


class Viz:
    """Open the visualizer and read the contract §4 hooks."""

    def __init__(self, base: str):
        self.base = base

    def open(self, pg, tree_id: str, query: str = ""):
        pg.goto(f"{self.base}/t/{tree_id}{'?' + query if query else ''}")
        pg.wait_for_selector("#visualizer.ready", timeout=15000)
        return pg

    @staticmethod
    def step(pg) -> int:
        return int(pg.locator("[data-step]").inner_text())

    @staticmethod
    def wait_step(pg, k: int) -> None:
        # ... and the hook items made (a big step makes them in idle time: aria-busy meanwhile).
        pg.wait_for_function("k => document.querySelector('[data-step]').textContent === String(k)"
                             " && !document.querySelector('[role=tree][aria-busy=true]')",
                             arg=k, timeout=15000)

    @staticmethod
    def nodes(pg) -> dict[str, dict]:
        """Every drawn node's hooks: {id: {status, value, alpha, beta}}."""
        return pg.evaluate("""() => Object.fromEntries([...document.querySelectorAll('[data-node]')]
            .map(e => [e.dataset.node, {status: e.dataset.status, value: e.dataset.value,
                                        alpha: e.dataset.alpha, beta: e.dataset.beta}]))""")


@pytest.fixture
def viz(live_server) -> Viz:
    return Viz(live_server)
