"""The page narrates as the server does: static/js/core/narrate.js, fed the compact
records of a run (app.search.compact), makes the very events app.search.run
yields (type, step, node, bounds, value, changes, pseudocode lines, the
sentence in the page's language, the summary), in real Chromium.

Corpus: every tree of the lecture library with every algorithm that fits it
and every option (strict, orders, style, a depth limit), in English and
Indonesian; random trees with awkward labels and player names (quotes,
backslashes, tabs, other scripts) and awkward values (floats, float noise,
infinities), chance nodes and three players; the games searched lazily
(tic-tac-toe from positions, Nim, Connect Four with a depth limit).
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from app.games.ids import resolve
from app.games.random_tree import random_tree
from app.i18n import words
from app.search import SearchOptions, algorithms_for, run
from app.search.descriptors import get
from app.search.compact import records
from app.search.tree import Node, Tree
from app.treefile import load_path, tree_to_dict

pytestmark = pytest.mark.browser

TREES = sorted((Path(__file__).resolve().parents[2] / "trees").glob("*.yaml"))

# In the page: each case's records narrated (the tree read as the page reads the API's).
# The records cross as their own JSON text, parsed in the page as the stream's
# are (Playwright's argument encoding of them was most of the test's time).
NARRATE_JS = """async (cases) => {
  const { makeNarrator } = await import('/static/js/core/narrate.js');
  const { readTree } = await import('/static/js/core/tree.js');
  return cases.map(([treeJson, recsText]) => {
    const recs = JSON.parse(recsText);
    const tree = treeJson ? readTree(treeJson) : null;
    const narrator = makeNarrator(tree);
    const out = [];
    // In pulls of a few records, as the stream brings them.
    for (let i = 0; i < recs.length; i += 7) out.push(...narrator.feed(recs.slice(i, i + 7)));
    return JSON.stringify(out);
  });
}"""


def case(tree, opts: SearchOptions, lang: str | None) -> tuple:
    """(tree JSON or None for a lazy game, records, the expected events)."""
    say = words(lang) if lang else None
    want = json.loads(json.dumps(list(run(tree, opts, say)), ensure_ascii=False))
    recs = "[" + ",".join(text for text, _ in records(tree, opts, say)) + "]"
    tree_json = None if getattr(tree, "lazy", False) else tree_to_dict(tree, explicit_ids=True)
    return tree_json, recs, want


def check(pg, cases: list[tuple], names: list[str]) -> None:
    got = pg.evaluate(NARRATE_JS, [[c[0], c[1]] for c in cases])
    for name, (_, _, want), text in zip(names, cases, got):
        have = json.loads(text)
        assert len(have) == len(want), f"{name}: {len(have)} events, the server has {len(want)}"
        for k, (a, b) in enumerate(zip(have, want)):
            assert a == b, f"{name}: event {k + 1} differs:\npage   {a}\nserver {b}"


def option_sets(tree) -> list[SearchOptions]:
    out = []
    evals = all(n.eval is not None for n in tree.nodes if n.children and n.depth == 2)
    for alg in algorithms_for(tree):
        if not get(alg).compact:   # (its events come as JSON: the page narrates none)
            continue
        if "iterations" in get(alg).options:   # (Monte Carlo tree search: its own test below)
            continue
        for extra in ({}, {"strict": True}, {"order": "best"}, {"order": "worst"},
                      {"order": "random", "seed": 3}, {"style": "wikipedia"},
                      {"style": "wikipedia", "strict": True, "order": "random", "seed": 9},
                      {"depth": 2} if evals and tree.height > 2 else None,
                      {"depth": 1} if evals and alg == "iterative" else None):
            if extra is not None:
                out.append(SearchOptions(algorithm=alg, **extra))
    return out


def open_in(browser, live_server, lang: str):
    context = browser.new_context(base_url=live_server)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(f"/?lang={lang}")
    assert pg.evaluate("document.documentElement.lang") == lang
    return context, pg, errors


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "id"])
def test_the_lecture_library(browser, live_server, lang):
    context, pg, errors = open_in(browser, live_server, lang)
    cases, names = [], []
    for path in TREES:
        tree = load_path(path)
        for opts in option_sets(tree):
            cases.append(case(tree, opts, lang))
            names.append(f"{path.stem} {opts}")
    assert len(cases) > 100
    check(pg, cases, names)
    context.close()
    assert not errors


def awkward(tree: Tree, rng: random.Random, players: tuple[str, ...], values=None,
            often: float = 0.5) -> Tree:
    """The tree with awkward labels and values (the leaves of two-player trees)."""
    labels = ['a"b', "back\\slash", "tab\there", "Ω", "", "root", " ROOT ", "x{y}", "–1", "é"]
    values = values or [0.1 + 0.2, 2.5, -3, 1e-7, 1234567.5, 0.125, float("inf"), -float("inf"),
                        7, 1e21]

    def build(n: Node) -> Node:
        value = n.value
        if not n.children and not isinstance(value, tuple) and rng.random() < often:
            value = rng.choice(values)
        return Node(id=n.id, label=rng.choice(labels) or n.id, player=n.player, depth=n.depth,
                    children=tuple(build(c) for c in n.children), value=value, eval=n.eval,
                    chance=n.chance, probability=n.probability)
    return Tree(root=build(tree.root), players=players, title=tree.title)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "id"])
def test_random_trees_with_awkward_labels(browser, live_server, lang):
    context, pg, errors = open_in(browser, live_server, lang)
    rng = random.Random(2026)
    cases, names = [], []
    for seed in range(24):
        players = rng.choice([("MAX", "MIN"), ('Ann "A"', "B\\b"), ("Ω", "\t")])
        plain = random_tree(branching=(2, 4), depth=rng.choice([3, 4]), seed=seed, evals=True)
        tree = awkward(plain, rng, players)
        for opts in (SearchOptions(algorithm="alphabeta", order=rng.choice(["given", "best", "worst", "random"]),
                                   seed=seed, strict=rng.random() < 0.5),
                     SearchOptions(algorithm="alphabeta", depth=2, style="wikipedia"),
                     SearchOptions(algorithm="minimax", depth=rng.choice([None, 1, 2])),
                     SearchOptions(algorithm="iterative", order="random", seed=seed)):
            cases.append(case(tree, opts, lang))
            names.append(f"random {seed} {opts}")
    for seed in range(8):   # chance nodes and three players
        chance = random_tree(branching=(2, 3), depth=4, seed=seed, chance=True, evals=True)
        cases.append(case(chance, SearchOptions(algorithm="expectiminimax", order="random",
                                                seed=seed), lang))
        names.append(f"chance {seed}")
        multi = random_tree(branching=(2, 3), depth=4, seed=seed, players=3, evals=True)
        cases.append(case(multi, SearchOptions(algorithm="maxn", depth=rng.choice([None, 2])),
                          lang))
        names.append(f"maxn {seed}")
    check(pg, cases, names)
    context.close()
    assert not errors


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "id"])
def test_the_games(browser, live_server, lang):
    context, pg, errors = open_in(browser, live_server, lang)
    cases, names = [], []
    for game, depth in [("game:tictactoe:xo.x.o...", None), ("game:tictactoe:x...o....", None),
                        ("game:tictactoe", 2), ("game:nim:7", None), ("game:nim:9", None),
                        ("game:connect4", 2)]:
        for opts in (SearchOptions(algorithm="minimax", depth=depth),
                     SearchOptions(algorithm="alphabeta", depth=depth),
                     SearchOptions(algorithm="alphabeta", depth=depth, strict=True, seed=5,
                                   order="random" if "connect4" in game else "best")):
            cases.append(case(resolve(game), opts, lang))
            names.append(f"{game} {opts}")
    tree = resolve("game:tictactoe:xo.x.o...")
    cases.append(case(tree, SearchOptions(algorithm="iterative"), lang))
    names.append("tic-tac-toe, iterative deepening")
    check(pg, cases, names)
    context.close()
    assert not errors


def mcts_cases(lang: str, monkeypatch) -> tuple[list, list]:
    """Monte Carlo tree search (compact_mcts.py's records, narrate-mcts.js): Fig. 5.2
    with seeds and explorations, every library tree it takes (a depth limit where
    the tree has evals), awkward floats (means and UCB1 numbers on rounding ties),
    a root that is a leaf, and the games: tic-tac-toe with its moves in words and
    past WORDS_UP_TO without, a depth limit, Nim, Connect Four's bitboard playouts,
    and tree files that are games."""
    from app.search import narrate_mcts
    cases, names = [], []

    def add(name, tree, **options):
        opts = SearchOptions(algorithm="mcts", **options)
        cases.append(case(tree, opts, lang))
        names.append(f"{name} {opts}")

    fig52 = load_path(TREES[0].parent / "aima-fig-5-2.yaml")
    add("fig52", fig52, iterations=200, seed=1)
    add("fig52", fig52, iterations=60, seed=7, exploration=0.5)
    add("fig52", fig52, iterations=30, seed=2, exploration=0)
    for path in TREES:
        tree = load_path(path)
        if "mcts" not in algorithms_for(tree, whatif=False):
            continue
        add(path.stem, tree, iterations=40, seed=3)
        if tree.height > 2 and all(n.eval is not None for n in tree.nodes
                                   if n.children and n.depth == 2):
            add(path.stem, tree, iterations=40, seed=4, depth=2)
    rng = random.Random(30)
    quarters = [0.125, 0.0625, 0.1875, 2.5, -3, 1e-7, 0.1 + 0.2, 2.675, 1.005, -0.3125, 7]
    for seed in range(4):   # float leaves: means k/16 and k/8 round on ties (half to even)
        plain = random_tree(branching=(2, 3), depth=3, seed=seed, evals=True)
        add(f"awkward {seed}", awkward(plain, rng, ("MAX", "MIN"), quarters, 0.8),
            iterations=120, seed=seed)
    add("a leaf", Tree(root=Node(id="A", label="A", player=0, depth=0, value=0.0625)),
        iterations=5)
    add("tic-tac-toe", resolve("game:tictactoe"), iterations=150, seed=1)
    with monkeypatch.context() as m:   # a run longer than WORDS_UP_TO: no moves in words
        m.setattr(narrate_mcts, "WORDS_UP_TO", 59)
        add("tic-tac-toe", resolve("game:tictactoe"), iterations=60, seed=2)
    assert not any("moves" in e or "move" in str(e.get("children")) for e in cases[-1][2])
    add("tic-tac-toe", resolve("game:tictactoe:xo.x.o..."), iterations=80, seed=5)
    add("tic-tac-toe", resolve("game:tictactoe"), iterations=60, seed=6, depth=2)
    add("nim", resolve("game:nim:7"), iterations=50, seed=1)
    add("connect four", resolve("game:connect4"), iterations=40, seed=1)
    add("connect four", resolve("game:connect4"), iterations=30, seed=2, depth=3)
    for stem in ("nim-7-luger", "tictactoe-two-ply"):
        add(stem, load_path(TREES[0].parent / f"{stem}.yaml"), iterations=60, seed=1)
    return cases, names


# Python's round(x, d) in the page (narrate-numbers.js), where the means and UCB1
# numbers are rounded: half to even on the exact value.
ROUND_JS = """async (xs) => {
  const { round } = await import('/static/js/core/narrate-numbers.js');
  return xs.map(([x, d]) => round(x, d));
}"""


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "id"])
def test_monte_carlo_tree_search(browser, live_server, lang, monkeypatch):
    context, pg, errors = open_in(browser, live_server, lang)
    cases, names = mcts_cases(lang, monkeypatch)
    check(pg, cases, names)
    if lang == "en":
        rng = random.Random(4)
        xs = [(k / 16, 3) for k in range(-99, 100)] + [(k / 8, 2) for k in range(-99, 100)]
        xs += [(rng.uniform(-50, 50), d) for d in (2, 3) for _ in range(500)]
        xs += [(x, d) for x in (2.675, 1.005, 0.0005, 1e-7, 123456.0625, -0.0625) for d in (2, 3)]
        xs += [((k + 0.5) / 10 ** d, d) for d in (2, 3) for k in range(-300, 300)]   # near halves
        xs += [(x * 10 ** e, d) for x, d in xs[:400] for e in (5, 9)]   # large: the exact path
        assert pg.evaluate(ROUND_JS, xs) == [round(x, d) for x, d in xs]
    context.close()
    assert not errors


def test_the_page_pulls_compact_records_and_shows_what_the_server_says(page, viz, live_server):
    """The visualizer streams with ``encoding: "compact"`` (the server's
    narration only with ``?stream=json``), and each step shows the same
    sentence and hooks either way: Luger's Nim (a game's positions in words),
    Indonesian, stepped, then End and back."""
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))
    seen = {}
    for query in ("lang=id", "lang=id&stream=json"):
        viz.open(page, "nim-7-luger", query)
        shown = []
        for _ in range(12):
            page.keyboard.press("ArrowRight")
            viz.wait_step(page, len(shown) + 1)
            shown.append((page.locator("#narration").inner_text(), viz.nodes(page)))
        page.keyboard.press("End")
        page.wait_for_function("() => { const s = document.querySelector('[data-step]');"
                               " return s.dataset.total && s.textContent === s.dataset.total; }")
        page.keyboard.press("ArrowLeft")
        total = int(page.locator("[data-step]").get_attribute("data-total"))
        viz.wait_step(page, total - 1)
        shown.append((page.locator("#narration").inner_text(), viz.nodes(page)))
        seen[query] = shown
    pulls = [f for f in sent if '"pull"' in f]
    assert any('"encoding":"compact"' in f for f in pulls)
    assert any('"encoding":"json"' in f for f in pulls)
    page_said, server_said = seen["lang=id"], seen["lang=id&stream=json"]
    assert page_said == server_said
    assert any("tumpukan" in text or "dipecah" in text for text, _ in page_said)   # Nim in words
