"""static/js/core/stream.js under Node (tests/js/stream.test.mjs): issue 25 (8), a
page refused "The server is busy" (503 + Retry-After) half-way through a
stream showed the error; it now waits, says "Waiting for the server…", and
asks again, and every event arrives in order (pulls in flight included)."""
from __future__ import annotations


def test_a_busy_server_is_waited_out_and_the_stream_finishes(node_test):
    # the 1st ask (start) and the 3rd and 5th (pulls, some with others in flight) refused
    node_test("stream.test.mjs", {"total": 5500, "refuse": [1, 3, 5]})
