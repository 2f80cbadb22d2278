"""Fixtures shared by every test folder.

- ``make_app(**config)``: a fresh app on this test's own instance folder
  (calling it twice gives a "restarted" server on the same store).
- ``app``, ``client``, ``socket_client``: the usual Flask trio.
- ``live_server``: the real threaded server (WebSockets included) on a free
  127.0.0.1 port for the whole session; a ``str`` base URL with ``.app``.
- ``fig52_yaml``: AIMA Figure 5.2 as a tree file.

The ``quick`` marker is given here, at collection, to every test that needs
no browser and no server: not marked ``browser`` or ``slow``, and using none
of :data:`SERVERS` (directly or through another fixture). A server here is
anything that listens on a port, a process or a thread alike (``live_server``
is an in-process threaded server, yet it is a real socket server with its
own threads, and its tests are the ones that wait on the network); a quick
test reaches the app through Flask's test clients or calls the code itself.
It may still run a short command-line process (``python -m app ...``, node).
``bash scripts/bootstrap.sh test -m quick`` runs them: a minute at most.
A test that starts a server process of its own (run.py, gunicorn, redis,
nginx, postgres), or takes more than about 2 s, is marked ``slow``; a new
fixture that starts a server goes into :data:`SERVERS`. The run's summary
names the quick tests that took longer than :data:`QUICK_SECONDS`.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

SERVERS = frozenset({
    "live_server",    # the threaded server below (and page, viz, fig52 of tests/browser on it)
    "browser",        # Chromium
    "start_server",   # run.py or gunicorn processes (tests/server/conftest.py)
})
"""Fixtures that start a server: a test using one (even indirectly) is not quick."""

QUICK_SECONDS = 2.0
"""A quick test slower than this is named at the end of the run (mark it slow)."""


@pytest.hookimpl(tryfirst=True)   # before -m reads the marks, and xdist the groups
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("browser") or item.get_closest_marker("slow"):
            continue
        if SERVERS.isdisjoint(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.quick)
    # Only an xdist worker collects under ``-n N``: the controller does not.
    # A worker's ``dist`` option is "no" (xdist keeps its choice in
    # ``loadgroup``): testing ``dist`` here made no group at all until 2026-11-27.
    if hasattr(config, "workerinput") and config.getoption("loadgroup", False):
        _schedule(items)
        _name_groups(items)


def _name_groups(items) -> None:
    """The group in each grouped test's id, ``path::test@group``, as xdist's
    own hook would write it: on pytest 9.2 an id is a structured ``NodeId`` and
    xdist 3.8's write to ``_nodeid`` is lost (pytest-xdist issue #1386), so
    ``--dist loadgroup`` handed every test out alone. Done only where xdist's
    write cannot take effect (an older pytest keeps its own)."""
    try:
        from _pytest.nodeid import NodeId
    except ImportError:          # an older pytest: xdist names the groups itself
        return
    for item in items:
        names = sorted({_group_name(m) for m in item.iter_markers("xdist_group")})
        if names and isinstance(getattr(item, "_id", None), NodeId) and "@" not in item.nodeid:
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")


def _schedule(items) -> None:
    """Under ``pytest -n N --dist loadgroup`` (scripts/bootstrap.sh test): a
    file's tests that are not quick go to one worker together (its module
    fixtures, a server or a page, are made once; the files of :data:`SPLIT`
    test by test), the longest first by :data:`SECONDS`, and before the quick
    ones, which spread one by one over the workers and fill in behind the long
    files. Session fixtures (``browser``, ``live_server``) are made once per
    worker; their ports are free ports, so workers never clash."""
    groups: dict[str, list] = {}
    for item in items:
        if item.get_closest_marker("quick") is None:
            mark = item.get_closest_marker("xdist_group")
            if mark is None:
                path = item.nodeid.split("::", 1)[0]
                # (no "]" in a name: xdist reads "@" after the last "]" only)
                name = item.nodeid.translate({ord("["): "(", ord("]"): ")"})
                mark = pytest.mark.xdist_group(name if path in SPLIT else path)
                item.add_marker(mark)
            groups.setdefault(_group_name(mark), []).append(item)
    # The longest work first (a worker takes the next group when it has two
    # tests left): a long file started last would finish alone.
    in_file: dict[str, int] = {}
    for members in groups.values():
        for item in members:
            path = item.nodeid.split("::", 1)[0]
            in_file[path] = in_file.get(path, 0) + 1
    weight = {name: _seconds(members, in_file) for name, members in groups.items()}
    order = {id(item): (0, -weight[name]) for name, members in groups.items() for item in members}
    items.sort(key=lambda item: order.get(id(item), (1, 0)))   # stable: files keep their own order


SECONDS = {
    "tests/server/test_findings.py": 54, "tests/server/test_memory.py": 44,
    "tests/a11y/test_axe.py": 36, "tests/browser/test_screens_phone.py": 34,
    "tests/browser/test_canvas.py": 34, "tests/browser/test_narrate_parity.py": 26,
    "tests/editor/test_browser.py": 25, "tests/hostile/test_time_bombs.py": 25,
    "tests/browser/test_screens.py": 24, "tests/browser/test_visualizer.py": 22,
    "tests/a11y/test_tree_pages.py": 21, "tests/classes/test_class_browser.py": 20,
    "tests/browser/test_screens_layout.py": 18, "tests/browser/test_present_floor.py": 16,
    "tests/browser/test_screens_shots.py": 14, "tests/browser/test_whole_game.py": 14,
    "tests/server/test_fair_shares.py": 13, "tests/assignments/test_db_down.py": 13,
    "tests/browser/test_speed_paths.py": 10, "tests/classes/test_scaleout.py": 9,
    "tests/browser/test_mcts_page.py": 9, "tests/a11y/test_keyboard.py": 9,
    "tests/render/test_screens_svg.py": 9, "tests/classes/test_faults.py": 9,
    "tests/lti/test_course.py": 8, "tests/browser/test_fit_everywhere.py": 8,
    "tests/classes/test_hall.py": 7, "tests/server/test_class_fairness.py": 6,
    "tests/editor/test_local_parity.py": 6, "tests/games/test_cli.py": 6,
    "tests/browser/test_library.py": 6, "tests/games/test_play.py": 5,
    "tests/web/test_every_record.py": 5, "tests/a11y/test_indonesian.py": 5,
    "tests/lti/test_register.py": 5, "tests/assignments/test_browser.py": 5,
    "tests/editor/test_drawn_ahead.py": 4, "tests/a11y/test_contrast.py": 4,
    "tests/practice/test_browser.py": 4, "tests/lti/test_roster.py": 4,
    "tests/lti/test_browser.py": 4, "tests/hostile/test_fuzz_treefile.py": 4,
    "tests/lti/test_launch.py": 4, "tests/browser/test_take_away.py": 3,
    "tests/games/test_page.py": 3, "tests/editor/test_keeps_work.py": 3,
    "tests/games/test_lazy.py": 3,
}
"""Seconds a file's browser and server tests took in the whole suite (two
workers; each test's wall time, setup and teardown included, summed by file;
the lead's run of 2026-11-27 23:45, 373 s of pytest, files of 3 s and more).
The scheduler's estimate: refresh it from such a run when a file grows. A
file not named here counts :data:`PER_TEST` seconds a test."""
PER_TEST = 2.0
SPLIT = frozenset({"tests/server/test_findings.py", "tests/a11y/test_axe.py"})
"""Long files whose tests share no module fixture (each starts its own
server, or makes its own page): each test may go to either worker."""


def _group_name(mark) -> str:
    return str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))


def _seconds(members, in_file: dict[str, int]) -> float:
    """A group's estimated seconds: its file's measured share, else per test."""
    path = members[0].nodeid.split("::", 1)[0]
    if path in SECONDS:
        return SECONDS[path] * len(members) / in_file[path]
    return PER_TEST * len(members)


_slow_quick: list[tuple[float, str]] = []


def pytest_runtest_logreport(report):
    if (report.when == "call" and report.duration > QUICK_SECONDS
            and "quick" in report.keywords):
        _slow_quick.append((report.duration, report.nodeid))


def pytest_terminal_summary(terminalreporter):
    if _slow_quick:
        terminalreporter.section("quick tests slower than %.0f s (mark them slow?)" % QUICK_SECONDS)
        for duration, nodeid in sorted(_slow_quick, reverse=True):
            terminalreporter.write_line(f"{duration:6.2f}s {nodeid}")

FIG_5_2 = """\
title: AIMA Figure 5.2, a two-ply game
source: Russell & Norvig, AIMA 3rd ed., Fig. 5.2
algorithm: alphabeta
root:
  id: A
  children:
    - id: B
      children:
        - {id: b1, value: 3}
        - {id: b2, value: 12}
        - {id: b3, value: 8}
    - id: C
      children:
        - {id: c1, value: 2}
        - {id: c2, value: 4}
        - {id: c3, value: 6}
    - id: D
      children:
        - {id: d1, value: 14}
        - {id: d2, value: 5}
        - {id: d3, value: 2}
"""


@pytest.fixture(scope="session")
def fig52_yaml() -> str:
    return FIG_5_2


@pytest.fixture(scope="session")
def migrated_results(tmp_path_factory) -> Path:
    """A results database brought to the newest schema once per worker: a new
    app's instance starts from a copy (Alembic's run on a new SQLite file took
    55-140 ms of each of ~280 quick tests' set-up; on a copy it finds the head
    in 6 ms). The migrations from nothing have tests of their own
    (tests/assignments/test_store.py)."""
    from app.db import open_database, sqlite_url

    path = tmp_path_factory.mktemp("migrated") / "results.sqlite3"
    open_database(sqlite_url(str(path))).engine.dispose()   # the last close checkpoints the WAL
    return path


@pytest.fixture
def make_app(tmp_path, migrated_results):
    """``make_app(**config)`` -> a new app whose store is in ``tmp_path``."""
    import os
    import shutil

    from app.web import create_app  # imported here so other folders' tests never depend on it

    instance = tmp_path / "instance"

    def make(**config):
        results = instance / "results.sqlite3"
        if not (config.get("DATABASE_URL") or os.environ.get("DATABASE_URL") or results.exists()):
            instance.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(migrated_results, results)
        return create_app({"TESTING": True, **config}, instance_path=str(instance))

    return make


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def socket_client(app, client):
    """Flask-SocketIO's test client, connected to ``/``."""
    from app.web import socketio_of

    sc = socketio_of(app).test_client(app, flask_test_client=client)
    yield sc
    if sc.is_connected():
        sc.disconnect()


class LiveServer(str):
    """The base URL (``http://127.0.0.1:PORT``) of a running server; ``.app`` is its app."""

    app = None


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """The real threaded server with the built-in trees and an empty store."""
    from app.web import create_app
    from app.web.serving import threaded_server

    # Many tests upload from one address here: the per-client rate limit has tests of its own.
    app = create_app({"RATELIMIT_ENABLED": False},
                     instance_path=str(tmp_path_factory.mktemp("live") / "instance"))
    server = threaded_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    url = LiveServer(f"http://127.0.0.1:{server.port}")
    url.app = app
    yield url
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


# -- the real browser ----------------------------------------------------------
# One Chromium for the whole session: Playwright's sync API allows one running
# instance per process, so every browser test shares this fixture.
CHROMIUM = "/usr/bin/chromium"  # Debian's own build: Playwright never downloads a browser here
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]

# Chromium 156's new headless mode opens a browser window for each context, and
# each window preloads its address bar's WebUI pop-ups in renderers of their
# own: 40 % of the CPU a context costs (a bare one 355 -> 212 ms, one opening
# the visualizer 1,330 -> 767 ms, bench/README.md, session 34). A test never
# sees the address bar. Chromium keeps only the last --disable-features it is
# given, so the switch carries Playwright's own list (playwright 1.65's
# chromiumSwitches) and replaces it: tests/browser/test_browser_flags.py fails
# if an upgrade leaves two.
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,"
    "HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,"
    "ThirdPartyStoragePartitioning,AvoidCorsURLLoaderRestartOnRedirect,TcpPortRandomizationWin,"
    "OptimizationHints,NetworkTimeServiceQuerying,AimEnabled,PreconnectToSearch,"
    "msForceBrowserSignIn,msEdgeUpdateLaunchServicesPreferredVersion")
NO_ADDRESS_BAR_POPUPS = "WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup"
CHROMIUM_LAUNCH = {
    "executable_path": CHROMIUM,
    "args": CHROMIUM_ARGS + [f"--disable-features={PLAYWRIGHT_DISABLED_FEATURES},{NO_ADDRESS_BAR_POPUPS}"],
    "ignore_default_args": [f"--disable-features={PLAYWRIGHT_DISABLED_FEATURES}"],
}


SLOWDOWN = float(os.environ.get("PAGE_CPU_SLOWDOWN") or 0)
LATENCY = float(os.environ.get("PAGE_LATENCY_MS") or 0)
"""Race hunting: ``PAGE_CPU_SLOWDOWN=4`` runs every page's script and layout
four times slower (Chromium's CPU throttling), ``PAGE_LATENCY_MS=300`` adds
300 ms to every request a page makes (its fetches answered late, as from a
loaded server). A test that reads what a page's script writes before the
page says it is ready then fails every time, where a loaded CI machine made
it fail only now and again."""


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(**CHROMIUM_LAUNCH)
        if SLOWDOWN > 1 or LATENCY > 0:
            _slow_pages(b)
        yield b
        b.close()


def _slow_pages(browser) -> None:
    """Every page a context of ``browser`` opens, slowed before it loads."""
    open_context = browser.new_context

    def new_context(*args, **kwargs):
        context = open_context(*args, **kwargs)
        open_page = context.new_page

        def new_page():
            page = open_page()
            cdp = context.new_cdp_session(page)
            if SLOWDOWN > 1:
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": SLOWDOWN})
            if LATENCY > 0:
                cdp.send("Network.enable")
                cdp.send("Network.emulateNetworkConditions", {
                    "offline": False, "latency": LATENCY,
                    "downloadThroughput": -1, "uploadThroughput": -1})
            return page
        context.new_page = new_page
        return context
    browser.new_context = new_context
