"""Renders in a worker process that can be limited and killed.

A picture or a worksheet of a big tree can cost Graphviz gigabytes and
minutes; in the server's own process that would take every visitor down with
it. :func:`render_job` runs one render as ``python -m app.render.worker``:
the job goes in as JSON on standard input, the bytes come back on standard
output. The worker sets its own ``resource`` limits first (private data
memory and CPU seconds; Graphviz, its child, inherits them), and the caller kills it
when the wall-clock time is up. Whatever happens inside, the server gets a
:class:`RenderFailed` with a status (400 the request does not fit the tree,
413 too big to draw within the limits, 503 out of time) and a message.

Job: ``{"tree": <tree file data>, "options": {...}, "kind": "export" |
"worksheet", "step", "fmt", "legend", "steps", "max_pages"}``.
"""
from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from app.search.words import Said

REPO = Path(__file__).resolve().parents[2]
EXIT_BAD_REQUEST, EXIT_GRAPHVIZ, EXIT_MEMORY = 2, 3, 4


class RenderFailed(Said):
    """A render refused or failed (``status``: the HTTP status); its sentence
    is a catalogue message the web app says in the reader's language."""

    def __init__(self, status: int, msgid: str, **fields):
        self.status = status
        super().__init__(msgid, **fields)


def render_job(job: dict, seconds: float, memory: int, max_output: int) -> bytes:
    """Run ``job`` in a fresh worker process within the limits; its bytes."""
    env = {**os.environ, "RENDER_MEMORY": str(memory), "RENDER_SECONDS": str(int(seconds) + 1),
           "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "app.render.worker"], cwd=str(REPO), env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(json.dumps(job).encode(), timeout=seconds)
    except subprocess.TimeoutExpired:
        _kill(proc)
        raise RenderFailed(503, "Drawing took longer than {seconds} s and was stopped: the "
                                "server may be busy, or the tree too big to draw.",
                           seconds=round(seconds)) from None
    except BaseException:
        _kill(proc)
        raise
    if proc.returncode == 0:
        if len(out) > max_output:
            raise RenderFailed(413, "The drawing is larger than {size} MiB.", size=max_output >> 20)
        return out
    message = err.decode("utf-8", "replace").strip().splitlines()
    last = message[-1] if message else ""
    if proc.returncode == EXIT_BAD_REQUEST:
        raise RenderFailed(400, "{reason}", reason=last)
    if proc.returncode == EXIT_GRAPHVIZ:
        raise RenderFailed(413, "The tree could not be drawn within the server's limits "
                                "({memory} MiB, {seconds} s): {reason}", memory=memory >> 20,
                           seconds=round(seconds), reason=last)
    if proc.returncode == EXIT_MEMORY or proc.returncode in (
            -signal.SIGKILL, -signal.SIGXCPU, -signal.SIGSEGV, -signal.SIGABRT):
        raise RenderFailed(413, "The tree is too big to draw within the server's limits "
                                "({memory} MiB, {seconds} s): try a smaller tree, "
                                "a depth limit, or the DOT or TikZ format.",
                           memory=memory >> 20, seconds=round(seconds))
    raise RenderFailed(500, "The drawing failed ({reason}).",
                       reason=last or f"exit {proc.returncode}")


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)   # Graphviz with it
    except ProcessLookupError:
        pass
    proc.communicate()


# -- the worker side -----------------------------------------------------------

def _limit() -> None:
    import resource

    memory = int(os.environ.get("RENDER_MEMORY", 1 << 30))
    seconds = int(os.environ.get("RENDER_SECONDS", 60))
    # Private data (heap, anonymous maps, thread stacks), not address space:
    # what Graphviz maps from its shared libraries, fonts and locales differs
    # between machines by tens of MiB and is not what a big tree costs.
    resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _work(job: dict) -> bytes:
    from app.search import SearchOptions
    from app.treefile import load_tree

    from . import export
    from .worksheet import worksheet

    from app.i18n import words
    from app.i18n.context import speaking

    tree = load_tree(json.dumps(job["tree"]), fmt="json")
    title = tree.translations.get(job.get("lang") or "", {}).get("title")
    if title:                                       # the file's own translation
        tree = dataclasses.replace(tree, title=title)
    options = SearchOptions(**job["options"])
    with speaking(words(job.get("lang"))):         # the reader's language
        if job["kind"] == "worksheet":
            return worksheet(tree, options, steps=job.get("steps", False),
                             max_pages=job.get("max_pages"))
        return export(tree, options, job.get("step"), job["fmt"], legend=job.get("legend", True))


def main() -> int:
    _limit()
    try:
        return _main()
    except MemoryError:            # even while importing, under a tiny limit
        print("out of memory", file=sys.stderr)
        return EXIT_MEMORY


def _main() -> int:
    from app.search import SearchError
    from app.treefile import TreeFileError

    from .engine import GraphvizError
    from .state import RenderError

    try:
        data = _work(json.loads(sys.stdin.buffer.read()))
    except MemoryError:
        print("out of memory", file=sys.stderr)
        return EXIT_MEMORY
    except GraphvizError as exc:
        print(exc, file=sys.stderr)
        return EXIT_GRAPHVIZ
    except (SearchError, RenderError, TreeFileError) as exc:
        print(str(exc).replace("\n", " "), file=sys.stderr)
        return EXIT_BAD_REQUEST
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
