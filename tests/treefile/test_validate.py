"""``python -m app validate``: a summary line, or one error line and status 2."""
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main

from .test_load import AIMA_LECTURE

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def files(tmp_path):
    good = tmp_path / "fig52.yaml"
    good.write_text(AIMA_LECTURE)
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: T\nroot:\n  children:\n    - {vaule: 3}\n")
    typed = tmp_path / "typed.txt"
    typed.write_text("((3 12 8) (2 4 6) (14 5 2))\n")
    return good, bad, typed


def test_good_file(files, capsys):
    assert main(["validate", str(files[0])]) == 0
    out, err = capsys.readouterr()
    assert out == "ok: AIMA Figure 5.2 (13 nodes, 9 leaves, height 2)\n" and err == ""


def test_bad_file_gives_one_line_with_place(files, capsys):
    assert main(["validate", str(files[1])]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"error: {files[1]}:4:8: unknown key 'vaule' (did you mean 'value'?)\n"


def test_several_files_and_notation(files, capsys):
    good, bad, typed = files
    assert main(["validate", str(good), str(bad), str(typed)]) == 2
    out, err = capsys.readouterr()
    assert out.splitlines() == ["ok: AIMA Figure 5.2 (13 nodes, 9 leaves, height 2)",
                                "ok: Typed tree ((3 12 8) (2 4 6) (14 5 2)) (13 nodes, 9 leaves, height 2)"]
    assert len(err.splitlines()) == 1


def test_missing_file_and_error_without_line(tmp_path, capsys):
    assert main(["validate", str(tmp_path / "nope.yaml")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {tmp_path / 'nope.yaml'}: cannot read the file")
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    assert main(["validate", str(empty)]) == 2
    assert capsys.readouterr().err == f"error: {empty}: the file is empty: a tree file needs " \
                                      "a 'title' and a 'root'\n"


def test_format_option(files, capsys):
    assert main(["validate", "--format", "json", str(files[0])]) == 2
    assert "JSON syntax error" in capsys.readouterr().err


def test_as_a_real_command_with_stdin(files):
    result = subprocess.run([sys.executable, "-m", "app", "validate", "-"], cwd=REPO,
                            input=b"A(B(3 12 8) C(2 4 6))", capture_output=True, timeout=60)
    assert result.returncode == 0
    assert result.stdout.decode() == "ok: Typed tree A(B(3 12 8) C(2 4 6)) (9 nodes, 6 leaves, height 2)\n"
    result = subprocess.run([sys.executable, "-m", "app", "validate", str(files[1])], cwd=REPO,
                            capture_output=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.decode().count("\n") == 1
    assert result.stderr.decode().startswith(f"error: {files[1]}:4:8: ")
