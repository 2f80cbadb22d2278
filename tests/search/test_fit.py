"""Which algorithms fit which tree: what the page offers."""
from app.search import SearchError, SearchOptions, algorithms_for, run
from app.search.tree import Node, Tree

from .trees import AIMA_5_2, nested


def test_two_player_tree_offers_alphabeta_first_and_iterative_only_with_evals():
    assert algorithms_for(nested(AIMA_5_2)) == ["alphabeta", "minimax", "pvs"]
    with_evals = nested(AIMA_5_2, evals={"B": 1, "C": 2, "D": 3})
    assert algorithms_for(with_evals) == ["alphabeta", "minimax", "iterative", "pvs"]


def test_three_players_and_chance_offer_their_own_algorithm():
    assert algorithms_for(nested([[(1, 2, 3)]], players=("A", "B", "C"))) == ["maxn"]
    c1 = Node(id="c1", label="c1", player=1, depth=2, value=1, probability=1.0)
    tree = Tree(root=Node(id="A", label="A", player=0, depth=0, children=(
        Node(id="C", label="C", player=1, depth=1, chance=True, children=(c1,)),)))
    assert algorithms_for(tree) == ["expectiminimax"]


def test_every_offered_algorithm_runs_and_the_others_are_refused():
    tree = nested(AIMA_5_2)
    offered = algorithms_for(tree)
    for alg in offered:
        assert list(run(tree, SearchOptions(algorithm=alg)))[-1]["value"] == 3
    for alg in {"maxn", "iterative"} - set(offered):
        try:
            run(tree, SearchOptions(algorithm=alg))
        except SearchError:
            continue
        raise AssertionError(f"{alg} was not refused")
