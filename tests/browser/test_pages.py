"""app/web/pages.py without a browser: the routes, the listings, sanitising."""
from __future__ import annotations

from app.search.pseudocode import listings_for
from app.web.pages import render_description


def test_pages_are_served(client):
    home = client.get("/")
    assert home.status_code == 200 and b'type="file"' in home.data
    page = client.get("/t/aima-fig-5-2")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    for action in ("step-forward", "step-back", "play", "pause", "to-start", "to-end", "next-cut"):
        assert f'data-action="{action}"' in html
    assert "data-step" in html and 'data-tree="aima-fig-5-2"' in html
    # Every script and style is the app's own: nothing from another host.
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html


def test_an_unknown_tree_is_an_html_404(client):
    res = client.get("/t/nope")
    assert res.status_code == 404 and res.mimetype == "text/html"
    assert "nope" in res.get_data(as_text=True)


def test_pseudocode_listings_come_from_the_core(client):
    res = client.get("/api/pseudocode?algorithm=alphabeta&strict=1&depth=2")
    assert res.status_code == 200
    assert res.get_json() == listings_for("alphabeta", strict=True, depth_limited=True)
    assert set(res.get_json()) == {"aima", "wikipedia"}
    assert set(client.get("/api/pseudocode?algorithm=maxn").get_json()) == {"aima"}
    bad = client.get("/api/pseudocode?algorithm=nope")
    assert bad.status_code == 400 and "nope" in bad.get_json()["error"]["message"]


def test_descriptions_keep_formatting_and_lose_html():
    html = str(render_description("# Title\n\n**bold** <img src=x onerror=alert(1)>\n\n"
                                  "<script>alert(2)</script>"))
    assert "<strong>bold</strong>" in html and "<h3>Title</h3>" in html
    assert "<img" not in html and "<script" not in html
    assert str(render_description("")) == ""
