"""``python -m app export`` and ``python -m app worksheet``."""
from __future__ import annotations

import pytest

from app.cli import common, main

from .helpers import classes, groups, pdf_pages, png_size, svg_root


@pytest.fixture
def fig52_file(tmp_path, fig52_yaml):
    path = tmp_path / "fig52.yaml"
    path.write_text(fig52_yaml, encoding="utf-8")
    return str(path)


def test_export_svg_at_a_step(fig52_file, tmp_path):
    out = tmp_path / "step5.svg"
    assert main(["export", fig52_file, "--algorithm", "alphabeta", "--step", "5",
                 "--format", "svg", "-o", str(out)]) == 0
    g = groups(svg_root(out.read_bytes()))
    assert sum("active" in classes(grp) for grp in g.values()) == 1
    assert "unvisited" in classes(g["d3"])


def test_format_follows_the_extension(fig52_file, tmp_path):
    out = tmp_path / "end.png"
    assert main(["export", fig52_file, "-o", str(out)]) == 0
    assert png_size(out.read_bytes())[0] > 500
    tex = tmp_path / "end.tex"
    assert main(["export", fig52_file, "--step", "0", "-o", str(tex)]) == 0
    assert r"\begin{forest}" in tex.read_text()


def test_export_to_standard_output(fig52_file, capsysbinary):
    assert main(["export", fig52_file, "--format", "dot", "--order", "random",
                 "--seed", "3", "--strict"]) == 0
    out = capsysbinary.readouterr().out
    assert out.startswith(b"digraph tree {")
    assert "strict pruning".encode() in out and b"random child order (seed 3)" in out


def test_export_a_library_tree_by_id(tmp_path, fig52_yaml, monkeypatch):
    (tmp_path / "fig52.yaml").write_text(fig52_yaml, encoding="utf-8")
    monkeypatch.setattr(common, "LIBRARY", tmp_path)
    out = tmp_path / "x.svg"
    assert main(["export", "fig52", "-o", str(out)]) == 0
    assert "pruned" in classes(groups(svg_root(out.read_bytes()))["c2"])


@pytest.mark.parametrize("argv, message", [
    (["--step", "99"], "past the end"),
    (["--step", "soon"], "step must be"),
    (["--algorithm", "maxn"], "maxn"),
    (["-o", "picture.gif"], "cannot tell the format"),
])
def test_export_errors_are_one_line_and_status_2(fig52_file, capsys, argv, message, tmp_path,
                                                 monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["export", fig52_file, *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


@pytest.mark.slow
def test_worksheet_command(fig52_file, tmp_path):
    out = tmp_path / "sheet.pdf"
    assert main(["worksheet", fig52_file, "-o", str(out)]) == 0
    assert len(pdf_pages(out.read_bytes())) == 2
    assert main(["worksheet", fig52_file, "--steps", "-o", str(out)]) == 0
    assert len(pdf_pages(out.read_bytes())) > 20


def test_exam_command(tmp_path):
    q, a = tmp_path / "q.pdf", tmp_path / "a.pdf"
    assert main(["worksheet", "--exam", "2", "--seed", "11", "--branching", "2:3",
                 "--depth", "2", "--values", "-5:5", "-o", str(q), "--answers", str(a)]) == 0
    assert len(pdf_pages(q.read_bytes())) == 2 and len(pdf_pages(a.read_bytes())) == 2
    assert "question 2" in pdf_pages(a.read_bytes())[1].extract_text()
    assert main(["worksheet", "--exam", "1", "-o", str(tmp_path / "e.pdf")]) == 0
    assert (tmp_path / "e-answers.pdf").exists()


def test_worksheet_needs_a_tree_or_an_exam(capsys, tmp_path):
    assert main(["worksheet", "-o", str(tmp_path / "x.pdf")]) == 2
    assert "--exam" in capsys.readouterr().err
