"""Live classes over HTTP (contract §5): create a class, the student page,
the projector view, the join-by-code page.

- ``POST /api/classes`` ``{"tree", "algorithm", "depth", "order", "seed",
  "strict", "step"}`` -> ``201 {"code", "join", "instructor"}``; the token is
  returned once and never shown in the join link.
- ``GET /api/classes/<code>`` -> the class as a student sees it (404/410).
- ``GET /c`` a box to type a code into; ``GET /c/<code>`` the student page;
  ``GET /c/<code>/present`` the projector view (the token stays in the
  browser: the address's fragment or its storage; ``?live=1``: the
  instructor's second device, with the live distribution of answers).
- The class report, for the instructor (``Authorization: Bearer <token>``),
  during the class and a day after it: ``GET /api/classes/<code>/report``
  (JSON), ``GET /api/classes/<code>/report.csv``; ``GET /c/<code>/report`` the
  page that shows it (the token from the browser, as the projector's).

Unknown codes count as failed joins, rate-limited per client (429 with
``Retry-After`` and a JSON body). The live part is the ``/class`` Socket.IO
namespace (:mod:`app.web.class_sockets`).
"""
from __future__ import annotations

import csv
import functools
import io
import ipaddress
import logging
from urllib.parse import urlsplit

import segno
from flask import (Blueprint, Response, current_app, jsonify, redirect, render_template,
                   request, url_for)
from markupsafe import Markup

from app.budget import OverBudget
from app.classes import Classes, ClassError, StoreUnavailable, make_store
from app.classes.service import REPORT_COLUMNS
from app.i18n import N_
from app.classes.codes import normal_code
from app.search.descriptors import ALGORITHMS, get as get_algorithm
from app.classes.guard import JoinGuard

from .addresses import client_address
from .errors import ApiError, api_error, said
from .i18n import localized
from .params import argument_error, check_keys, options_from_payload, whole_number
from .offload import offload
from .security import ANY_ADDRESS, machine_addresses

log = logging.getLogger(__name__)
bp = Blueprint("classes", __name__)

MAX_STEP = 10_000_000
"""Largest step a class may be created at or driven to (far beyond any run shown)."""


@bp.record_once
def _setup(state) -> None:
    """The app's classes: in memory, or in Redis when ``MESSAGE_QUEUE`` is set.
    A Redis that cannot be reached stops the start here, with a clear error."""
    app = state.app
    url = app.config.get("MESSAGE_QUEUE")
    store = make_store(url)
    try:
        store.ping()
    except StoreUnavailable as exc:
        raise RuntimeError(f"Cannot start with the message queue {url} (--message-queue, "
                           f"MESSAGE_QUEUE): {str(exc).rstrip('.')}. Start Redis, or run "
                           "without a message queue (one process).") from None
    trees = app.extensions["trees"]
    app.extensions["classes"] = Classes(
        store, trees.get, max_students=app.extensions["budget"].classes.class_students,
        idle_seconds=app.config["CLASS_IDLE_SECONDS"],
        key_max_events=app.config["CLASS_KEY_MAX_EVENTS"], heavy=offload,
        ready=trees.ready)
    app.extensions["class_joins"] = JoinGuard(url or "memory://", app.config["CLASS_JOIN_RATE"])


def classes() -> Classes:
    return current_app.extensions["classes"]


class TooManyJoins(ApiError):
    def __init__(self, retry_after: int):
        super().__init__(429, said("Too many wrong class codes from this device: try again "
                                   "in {seconds} s.", seconds=retry_after),
                         retry_after=retry_after)
        self.retry_after = retry_after


@bp.errorhandler(TooManyJoins)
def _too_many(exc: TooManyJoins):
    response = jsonify({"error": exc.to_dict()})
    response.status_code = 429
    response.headers["Retry-After"] = str(exc.retry_after)
    return response


@bp.errorhandler(StoreUnavailable)
def _store_down(exc: StoreUnavailable):
    log.error("class store unavailable: %s", exc)
    return jsonify({"error": {"message": "The class server cannot reach its store (Redis): "
                                         "try again in a moment."}}), 503


def find_class(code_text: str, client: str) -> dict:
    """The record of the class with this code, counting a miss against ``client``.

    Raises :class:`TooManyJoins` when the client is over the limit (before
    looking; unless it is in that class already), ``ClassError(404)`` for a code that
    is not a class."""
    guard: JoinGuard = current_app.extensions["class_joins"]
    code = normal_code(code_text)
    wait = guard.retry_after(client)
    # Past its limit, an address is still let into a class it is in already: the rest of a
    # hall behind one address is not locked out by its typos (or one student's guesses).
    if wait is not None and not (code is not None and guard.admits(client, code)):
        raise TooManyJoins(wait)
    try:
        if code is None:
            raise ClassError(404, "a class code is 6 letters and digits, as on the projector")
        record = classes().get(code)
    except ClassError as exc:
        if exc.status == 404:
            guard.failed(client)
        raise
    guard.joined(client, code)
    return record


@bp.post("/api/classes")
def create():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise api_error(400, "Send a JSON object: {fields}.",
                        fields='{"tree": id, "algorithm", "depth", "order", "seed", "strict", '
                               '"step"}')
    check_keys(data, ("tree", "algorithm", "depth", "order", "seed", "strict", "style", "step",
                      "iterations", "exploration"))   # [mcts] the last two
    tree_id = data.get("tree")
    if not isinstance(tree_id, str) or not tree_id:
        raise argument_error("tree", "tree must be the id of a tree (a string)")
    step = data.get("step")
    step = 0 if step is None else whole_number("step", step)
    if not 0 <= step <= MAX_STEP:
        raise argument_error("step", "step must be between 0 and {most}", most=MAX_STEP)
    options = options_from_payload({k: v for k, v in data.items() if k not in ("tree", "step")})
    tree = current_app.extensions["trees"].fetch(tree_id)   # 404 for an unknown tree
    try:
        options = options.resolved(tree)
    except ValueError as exc:
        raise ApiError(400, str(exc)) from None
    current_app.extensions["budget"].check_iterations(options.iterations)   # [mcts]
    record, token = classes().create(tree_id, options, step)
    code = record["code"]
    hold_tree(record)
    body = {"code": code, "join": f"/c/{code}", "instructor": token,
            "present": f"/c/{code}/present"}
    return jsonify(body), 201, {"Location": f"/c/{code}", "Cache-Control": "no-store"}


def class_page(view):
    """``view(code, record)`` for the class with this code; a code that is no class
    (or a client over its limit of misses) gets the join page saying why."""
    @functools.wraps(view)
    def page(code: str):
        try:
            record = find_class(code, client_address())
        except ClassError as exc:
            return render_template("class_join.html", message=said(exc.msgid, **exc.fields),
                                   code=code[:20]), exc.status
        return view(code, record)
    return page


def found_class(code: str) -> dict:
    """The record of the class with this code, for the API: its refusal as JSON."""
    try:
        return find_class(code, client_address())
    except ClassError as exc:
        raise ApiError(exc.status, said(exc.msgid, **exc.fields)) from None


@bp.get("/api/classes/<code>")
def describe(code: str):
    return jsonify(Classes.public(found_class(code)))


@bp.get("/c")
@bp.get("/c/")
def join_form():
    typed = request.args.get("code", "")
    if typed:
        return redirect(url_for("classes.student", code=typed.strip()[:20]))
    return render_template("class_join.html", message=None)


@bp.get("/c/<code>")
@class_page
def student(code: str, record: dict):
    if record["ended"]:
        return render_template("class_join.html", message=said("This class has ended."),
                               code=record["code"]), 410
    if normal_code(code) != code:
        return redirect(url_for("classes.student", code=record["code"]))
    title = _title(record)
    return render_template("class_student.html", code=record["code"], tree_id=record["tree"],
                           title=title)


@bp.get("/c/<code>/present")
@class_page
def present(code: str, record: dict):
    link = join_url(record["code"])
    qr = segno.make(link, error="m")
    svg = qr.svg_inline(scale=6, border=2, dark="#000", light="#fff", omitsize=True,
                        svgclass="qr", title=f"QR code: {link}")
    return render_template("class_present.html", code=record["code"], tree_id=record["tree"],
                           title=_title(record), link=link, qr=Markup(svg),
                           short=_short(link), ended=bool(record["ended"]),
                           kinds=asked_of(record), unasked=unasked_of(record),
                           live=request.args.get("live") == "1")


@bp.get("/c/<code>/report")
@class_page
def report_page(code: str, record: dict):
    return render_template("class_report.html", code=record["code"], title=_title(record))


def _instructor_record(code: str) -> dict:
    """The class (live or ended) whose instructor token is in the request's
    ``Authorization: Bearer`` header: 401 without one, 403 for a wrong one."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise api_error(401, "Send the instructor token: Authorization: Bearer <token>.",
                        headers={"WWW-Authenticate": "Bearer"})
    record = found_class(code)
    try:
        return classes().check(record["code"], token.strip(), ended=True)
    except ClassError as exc:
        raise ApiError(exc.status, said(exc.msgid, **exc.fields)) from None


@bp.get("/api/classes/<code>/report")
def report_json(code: str):
    record = _instructor_record(code)
    rows = classes().report(record)
    for row in rows:
        row["prompt"] = _prompt(row)
    return jsonify({"code": record["code"], "tree": record["tree"], "title": _title(record),
                    "ended": record["ended"], "columns": list(REPORT_COLUMNS), "rows": rows}), \
        200, {"Cache-Control": "no-store"}


@bp.get("/api/classes/<code>/report.csv")
def report_csv(code: str):
    record = _instructor_record(code)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(REPORT_COLUMNS)
    for row in classes().report(record):
        row["prompt"] = _prompt(row)
        writer.writerow(_cell(row[c]) for c in REPORT_COLUMNS)
    name = f"class-{record['code']}-report.csv"
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"',
                             "Cache-Control": "no-store"})


def _prompt(row: dict) -> str:
    """The question of a report row in the request's language."""
    msgid, fields = row.pop("say").values()
    return said(msgid, **fields)


def _cell(value) -> str:
    """A CSV cell a spreadsheet shows as text: node labels come from uploads,
    and one starting with = + - @ would be read as a formula (a negative
    number stays a number)."""
    if value is None:
        return ""
    text = str(value)
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        try:
            float(text)
        except ValueError:
            return "'" + text
    return text


def _short(link: str) -> str:
    """The join link as the projector writes it: without ``http://``."""
    return link.split("://", 1)[-1]


QUESTION_NAMES = {  # said in the page's language by the template
    "value": N_("Value of a node"),
    "pruned": N_("Pruned children of a node"),
    "bounds": N_("α and β at a node now"),
    "move": N_("The root's move"),
    "next": N_("Next node visited"),
    "ucb": N_("UCB1's next selection (MCTS)"),
}


def asked_of(record: dict) -> dict:
    """The question menu of a class: the kinds its algorithm's record asks (issue 26)."""
    alg = (record.get("options") or {}).get("algorithm")
    kinds = get_algorithm(alg).questions if alg in ALGORITHMS else tuple(QUESTION_NAMES)
    return {k: v for k, v in QUESTION_NAMES.items() if k in kinds}


def unasked_of(record: dict) -> str:
    """Why a class's algorithm is asked nothing (its record's reason; empty if it is asked)."""
    alg = (record.get("options") or {}).get("algorithm")
    a = get_algorithm(alg) if alg in ALGORITHMS else None
    return a.unasked if a is not None and not a.questions else ""


def hold_tree(record: dict, release: bool = False) -> None:
    """Keep the class's uploaded tree in the store while the class lives
    (issue 17: an upload a live class uses is never evicted), through the
    store's pins by holder (``class:<code>``); renewed when the projector
    opens, released when the class ends. A store without pins (before
    issue 17's store) keeps the tree by use, as before."""
    store = getattr(current_app.extensions["trees"], "store", None)
    if not record["tree"].startswith("u-") or not hasattr(store, "pin"):
        return
    holder = f"class:{record['code']}"
    try:
        if release:
            store.unpin(holder, record["tree"])
        else:
            store.pin(record["tree"], holder, classes().ttl)
    except Exception:  # the class goes on; the tree is then kept by use, as before
        log.exception("class %s: the store could not hold its tree", record["code"])


def _title(record: dict) -> str:
    """The class's tree's title. A tree the library forgot (unused a while) is
    built again as heavy work, not on the loop; a full queue: its id."""
    try:
        tree = current_app.extensions["trees"].fetch(record["tree"])
    except (ApiError, OverBudget):
        return record["tree"]
    return localized(tree, "title") or record["tree"]


def join_url(code: str) -> str:
    """The link students open: this server as the request reached it, unless
    that is the machine itself (the instructor's laptop at 127.0.0.1), when
    the LAN address ``run.py --host 0.0.0.0`` found is shown instead
    (``CLASS_PUBLIC_URL`` overrides both)."""
    base = current_app.config.get("CLASS_PUBLIC_URL")
    if not base:
        base = request.host_url
        lan = current_app.config.get("CLASS_LAN_URL")
        if lan and _loopback(request.host):
            base = lan
    return f"{base.rstrip('/')}/c/{code}"


def lan_url(listen_host: str, port: int) -> str | None:
    """``http://<LAN address>:<port>`` when listening on every address (``0.0.0.0``):
    the address phones in the room reach this machine at. Read from the
    machine's interfaces, so it works with no internet."""
    if listen_host not in ANY_ADDRESS:
        return None
    for address in machine_addresses():
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            continue            # a host name
        if ip.version == 4 and not ip.is_loopback and not ip.is_link_local:
            return f"http://{address}:{port}"
    return None


def _loopback(host: str) -> bool:
    name = urlsplit(f"//{host}").hostname or ""
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False
