"""Each output format is the real thing: PNG, PDF, DOT and TikZ, and bad requests fail."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from app.render import RenderError, export, filename, parse_step
from app.search import SearchError, SearchOptions

from .helpers import pdf_pages, png_size

AB = SearchOptions(algorithm="alphabeta")


def test_png_has_a_sensible_size(fig52):
    width, height = png_size(export(fig52, AB, None, "png"))
    # 9 leaves side by side at 144 dpi: wider than tall, big enough for a slide.
    assert 1000 < width < 4000 and 500 < height < 3000
    assert width > height


def test_png_grows_with_the_tree(fig52, chance_tree):
    small = png_size(export(chance_tree, SearchOptions(algorithm="expectiminimax"), 0, "png"))
    big = png_size(export(fig52, AB, 0, "png"))
    assert big[0] > small[0]


def test_pdf_is_one_real_page(fig52):
    data = export(fig52, AB, 7, "pdf")
    pages = pdf_pages(data)
    assert len(pages) == 1
    assert float(pages[0].mediabox.width) > float(pages[0].mediabox.height)
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", "-"], input=data, capture_output=True, check=True)
        assert re.search(rb"Pages:\s+1\b", info.stdout)
    assert "Figure 5.2" in pages[0].extract_text()


def test_dot_is_graphviz_source_with_positions(fig52):
    dot = export(fig52, AB, None, "dot").decode()
    assert dot.startswith("digraph tree {") and dot.rstrip().endswith("}")
    for node in fig52.nodes:
        assert f'id="{node.id}"' in dot
    assert dot.count("pos=") >= len(fig52.nodes)
    assert 'class="leaf pruned cut"' in dot


def test_tikz_is_a_forest_document(fig52):
    source = export(fig52, AB, None, "tikz").decode()
    assert source.index(r"\documentclass") < source.index(r"\usepackage{forest}") \
        < source.index(r"\begin{document}") < source.index(r"\begin{forest}") \
        < source.index(r"\end{forest}") < source.index(r"\end{document}")
    body = source[source.index(r"\begin{forest}"):source.index(r"\end{forest}")]
    nodes = re.findall(r"^\s*\[\{([^}]*)\}, (\w+), (\w+)", body, re.M)
    assert len(nodes) == len(fig52.nodes)
    assert nodes[0] == ("$3$", "max", "visited")
    assert [n for n in nodes if n[2] == "pruned"] == [("$4$", "leaf", "pruned"),
                                                       ("$6$", "leaf", "pruned")]
    assert body.count("[") == body.count("]")  # every node closed
    assert body.count(r"node[cutmark]") == 2
    for style in ("max/.style", "min/.style", "leaf/.style", "pruned/.style", "active/.style"):
        assert style in source
    assert r"$\alpha$-cut" in body


def test_tikz_step_zero_has_no_values_inside(fig52):
    body = export(fig52, AB, 0, "tikz").decode()
    inner = re.findall(r"\[\{([^}]*)\}, (max|min)", body)
    assert inner and all(value == "" for value, _ in inner)


def test_bad_requests_are_refused(fig52, maxn_tree):
    with pytest.raises(RenderError, match="past the end"):
        export(fig52, AB, 999, "svg")
    with pytest.raises(RenderError, match="unknown format"):
        export(fig52, AB, None, "gif")
    with pytest.raises(SearchError):
        export(maxn_tree, AB, None, "svg")
    for bad in ("-1", "x", "1.5"):
        with pytest.raises(RenderError):
            parse_step(bad)
    assert parse_step("end") is None and parse_step(" 3 ") == 3


def test_download_names_are_plain_ascii():
    name = filename("AIMA fig 5.2 <x>/é", AB, 5, "tikz")
    assert name == "AIMA-fig-5-2-x-alphabeta-step-5.tex"
    assert filename("t", SearchOptions(), None, "svg") == "t-default-end.svg"
