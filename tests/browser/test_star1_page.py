"""Star1 in the page, practice and a class; iterative deepening that cannot run
says which node has no eval (issue 20, point 6). One page load each."""
from __future__ import annotations

import pytest
import requests

pytestmark = pytest.mark.browser


def test_star1_in_the_visualizer_practice_and_a_class(page, live_server):
    page.goto("/t/star1-prunes?step=29")
    page.wait_for_selector("#visualizer.ready")   # started, and at the asked step
    assert page.locator("#options select[name=algorithm], select[name=algorithm]").first \
        .input_value() == "star1"
    assert page.locator("[data-step]").text_content().strip() == "29"
    sentence = page.locator("#narration, .narration").first.text_content()
    assert "0.5 × 2 + 0.5 × 10 = 6 ≤ α = 7.5" in sentence
    assert page.locator("[data-node=c2]").get_attribute("data-status") == "pruned"
    assert page.locator("[data-node=C]").get_attribute("data-alpha") == "7.5"
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelector('[data-node=\"D\"]')"
                           ".getAttribute('data-value') === '7'")
    assert page.locator("[data-node=C]").get_attribute("data-value") == "6"   # the bound C returned
    assert page.locator("[data-node=d2]").get_attribute("data-status") == "pruned"

    # Practice grades Star1's cuts; its link opens the run with star1.
    page.goto("/practice/star1-prunes?mode=cuts")
    page.wait_for_selector("#practice.ready")   # the link is the page's once its script ran
    assert "algorithm=star1" in page.locator("[data-action=visualize]").get_attribute("href")

    # A class runs it: the student page draws the tree and follows step 0.
    made = requests.post(f"{live_server}/api/classes", timeout=10,
                         json={"tree": "star1-prunes", "algorithm": "star1"})
    assert made.status_code == 201, made.text
    page.goto(made.json()["join"])
    page.wait_for_selector("[data-node=c2]")


def test_iterative_deepening_without_evals_says_which_node(page):
    page.goto("/t/aima-fig-5-2?algorithm=iterative")
    alert = page.locator("#run-alert")
    alert.wait_for(state="visible")
    assert "B (depth 1) has no eval" in alert.text_content()
    assert page.locator("[data-node=B]").get_attribute("data-status") == "unvisited"
