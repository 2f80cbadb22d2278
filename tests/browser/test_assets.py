"""The page's files under versioned URLs (app/web/assets.py): a browser asks
for them once and keeps them; a changed file gets a new URL.

Before, every static answer was ``no-cache``: each page view asked again for
each of its ~40 files (40 answers of 304), from each of a hall's phones."""
from __future__ import annotations

import hashlib
import json
import re

import pytest

from tests.conftest import REPO

MAP = re.compile(r'<script type="importmap">(.*?)</script>')


def _version(rel: str) -> str:
    return hashlib.sha256((REPO / "static" / rel).read_bytes()).hexdigest()[:12]


def test_a_page_names_its_files_by_version_and_they_are_kept_for_good(client):
    html = client.get("/t/aima-fig-5-2").get_data(as_text=True)
    urls = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
    assert urls and all(re.fullmatch(r"/static/[\w/.-]+\?v=[0-9a-f]{12}", u) for u in urls), urls
    for url in urls:
        path, version = url[len("/static/"):].split("?v=")
        assert version == _version(path), url
        with client.get(url) as kept:
            assert kept.status_code == 200
            assert kept.headers["Cache-Control"] == "public, max-age=31536000, immutable", url
    # The module imports, relative in the files, go to the same versioned URLs.
    imports = json.loads(MAP.search(html).group(1))["imports"]
    modules = sorted(p.relative_to(REPO / "static").as_posix()
                     for p in (REPO / "static").rglob("*.js"))
    assert imports == {f"/static/{m}": f"/static/{m}?v={_version(m)}" for m in modules}
    # An old version, or none, is the file as it is now, asked again each time.
    for url in ("/static/js/core/model.js", "/static/js/core/model.js?v=000000000000"):
        with client.get(url) as again:
            assert again.status_code == 200 and again.headers["Cache-Control"] == "no-cache", url


def test_a_catalogue_is_kept_for_good_only_at_its_own_version(client):
    """The page asks for the words at the version it was written with; an
    address of another version (a page written before a deploy) or of none
    gets today's words, kept five minutes, never for good."""
    html = client.get("/t/aima-fig-5-2?lang=id").get_data(as_text=True)
    url = re.search(r'href="(/i18n/id\.json\?v=[0-9a-f]{12})"', html).group(1)
    with client.get(url) as current:
        assert current.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        words = current.get_json()
    for other in ("/i18n/id.json", "/i18n/id.json?v=000000000000"):
        with client.get(other) as answer:
            assert answer.headers["Cache-Control"] == "max-age=300", other
            assert answer.get_json() == words, other


@pytest.mark.browser
def test_the_next_page_comes_from_the_browsers_cache(browser, live_server):
    context = browser.new_context(base_url=live_server)
    pg = context.new_page()
    asked: list[str] = []
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("response", lambda r: asked.append(f"{r.status} {r.url}") if "/static/" in r.url else None)
    try:
        pg.goto("/t/aima-fig-5-2")
        pg.wait_for_selector("#visualizer.ready", timeout=15000)
        assert any(a.startswith("200 ") for a in asked), asked
        asked.clear()
        # The same modules again, and the practice page's own: none asked again.
        pg.goto("/t/aima-fig-5-2?step=3")
        pg.wait_for_selector("#visualizer.ready", timeout=15000)
        pg.goto("/practice/aima-fig-5-2?mode=values")
        pg.wait_for_selector("#practice.ready", timeout=15000)
        assert not [a for a in asked if a.startswith("304 ")], asked
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.browser
def test_an_indonesian_page_preloads_its_catalogue_once_and_keeps_it(browser, live_server):
    """The scripts' words come from one request, made while the modules load
    (the page's preload, taken over by i18n.js's fetch), to a versioned
    address the browser keeps for good."""
    context = browser.new_context(base_url=live_server)
    pg = context.new_page()
    asked: list = []
    pg.on("request", lambda r: asked.append(r) if "/i18n/" in r.url else None)
    try:
        pg.goto("/practice/aima-fig-5-2?mode=values&lang=id")
        pg.wait_for_selector("#practice.ready", timeout=15000)
        assert [r.url.split("/i18n/")[1].split("=")[0] for r in asked] == ["id.json?v"], \
            [r.url for r in asked]
        answer = asked[0].response()
        assert answer.ok and "immutable" in answer.headers["cache-control"]
        # and the words the script wrote are that catalogue's
        said = answer.json()["AIMA formulation: a node that cuts off returns at once, before "
                             "updating its own α (MAX) or β (MIN)."]
        assert pg.locator(".style-note").inner_text() == said
    finally:
        context.close()
