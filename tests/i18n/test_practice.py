"""The checker answers in the reader's language: its own sentences and the
narration it quotes."""
from __future__ import annotations


def attempt(client, lang, **body):
    payload = {"tree": "aima-fig-5-2", "mode": "full", "algorithm": "alphabeta",
               "answers": {"values": {"A": "3", "B": "3", "C": "4", "D": "2"}, "pruned": []},
               **body}
    res = client.post("/api/practice/check", json=payload, headers={"Accept-Language": lang})
    assert res.status_code == 200, res.get_json()
    return res.get_json()


def test_feedback_in_indonesian(client):
    en, id_ = attempt(client, "en"), attempt(client, "id")
    assert en["score"] == id_["score"]
    assert en["summary"].endswith("right.") and id_["summary"].endswith("benar.")
    mistake = id_["first_mistake"]["sentence"]
    assert "Anda menulis 4." in mistake or "di-prune" in mistake, mistake
    assert mistake != en["first_mistake"]["sentence"]


def test_guided_questions_in_indonesian(client):
    r = attempt(client, "id", mode="guided", index=0)
    assert r["question"]["prompt"].startswith("b1 mengembalikan 3 ke B."), r["question"]
    wrong = attempt(client, "id", mode="guided", index=0, answer="7")
    assert wrong["result"]["rule"].startswith("Aturan: di simpul MIN"), wrong["result"]
