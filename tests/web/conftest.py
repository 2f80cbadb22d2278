"""Web tests run on a small library of their own: AIMA Fig. 5.2 as ``fig52``."""
from __future__ import annotations

import pytest


@pytest.fixture
def trees_dir(tmp_path, fig52_yaml):
    folder = tmp_path / "trees"
    folder.mkdir()
    (folder / "fig52.yaml").write_text(fig52_yaml, encoding="utf-8")
    return folder


@pytest.fixture
def app(make_app, trees_dir):
    return make_app(TREES_DIR=str(trees_dir))

