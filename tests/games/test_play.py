"""Playing against the search: the API's answers are the search's own best
moves, and the play page works for each game in the real browser."""
from __future__ import annotations

import html

import pytest

from app.games.ids import resolve
from app.search.states import kind_of, move_words
from app.games.play import answer, position
from app.search import SearchOptions, run


@pytest.mark.parametrize("game_id, options", [
    ("game:tictactoe:x...o....", ("alphabeta", None, "given")),
    ("game:tictactoe:xo..x....", ("minimax", 2, "given")),
    ("game:nim:6-1:min", ("minimax", None, "given")),
    ("game:connect4:44", ("alphabeta", 4, "given")),
    ("game:connect4:4", ("minimax", 3, "random")),
])
def test_the_computers_move_is_the_searchs_best_move(game_id, options):
    algorithm, depth, order = options
    got = answer(game_id, algorithm, depth, order)
    done = list(run(resolve(game_id), SearchOptions(algorithm=algorithm, depth=depth, order=order)))[-1]
    assert got["move"] == done["best_move"] and got["value"] == done["value"]
    assert got["evaluated"] == done["stats"]["evaluated"]
    assert got["position"] in {m["position"] for m in position(game_id)["moves"]}


def test_api_plays_a_move_and_answers(client):
    res = client.post("/api/play", json={"position": "game:tictactoe", "move": "X5",
                                         "algorithm": "alphabeta", "order": "best"})
    assert res.status_code == 200, res.get_json()
    out = res.get_json()
    assert out["before"]["id"] == "game:tictactoe"
    c = out["computer"]
    assert c["searched"] == "game:tictactoe:....x...."
    assert c["why"] == "/t/game:tictactoe:....x....?algorithm=alphabeta&order=best&step=1"
    assert out["position"]["id"] == c["position"] and out["position"]["to_move"] == "MAX"
    assert c["move"] in {"O1", "O3", "O7", "O9"}          # only corners hold the draw
    assert c["value"] == 0


def test_api_refusals_are_clear_json(client):
    for body, word in (({"position": "game:tictactoe", "move": "X10"}, "not a legal move"),
                       ({"position": "game:tictactoe:xxxoo....", "move": "O6"}, "game is over"),
                       ({"position": "game:go"}, "unknown game"),
                       ({"position": 5}, "position"),
                       ({"position": "game:connect4", "depth": 9}, "depth limit from 1 to 8"),
                       ({"position": "game:connect4", "algorithm": "minimax", "depth": 7},
                        "minimax on Connect Four"),
                       ({"position": "game:nim:7", "depth": 2}, "no evaluation function")):
        res = client.post("/api/play", json=body)
        assert res.status_code == 400, body
        assert word in res.get_json()["error"]["message"], body
    assert client.post("/api/play", data="x", content_type="text/plain").status_code == 400


def test_a_finished_game_says_who_won(client):
    out = client.post("/api/play", json={"position": "game:tictactoe:xx.oo....", "move": "X3"}).get_json()
    assert out["position"]["over"] and out["position"]["result"] == "MAX wins"
    assert "computer" not in out
    assert position("game:nim:2-1")["result"] == "MIN wins"


@pytest.mark.browser
@pytest.mark.parametrize("game, first", [("tictactoe", "X5"), ("nim", "6+1"), ("connect4", "X4")])
def test_play_page_in_the_browser(page, live_server, game, first):
    page.goto(f"{live_server}/play/{game}")
    page.wait_for_selector(f'[data-move="{first}"]')
    before = page.locator("#play").get_attribute("data-position")
    page.click(f'[data-move="{first}"]')
    page.wait_for_selector("[data-action=why]")
    after = page.locator("#play").get_attribute("data-position")
    assert after != before
    assert page.locator("[data-role=history] li").count() == 2
    href = page.locator("[data-action=why]").get_attribute("href")
    # The answer is the search's best move in the position it searched.
    searched = href.split("/t/")[1].split("?")[0]
    opts = dict(kv.split("=") for kv in href.split("?")[1].split("&"))
    done = list(run(resolve(searched), SearchOptions(
        algorithm=opts["algorithm"], depth=int(opts["depth"]) if "depth" in opts else None,
        order=opts["order"])))[-1]
    assert after == answer(searched, opts["algorithm"], int(opts["depth"]) if "depth" in opts else None,
                           opts["order"])["position"]
    # The computer's move in words, as the narration says it ("O in the top-left corner", "X in column 4").
    tree = resolve(searched)
    best = next(c for c in tree.root.children if c.id == done["best_move"])
    said = move_words(kind_of(tree.root.label, [best.label]) if game != "nim" else "nim",
                      tree.root.label, best.label)
    assert said.split(" to ")[0] in page.locator("[data-role=history] li").nth(1).inner_text()
    # "Why this move?" opens that search in the visualizer at its first step.
    page.click("[data-action=why]")
    page.wait_for_selector("#visualizer.ready")
    assert page.locator("[data-step]").text_content() == "1"
    assert page.locator("[data-node=start]").get_attribute("data-status") == "active"


@pytest.mark.browser
def test_play_page_on_a_phone_plays_to_the_end(browser, live_server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True)
    page = context.new_page()
    page.goto(f"{live_server}/play/tictactoe")
    for _ in range(5):
        if page.locator("#play").get_attribute("data-over") == "true":
            break
        page.locator("[data-move]").first.tap()
        page.wait_for_function("() => document.querySelector('#play').dataset.over === 'true' || "
                               "document.querySelector('[data-move]')")
        page.wait_for_timeout(200)
    assert page.locator("#play").get_attribute("data-over") == "true"
    assert "Game over: MIN wins" in page.locator("[data-role=turn]").inner_text()  # naive X loses
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390
    page.screenshot(path="test-artifacts/play-tictactoe-phone-end.png", full_page=True)
    context.close()


@pytest.mark.parametrize("position_id", ["game:tictactoe:x...o....", "game:nim:5",
                                         "game:connect4:44"])
def test_every_algorithm_answers_a_play_or_is_refused_clearly(client, position_id):
    """Issue 25 (7): ``"algorithm": "mcts"`` answered 500 (no RET events, so no best move)."""
    from app.search.descriptors import ALGORITHMS

    for algorithm in ALGORITHMS:
        depth = 3 if "connect4" in position_id else None
        res = client.post("/api/play", json={"position": position_id, "algorithm": algorithm,
                                             "depth": depth, "seed": 1, "iterations": 300})
        body = res.get_json()
        assert res.status_code in (200, 400), (algorithm, res.status_code, body)
        if res.status_code == 400:
            assert body["error"]["message"], algorithm
            continue
        moves = {m["name"] for m in position(position_id)["moves"]}
        assert body["computer"]["move"] in moves, algorithm
        assert body["computer"]["options"]["algorithm"] == algorithm


def test_mcts_is_refused_with_its_records_reason_in_the_readers_language(client):
    # Issue 25 (7): it answered 500 (no backed-up value, so no best move); now its
    # record says why the play page's computer cannot play by it, whatever it is asked
    from app.search.descriptors import get
    from app.i18n import words
    for lang in ("en", "id"):
        for extra in ({}, {"iterations": 5_000_000}):
            res = client.post(f"/api/play?lang={lang}", json={
                "position": "game:tictactoe", "algorithm": "mcts", **extra})
            assert res.status_code == 400, (lang, extra, res.status_code)
            said = words(lang)(get("mcts").reason("play"), algorithm="mcts")
            assert said in res.get_json()["error"]["message"], (lang, res.get_json())
    page = client.get("/play/tictactoe").get_data(as_text=True)
    assert 'option value="alphabeta"' in page and 'option value="mcts"' not in page


def test_api_refuses_an_algorithm_the_page_does_not_offer(client):
    # Monte Carlo tree search has no value to play by (it was a 500: no move found)
    res = client.post("/api/play", json={"position": "game:tictactoe:xo.x.o...",
                                         "algorithm": "mcts"})
    assert res.status_code == 400, res.status_code
    assert res.get_json()["error"]["message"]
    ok = client.post("/api/play", json={"position": "game:tictactoe:xo.x.o...",
                                        "algorithm": "pvs"})
    plain = client.post("/api/play", json={"position": "game:tictactoe:xo.x.o...",
                                           "algorithm": "minimax"})
    assert ok.status_code == 200 and ok.get_json()["computer"]["move"] == \
        plain.get_json()["computer"]["move"]


@pytest.mark.parametrize("position, english, indonesian", [
    ("game:nim:abc", "Nim piles are whole numbers of at least 1 token",
     "tumpukan Nim adalah bilangan bulat, paling sedikit 1 token"),
    ("game:nim:30-20", "Nim from rules is searched for at most 40 tokens",
     "Nim dari aturannya ditelusuri untuk paling banyak 40 token"),
    ("game:nim:7:first", "who moves first is max or min",
     "yang melangkah pertama adalah max atau min"),
    ("game:tictactoe:xxx", "a tic-tac-toe position is 9 cells of x, o or '.', row by row",
     "posisi tic-tac-toe adalah 9 sel berisi x, o, atau '.', baris demi baris"),
    ("game:tictactoe:xxxxooooo", "X moves first, so X has as many marks as O or one more",
     "X melangkah pertama, jadi tanda X sama banyak dengan O atau lebih satu"),
    ("game:connect4:8", "Connect Four moves are columns 1-7",
     "langkah Connect Four adalah kolom 1-7"),
    ("game:connect4:1111111", "column 1 cannot be played in that position",
     "kolom 1 tidak dapat dimainkan pada posisi itu"),
])
def test_a_game_ids_reason_is_said_in_the_readers_language(client, position, english,
                                                           indonesian):
    """A position named by a link (the API, the visualizer, the play page) that
    is no position: its reason in the reader's language, never Python's words."""
    for lang, reason in (("en", english), ("id", indonesian)):
        said = client.get(f"/api/trees/{position}?lang={lang}").json["error"]["message"]
        assert said == f"{position}: {reason}", said
    page = client.get(f"/play/{position.split(':')[1]}?position={position}&lang=id")
    assert page.status_code == 404 and f"{position}: {indonesian}" in html.unescape(page.get_data(as_text=True))
