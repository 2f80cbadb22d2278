"""Worksheets: the question hides the answers, the key shows them, pages fit A4."""
from __future__ import annotations

import re

import pytest

from app.games.random_tree import random_tree
from app.render.pdf import A4
from app.render.worksheet import exam, worksheet, worksheet_pages
from app.search import SearchOptions, run

from .helpers import page_text, pdf_pages

AB = SearchOptions(algorithm="alphabeta")


def is_a4(page) -> bool:
    size = sorted((float(page.mediabox.width), float(page.mediabox.height)))
    return abs(size[0] - A4[0]) < 1 and abs(size[1] - A4[1]) < 1


def test_question_and_answer_key(fig52):
    pages = pdf_pages(worksheet(fig52, AB))
    assert len(pages) == 2 and all(is_a4(p) for p in pages)
    question, key = page_text(pages[0]), page_text(pages[1])
    assert "Name:" in question and "alpha-beta" in question
    assert "Russell & Norvig" in question
    assert "α = ______" in question
    for answer in ("Value of the root", "Pruned", "α = 3"):
        assert answer not in question
    assert "Answer key" in key
    assert "Value of the root: 3" in key and "Best move: B" in key
    assert "Evaluated, in order: b1, b2, b3, c1, d1, d2, d3" in key
    assert "Pruned: c2, c3" in key
    assert "7 static evaluations where plain minimax makes 9" in key


@pytest.mark.slow
def test_flip_book_has_one_page_per_step(fig52):
    total = len(list(run(fig52, AB)))
    pages = pdf_pages(worksheet(fig52, AB, steps=True))
    assert len(pages) == 2 + total + 1
    assert "Start: nothing searched yet" in page_text(pages[2])
    assert f"Step 1 of {total}" in page_text(pages[3])
    assert f"Step {total} of {total}" in page_text(pages[-1])


def test_wide_trees_go_landscape_and_deep_ones_portrait():
    wide = random_tree(branching=7, depth=2, seed=1)
    deep = random_tree(branching=2, depth=6, values=(0, 9), seed=2)
    chain = random_tree(branching=1, depth=9, seed=3)
    wide_page = pdf_pages(worksheet(wide, AB))[0]
    assert wide_page.mediabox.width > wide_page.mediabox.height
    chain_page = pdf_pages(worksheet(chain, SearchOptions(algorithm="minimax")))[0]
    assert chain_page.mediabox.width < chain_page.mediabox.height
    assert len(pdf_pages(worksheet(deep, AB))) == 2


def test_minimax_sheet_asks_for_values_not_bounds(fig52):
    question = page_text(pdf_pages(worksheet(fig52, SearchOptions(algorithm="minimax")))[0])
    assert "minimax value" in question and "α" not in question


def test_exam_has_one_question_and_one_answer_per_tree():
    trees = [random_tree(branching=(2, 3), depth=3, values=(-9, 9), seed=s) for s in (5, 6, 7)]
    questions, answers = exam(trees, AB, title="Quiz")
    q, a = pdf_pages(questions), pdf_pages(answers)
    assert len(q) == 3 and len(a) == 3
    for number, (qp, ap, tree) in enumerate(zip(q, a, trees), 1):
        qt, at = page_text(qp), page_text(ap)
        assert f"Quiz, question {number}" in qt and f"Quiz, question {number}" in at
        assert "Value of the root" not in qt
        done = list(run(tree, AB))[-1]
        assert f"Value of the root: {done['value']}".replace("-", "−") in at


def test_nodes_keep_their_place_on_every_page(fig52):
    pages = worksheet_pages(fig52, AB, steps=True)
    places = []
    for dot in pages:
        found = {i: pos for i, pos in re.findall(
            r'id="([^"]+)", class="[^"]*", shape="[^"]*", fixedsize="true", '
            r'width=[\d.]+, height=[\d.]+, pos="([^"]+)"', dot) if not i.startswith("_order:")}
        assert set(found) == {n.id for n in fig52.nodes}
        places.append(found)
    assert all(p == places[0] for p in places)


def test_sheets_for_chance_and_multiplayer_trees(chance_tree, maxn_tree):
    for tree, algorithm, answer in ((chance_tree, "expectiminimax", "Value of the root: 2.5"),
                                    (maxn_tree, "maxn", "Value of the root: (7, 4, 1)")):
        pages = pdf_pages(worksheet(tree, SearchOptions(algorithm=algorithm)))
        assert len(pages) == 2
        assert answer in page_text(pages[1]) and answer not in page_text(pages[0])


def test_a_big_tree_s_answer_lists_are_cut_short():
    from app.render.worksheet import LISTED, _listing

    labels = [f"leaf-{i}" for i in range(LISTED + 500)]
    text = _listing(labels)
    assert text.startswith("leaf-0, leaf-1") and text.endswith("… and 500 more")
    assert f"leaf-{LISTED}," not in text
    assert _listing(labels[:3]) == "leaf-0, leaf-1, leaf-2"


def test_a_worksheet_is_the_size_of_graphviz_s_own_pdfs():
    # Fitting the pages on A4 once re-wrote every drawing's content uncompressed
    # (pypdf's merge): 2.8x Graphviz's bytes here, 7x (1.2 MB) and 2-4 s of
    # joining on a 1,093-node tree.
    from app.render.engine import draw_pdf_pages
    from app.render.pdf import join

    tree = random_tree(branching=3, depth=4, seed=1)   # 121 nodes
    drawn = draw_pdf_pages(worksheet_pages(tree, AB))
    sheets = join(drawn)
    assert len(sheets) < 1.2 * sum(len(p) for p in drawn), (len(sheets), [len(p) for p in drawn])
    pages = pdf_pages(sheets)
    assert len(pages) == 2 and all(is_a4(p) for p in pages)
    assert "Answer key" in page_text(pages[1])
    for page in pages:   # the drawing is scaled onto the sheet, inside its margins
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        spots = []
        page.extract_text(visitor_text=lambda text, cm, tm, font, size: spots.append(
            (tm[4] * cm[0] + tm[5] * cm[2] + cm[4], tm[4] * cm[1] + tm[5] * cm[3] + cm[5]))
            if text.strip() else None)
        assert len(spots) > 100
        assert all(30 < x < width - 30 and 30 < y < height - 30 for x, y in spots), \
            (width, height, min(spots), max(spots))
