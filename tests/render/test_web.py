"""``GET /api/trees/<id>/export.<fmt>`` and ``/worksheet.pdf``."""
from __future__ import annotations

import pytest

from .helpers import classes, groups, pdf_pages, png_size, svg_root


@pytest.fixture
def client(make_app, tmp_path, fig52_yaml):
    trees = tmp_path / "trees"
    trees.mkdir()
    (trees / "fig52.yaml").write_text(fig52_yaml, encoding="utf-8")
    return make_app(TREES_DIR=str(trees)).test_client()


def test_svg_of_a_step(client):
    r = client.get("/api/trees/fig52/export.svg?algorithm=alphabeta&step=5")
    assert r.status_code == 200
    assert r.headers["Content-Type"] == "image/svg+xml"
    assert 'filename="fig52-alphabeta-step-5.svg"' in r.headers["Content-Disposition"]
    assert "default-src 'none'" in r.headers["Content-Security-Policy"]
    g = groups(svg_root(r.data))
    assert sum("active" in classes(grp) for grp in g.values()) == 1


@pytest.mark.parametrize("fmt, media", [
    ("png", "image/png"), ("pdf", "application/pdf"),
    ("dot", "text/vnd.graphviz; charset=utf-8"), ("tikz", "application/x-tex; charset=utf-8"),
])
def test_each_format_with_its_type(client, fmt, media):
    r = client.get(f"/api/trees/fig52/export.{fmt}")
    assert r.status_code == 200 and r.headers["Content-Type"] == media
    ext = "tex" if fmt == "tikz" else fmt
    assert f'filename="fig52-alphabeta-end.{ext}"' in r.headers["Content-Disposition"]
    if fmt == "png":
        assert png_size(r.data)[0] > 500
    elif fmt == "pdf":
        assert len(pdf_pages(r.data)) == 1


def test_options_reach_the_picture(client):
    r = client.get("/api/trees/fig52/export.svg?algorithm=minimax&legend=0")
    g = groups(svg_root(r.data))
    assert "evaluated" in classes(g["c2"])  # minimax prunes nothing
    assert not any(i.startswith("_legend") for i in g)
    r = client.get("/api/trees/fig52/export.svg?step=0&order=worst&strict=1")
    assert "unvisited" in classes(groups(svg_root(r.data))["A"])


@pytest.mark.parametrize("url, status, argument", [
    ("/api/trees/fig52/export.svg?step=x", 400, "step"),
    ("/api/trees/fig52/export.svg?step=999", 400, None),
    ("/api/trees/fig52/export.svg?algorithm=maxn", 400, None),
    ("/api/trees/fig52/export.svg?depht=2", 400, "depht"),
    ("/api/trees/fig52/export.svg?legend=maybe", 400, "legend"),
    ("/api/trees/fig52/export.gif", 404, None),
    ("/api/trees/nope/export.svg", 404, None),
    ("/api/trees/fig52/worksheet.pdf?steps=2", 400, "steps"),
])
def test_errors_are_json(client, url, status, argument):
    r = client.get(url)
    assert r.status_code == status
    assert r.is_json and r.json["error"]["message"]
    if argument:
        assert r.json["error"]["argument"] == argument


@pytest.mark.slow
def test_worksheet_pdf(client):
    r = client.get("/api/trees/fig52/worksheet.pdf?algorithm=alphabeta")
    assert r.status_code == 200 and r.headers["Content-Type"] == "application/pdf"
    assert 'filename="fig52-worksheet.pdf"' in r.headers["Content-Disposition"]
    assert len(pdf_pages(r.data)) == 2
    r = client.get("/api/trees/fig52/worksheet.pdf?steps=1")
    assert len(pdf_pages(r.data)) > 20


def test_uploaded_tree_can_be_drawn(client, fig52_yaml):
    r = client.post("/api/trees", data=fig52_yaml.replace("AIMA", "My <b>"),
                    content_type="application/x-yaml")
    tree_id = r.json["id"]
    r = client.get(f"/api/trees/{tree_id}/export.svg")
    assert r.status_code == 200
    assert b"My &lt;b&gt;" in r.data
