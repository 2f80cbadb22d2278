"""The committed rule-made trees are what the rules give now."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from app.games import build
from app.treefile import load_path, load_tree, tree_to_dict

REPO = build.TREES_DIR.parent


@pytest.mark.parametrize("tree_id", sorted(build.GENERATED))
def test_committed_tree_equals_generated(tree_id):
    """Same tree, node for node (ids, labels, players, values, evals, text);
    the YAML layout itself belongs to app.treefile's writer."""
    committed = tree_to_dict(load_path(build.TREES_DIR / f"{tree_id}.yaml"))
    fresh = tree_to_dict(load_tree(json.dumps(build.GENERATED[tree_id]()), fmt="json"))
    assert committed == fresh, f"trees/{tree_id}.yaml is stale: run python -m app.games.build"


def test_script_writes_and_checks(tmp_path):
    assert build.main(["--out", str(tmp_path)]) == 0
    assert sorted(p.stem for p in tmp_path.glob("*.yaml")) == sorted(build.GENERATED)
    assert (tmp_path / "nim-7.yaml").read_text(encoding="utf-8") == build.render("nim-7")
    check = subprocess.run([sys.executable, "-m", "app.games.build", "--check", "--out", str(tmp_path)],
                           cwd=REPO, capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stderr
    (tmp_path / "nim-7.yaml").write_text("title: stale\n", encoding="utf-8")
    stale = subprocess.run([sys.executable, "-m", "app.games.build", "--check", "--out", str(tmp_path)],
                           cwd=REPO, capture_output=True, text=True, timeout=120)
    assert stale.returncode == 1 and "nim-7.yaml" in stale.stderr
