"""The library folder is listed in the course's order (trees/order.txt)."""
from pathlib import Path

from app.treefile.library import library_paths

ROOT = Path(__file__).resolve().parents[2]


def test_order_file_first_then_the_rest_by_name(tmp_path):
    for name in ("b.yaml", "a.yaml", "c.json", "notes.txt"):
        (tmp_path / name).write_text("x")
    (tmp_path / "order.txt").write_text("# course order\nc\n\nb  # second\nmissing\n")
    assert [p.name for p in library_paths(tmp_path)] == ["c.json", "b.yaml", "a.yaml"]


def test_without_an_order_file_names_decide(tmp_path):
    for name in ("b.yaml", "a.yml"):
        (tmp_path / name).write_text("x")
    assert [p.name for p in library_paths(tmp_path)] == ["a.yml", "b.yaml"]
    assert library_paths(tmp_path / "absent") == []


def test_the_lecture_library_starts_with_aima_and_names_only_real_trees():
    paths = library_paths(ROOT / "trees")
    assert paths[0].stem == "aima-fig-5-2"
    stems = {p.stem for p in paths}
    listed = [line.split("#")[0].strip() for line in
              (ROOT / "trees" / "order.txt").read_text().splitlines()]
    assert {name for name in listed if name} <= stems
