"""What the benchmarks that drive a live server share."""
from __future__ import annotations

import random
import socket


def notation(rng: random.Random, branching: int, depth: int) -> str:
    """A uniform tree in the one-line notation, leaves drawn from -50..50."""
    if depth == 0:
        return str(rng.randint(-50, 50))
    return "(" + " ".join(notation(rng, branching, depth - 1) for _ in range(branching)) + ")"


def free_port() -> int:
    """A free TCP port on 127.0.0.1 for a server of the benchmark's own."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
