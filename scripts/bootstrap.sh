#!/usr/bin/env bash
# One entry point for a fresh Debian machine with Python 3.11:
#   bash scripts/bootstrap.sh run [--port N]   set up, then serve the app
#   bash scripts/bootstrap.sh test [ARGS]      set up, then run the whole test suite
#   bash scripts/bootstrap.sh test -m quick    ... only the tests needing no browser or server
# It installs what is missing (Debian packages with apt-get, Python packages
# into .venv) and is quick when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-run}; shift || true

need_apt=()
command -v dot >/dev/null 2>&1 || need_apt+=(graphviz)
if [ "$mode" = test ]; then
  [ -x /usr/bin/chromium ] || need_apt+=(chromium)
  command -v pdfinfo >/dev/null 2>&1 || need_apt+=(poppler-utils)
  # The scale-out test starts its own Redis and nginx on loopback ports.
  command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)
  [ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || need_apt+=(nginx)
  # A server's listen queue is read with ss (tests/server/test_findings.py).
  command -v ss >/dev/null 2>&1 || need_apt+=(iproute2)
  # The page's DOM-free modules are tested under Node's own test runner (Node >= 20).
  command -v node >/dev/null 2>&1 || need_apt+=(nodejs)
  # The results store's tests start a throw-away PostgreSQL cluster (initdb, pg_ctl).
  ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || need_apt+=(postgresql)
fi
python3.11 -c 'import ensurepip, venv' >/dev/null 2>&1 || need_apt+=(python3.11-venv)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "Installing Debian packages: ${need_apt[*]}"
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need_apt[@]}" fonts-dejavu-core
fi

reqs=requirements.txt; [ "$mode" = test ] && reqs=requirements-dev.txt
if [ ! -x .venv/bin/python ]; then
  python3.11 -m venv .venv
fi
# Reinstall only when the requirements changed since the last install.
stamp=.venv/.installed-$(cat requirements.txt "$reqs" constraints.txt | sha1sum | cut -c1-12)
# The test run writes bytecode itself as it imports (below), so pip need not
# compile every installed module first (4-5 s of a fresh clone's set-up).
compile=(); [ "$mode" = test ] && compile=(--no-compile)
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install -q --disable-pip-version-check "${compile[@]}" -r "$reqs" -c constraints.txt
  touch "$stamp"
fi

case "$mode" in
  run)  exec .venv/bin/python run.py "$@" ;;
  test)
    # Bytecode written once for the whole run (into __pycache__, ignored by
    # git): with PYTHONDONTWRITEBYTECODE set, as on the CI machine, every
    # worker, server process (~45) and command-line run compiled the app
    # again, and pytest re-rewrote every test module's asserts: 3-4 s of CPU
    # per pytest process, ~0.4 s per run.py start (bench/README.md, w31d).
    unset PYTHONDONTWRITEBYTECODE
    set +e
    # Two workers (pytest-xdist): much of the suite waits on Chromium, sockets
    # and processes, and even the quick suite ran 1.6-2.4x faster on two cores
    # (bench/README.md). A file's browser/server tests stay on one worker
    # (tests/conftest.py); the 25 slowest tests are listed at the end
    # (pytest.ini). `-n 0` runs in one process, TEST_WORKERS=N in N.
    .venv/bin/python -m pytest -n "${TEST_WORKERS:-2}" --dist loadgroup --no-loadscope-reorder "$@"
    status=$?
    # pytest exits 5 when it collected no test: that is a failure here.
    [ $status -eq 5 ] && echo "no tests were collected" >&2
    exit $status ;;
  *) echo "usage: bash scripts/bootstrap.sh run|test" >&2; exit 2 ;;
esac
