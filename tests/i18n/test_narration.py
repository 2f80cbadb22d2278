"""The narration's words come from the catalogue: English as before, the
same steps in Bahasa Indonesia, from the core, the command line, HTTP and
Socket.IO."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from app.cli.common import load
from app.i18n import words
from app.search import SearchOptions, run

REPO = Path(__file__).resolve().parents[2]
CUT_ID = ("MIN di C: v = 2 ≤ α = 3. MAX sudah memiliki 3 di A (melalui B), sehingga MAX tidak "
          "akan pernah memilih C: anak-anak lainnya, c2, c3, tidak mungkin memengaruhi hasil "
          "akhir dan di-prune (α cut-off).")


def fig52_events(lang=None):
    return list(run(load("aima-fig-5-2"), SearchOptions(algorithm="alphabeta"),
                    words(lang) if lang else None))


def test_english_is_the_message_ids_filled_in():
    plain, english = fig52_events(), fig52_events("en")
    assert [e["text"] for e in plain] == [e["text"] for e in english]
    cut = next(e for e in plain if e["type"] == "prune")
    assert cut["text"].startswith("MIN at C: v = 2 ≤ α = 3. MAX already has 3 at A (through B)")


def test_indonesian_says_the_same_steps():
    en, id_ = fig52_events(), fig52_events("id")
    assert [{k: v for k, v in e.items() if k != "text"} for e in en] == \
           [{k: v for k, v in e.items() if k != "text"} for e in id_]
    cut = next(e for e in id_ if e["type"] == "prune")
    assert cut["text"] == CUT_ID
    assert id_[-1]["text"] == ("Selesai: akar A bernilai 3 dan langkah terbaik adalah B. 7 evaluasi "
                               "statis, 1 cut-off; minimax biasa akan melakukan 9 (2 dihemat).")
    # every sentence was translated: none is left as its English id
    english = {e["text"] for e in en}
    assert not english & {e["text"] for e in id_}


def test_every_algorithm_narrates_in_indonesian():
    for tree_id, alg in [("itb-three-player", "maxn"), ("aima-fig-5-12", "expectiminimax"), ("itb-3-ply-lr", "minimax"),
                         ("tictactoe-horizon", "iterative")]:
        tree = load(tree_id)
        en = [e["text"] for e in run(tree, SearchOptions(algorithm=alg))]
        id_ = [e["text"] for e in run(tree, SearchOptions(algorithm=alg), words("id"))]
        assert len(en) == len(id_)
        assert all(a != b for a, b in zip(en, id_)), tree_id


def test_cli_lang_id():
    out = subprocess.run([sys.executable, "-m", "app", "trace", "trees/aima-fig-5-2.yaml",
                          "--algorithm", "alphabeta", "--lang", "id"],
                         cwd=REPO, capture_output=True, text=True, check=True).stdout
    assert CUT_ID in out
    jsonl = subprocess.run([sys.executable, "-m", "app", "trace", "trees/aima-fig-5-2.yaml",
                            "--format", "jsonl", "--lang", "id"],
                           cwd=REPO, capture_output=True, text=True, check=True).stdout
    done = json.loads(jsonl.splitlines()[-1])
    assert done["pruned"] == ["c2", "c3"] and done["text"].startswith("Selesai")


def test_http_trace_and_socket_take_a_language(client, socket_client):
    events = client.get("/api/trees/aima-fig-5-2/trace?algorithm=alphabeta&lang=id").get_json()["events"]
    assert any(e["text"] == CUT_ID for e in events)
    english = client.get("/api/trees/aima-fig-5-2/trace?algorithm=alphabeta").get_json()["events"]
    assert english[-1]["text"].startswith("Done:")
    ack = socket_client.emit("start", {"tree": "aima-fig-5-2", "algorithm": "alphabeta", "lang": "id"},
                             callback=True)
    assert ack["ok"], ack
    pulled = socket_client.emit("pull", {"run": ack["run"], "count": 100}, callback=True)
    assert any(e["text"] == CUT_ID for e in pulled["events"])
