"""The tree library: built-in trees from ``trees/`` plus the uploaded ones.

Built-in trees are read once at start-up (their id is the file name without
extension); a file that fails to load is logged and skipped, never fatal.
Uploaded trees live in the :class:`~app.web.store.UploadStore`; parsed
:class:`~app.search.tree.Tree` objects are kept in a small LRU cache so a
request does not read the text again.
"""
from __future__ import annotations

import hashlib
import json
import logging
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from flask_babel import gettext as _

from app.budget import refusal
from app.games.ids import GameTooBig, UnknownGame, check_size, is_game_id, resolve as resolve_game
from app.games.random_tree import RandomSpec
from app.search.tree import Tree
from app.treefile import (Limits, TreeFileError, TreeTooLarge, decode_text, dump_yaml,
                          load_path, load_tree, tree_to_dict)
from app.treefile.errors import shorten
from app.treefile.library import library_paths

from .errors import ApiError, api_error
from .i18n import error_message
from .store import StoredTree, StoreFull, UploadStore

log = logging.getLogger(__name__)

BUILTIN_SUFFIXES = (".yaml", ".yml", ".json")
RANDOM_BUILDS = 8
"""Random trees one ``?ids=`` request builds at most (each up to 100,000 nodes, 0.6 s;
the library page names uploads only): the rest are left out, as unknown ids are."""
CACHE_NODES = 600_000
"""Nodes of parsed trees kept in memory at most (about 160 MB; three of the largest)."""


_LECTURE_FILES: dict[tuple[str, int, int], Tree] = {}
"""Lecture files already read in this process, by (path, mtime, size): an app is
made once per process in use, but the tests make hundreds, each reading every
file again. A tree never changes (frozen), so one may serve them all."""


def _lecture_file(path: Path) -> Tree:
    """The tree in ``path``, read once while the file stays as it is."""
    stat = path.stat()
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    tree = _LECTURE_FILES.get(key)
    if tree is None:
        if len(_LECTURE_FILES) >= 256:      # folders of other apps' files: forget them
            _LECTURE_FILES.clear()
        tree = _LECTURE_FILES[key] = load_path(path)
    return tree


@dataclass(frozen=True)
class Builtin:
    tree: Tree
    path: Path
    entry: dict


def _os_lock():
    """A lock of the operating system even where gevent patched ``threading``:
    the library is used from gevent's pool of real threads (app.web.offload),
    and a patched lock that one of them waits on was not always woken when
    another released it (every Socket.IO ``start`` then hung in
    bench/server_load.py). Held only for dict updates and one tree build."""
    try:
        from gevent.monkey import get_original
    except ImportError:
        return threading.Lock()
    return get_original("_thread", "allocate_lock")()


def tree_url(tree_id: str) -> str:
    """The visualizer page of a tree."""
    return f"/t/{tree_id}"


def listing_entry(tree_id: str, tree: Tree, builtin: bool) -> dict:
    """What ``GET /api/trees`` shows of one tree."""
    return {"id": tree_id, **tree.summary(), "builtin": builtin, "url": tree_url(tree_id)}


def _random_tree(tree_id: str, limits: Limits) -> Tree:
    """The random tree an ``r-...`` id names (app.games.random_tree), within
    the limits of an uploaded file: a 999-level chain is a valid spec, but no
    JSON encoder or page is made for it (the encoder's recursion fails)."""
    try:
        spec = RandomSpec.from_id(tree_id)
    except ValueError as exc:
        # A catalogue error's reason is said in the reader's language too.
        raise api_error(404, "There is no random tree {id}: {reason}", id=repr(tree_id[:60]),
                        reason=exc if getattr(exc, "msgid", None) else shorten(str(exc), 200)) from exc
    if spec.depth > limits.max_depth:
        raise api_error(404, "There is no random tree {id}: it would be {depth} levels deep, "
                        "and trees are at most {most}", id=repr(tree_id), depth=spec.depth,
                        most=limits.max_depth)
    return spec.tree()


def game_too_big(exc: GameTooBig):
    """The :class:`~app.budget.OverBudget` (413) a game over its budget is
    answered with: its sentence, ``nodes`` (its size, or how far the count
    got: ``exact`` false) and ``limit``."""
    return refusal(exc.msgid, 413, say=exc.fields, nodes=exc.nodes, limit=exc.limit,
                   exact=exc.exact)


def held_nodes(tree) -> int:
    """Nodes a parsed tree holds in memory: a game's lazy tree holds none
    (its ``len(tree.nodes)`` is the whole game's size, never made)."""
    return 0 if getattr(tree, "lazy", False) else len(tree.nodes)


def content_id(tree: Tree) -> str:
    """``u-`` + 12 hex digits of the SHA-256 of the tree's canonical JSON."""
    canonical = json.dumps(tree_to_dict(tree), sort_keys=True, separators=(",", ":"),
                           ensure_ascii=False, allow_nan=False)
    return "u-" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:12]


class TreeLibrary:
    """Every tree the server knows, by id."""

    def __init__(self, trees_dir: str | Path, store: UploadStore,
                 limits=None, cache_size: int = 32, cache_nodes: int = CACHE_NODES,
                 game_size: int = 1_000_000_000):
        self.store = store
        self.game_size = game_size
        self.limits = limits
        self.cache_size = cache_size
        self.cache_nodes = cache_nodes
        self._cached_nodes = 0
        self._cache: OrderedDict[str, Tree] = OrderedDict()
        self._used: dict[str, float] = {}   # tree id -> when last asked for
        self._lock = _os_lock()
        self._building: dict[str, object] = {}   # tree id -> a lock held while it is built
        self.builtins: dict[str, Builtin] = self._load_builtins(Path(trees_dir))

    @staticmethod
    def _load_builtins(folder: Path) -> dict[str, Builtin]:
        found: dict[str, Builtin] = {}
        paths = [p for p in library_paths(folder) if p.suffix in BUILTIN_SUFFIXES]
        if not paths:
            log.warning("no built-in trees found in %s", folder)
        for path in paths:
            if path.stem in found:
                log.error("skipping %s: a built-in tree %r exists already", path, path.stem)
                continue
            try:
                tree = _lecture_file(path)
            except (TreeFileError, OSError, ValueError) as exc:
                log.error("skipping built-in tree %s: %s", path, exc)
                continue
            found[path.stem] = Builtin(tree, path, listing_entry(path.stem, tree, True))
        return found

    # -- reading ------------------------------------------------------------
    def entries(self) -> list[dict]:
        """The library listing: the built-in trees. Uploads are unlisted: in a
        class, students would see each other's trees; they are reached by link."""
        return [b.entry for b in self.builtins.values()]

    def describe(self, ids: list[str]) -> list[dict]:
        """Listing entries of the given trees, in the order asked (built-in,
        uploaded or random); unknown ids are left out."""
        wanted = list(dict.fromkeys(ids))[:500]
        stored = {t.id: t for t in self.store.list(i for i in wanted if i.startswith("u-"))}
        found = []
        builds = RANDOM_BUILDS
        for tree_id in wanted:
            if tree_id in self.builtins:
                found.append(self.builtins[tree_id].entry)
            elif tree_id in stored:
                t = stored[tree_id]
                found.append({**t.summary, "id": t.id, "builtin": False, "url": tree_url(t.id)})
            elif RandomSpec.is_id(tree_id) and (builds or self.ready(tree_id) is not None):
                builds -= self.ready(tree_id) is None
                try:
                    found.append(listing_entry(tree_id, self.fetch(tree_id), False))
                except ApiError:
                    pass
        return found

    def delete(self, tree_id: str, token: str | None) -> bool:
        """Delete an upload whose delete token is ``token``; whether it was."""
        if not self.store.delete(tree_id, token):
            return False
        with self._lock:
            old = self._cache.pop(tree_id, None)
            self._used.pop(tree_id, None)
            if old is not None:
                self._cached_nodes -= held_nodes(old)
        return True

    def get(self, tree_id: str) -> Tree:
        """The tree with this id; :class:`ApiError` 404 if there is none.
        One build per id at a time: thirty students opening the same big
        random tree at once wait for one copy (thirty copies of 40 MB were
        being built in parallel, for the cache to keep one)."""
        if tree_id in self.builtins:
            return self.builtins[tree_id].tree
        tree = self._cached(tree_id)
        if tree is not None:
            return tree
        with self._lock:
            building = self._building.setdefault(tree_id, _os_lock())
        with building:
            tree = self._cached(tree_id)
            if tree is None:
                try:
                    tree = self._build(tree_id)
                finally:
                    with self._lock:
                        self._building.pop(tree_id, None)
        return tree

    def ready(self, tree_id: str) -> Tree | None:
        """The tree if it is at hand (built-in, or parsed already), else None:
        then :meth:`get` may build it, which is heavy work (app.web.offload)."""
        if tree_id in self.builtins:
            return self.builtins[tree_id].tree
        return self._cached(tree_id)

    def fetch(self, tree_id: str) -> Tree:
        """:meth:`get`, as heavy work only where the tree must be built (a
        page of a tree at hand costs no place in the worker queue)."""
        from .offload import offload

        tree = self.ready(tree_id)
        return tree if tree is not None else offload(self.get, tree_id)

    def _cached(self, tree_id: str) -> Tree | None:
        with self._lock:
            if tree_id in self._cache:
                self._cache.move_to_end(tree_id)
                self._used[tree_id] = time.monotonic()
                return self._cache[tree_id]
        return None

    def _build(self, tree_id: str) -> Tree:
        if is_game_id(tree_id):  # a game searched from its rules (app.games.ids)
            try:
                tree = resolve_game(tree_id)
                check_size(tree, self.game_size)   # counted up to the budget only
            except UnknownGame as exc:
                raise ApiError(404, str(exc)) from None
            except GameTooBig as exc:   # 413 with its size, on every endpoint
                raise game_too_big(exc) from None
            self._remember(tree_id, tree)
            return tree
        if RandomSpec.is_id(tree_id):  # a random tree: its id rebuilds it, nothing stored
            tree = _random_tree(tree_id, self.limits or Limits())
            self._remember(tree_id, tree)
            return tree
        stored = self.store.get(tree_id)
        if stored is None:
            raise ApiError(404, _("There is no tree with id %(id)s.", id=repr(shorten(tree_id))))
        try:
            tree = load_tree(stored.text, filename=stored.filename, fmt=stored.format,
                             limits=self.limits)
        except TreeFileError as exc:  # the loader got stricter since the upload
            log.error("stored tree %s can no longer be read: %s", tree_id, exc)
            raise api_error(500, "The stored tree {id} can no longer be read: {reason}",
                            id=repr(tree_id), reason=exc.message) from exc
        self._remember(tree_id, tree)
        return tree

    def is_builtin(self, tree_id: str) -> bool:
        return tree_id in self.builtins

    def entry(self, tree_id: str) -> dict:
        """The listing entry of one tree."""
        if tree_id in self.builtins:
            return self.builtins[tree_id].entry
        return listing_entry(tree_id, self.get(tree_id), False)

    def source(self, tree_id: str) -> tuple[str, str]:
        """``(text, file name)`` of the tree as it was written."""
        if tree_id in self.builtins:
            path = self.builtins[tree_id].path
            return path.read_text(encoding="utf-8"), path.name
        if RandomSpec.is_id(tree_id):
            return dump_yaml(self.get(tree_id)), f"{tree_id}.yaml"
        stored = self.store.get(tree_id)
        if stored is None:
            raise ApiError(404, _("There is no tree with id %(id)s.", id=repr(shorten(tree_id))))
        return stored.text, stored.filename or f"{tree_id}.{stored.format or 'txt'}"

    # -- uploading ----------------------------------------------------------
    def add(self, data: bytes | str, filename: str | None = None, fmt: str | None = None) -> str:
        """Read and keep an uploaded tree file; its id (see :meth:`upload`)."""
        return self.upload(data, filename, fmt)[0]

    def upload(self, data: bytes | str, filename: str | None = None,
               fmt: str | None = None, owner: str = "") -> tuple[str, str | None]:
        """Read and keep an uploaded tree file for ``owner`` (the client's
        address: its share of the store, app.web.store): ``(id, delete token)``,
        the token ``None`` when the same tree was kept already (its first
        uploader may delete its claim; this upload keeps one of its own, so
        the tree stays). Nothing changes on an error. ``fmt`` (``yaml``,
        ``json``, ``notation``) is guessed where ``None``.

        Raises :class:`ApiError`: 400 for a bad file, 413 for one too large.
        """
        try:
            tree = load_tree(data, filename=filename, fmt=fmt, limits=self.limits)
        except TreeFileError as exc:
            status = 413 if isinstance(exc, TreeTooLarge) else 400
            raise ApiError(status, error_message(exc), line=exc.line, column=exc.column) from exc
        # The loader accepted it: keep the text as the user wrote it (as it was read).
        text = decode_text(data, self.limits)
        tree_id = content_id(tree)
        record = StoredTree(id=tree_id, title=tree.title, source=tree.source, format=fmt,
                            filename=filename, text=text,
                            summary=listing_entry(tree_id, tree, False))
        token = secrets.token_urlsafe(24)
        try:
            new = self.store.add(record, token=token, owner=owner)
        except StoreFull as exc:
            raise ApiError(413, str(exc)) from exc
        self._remember(tree_id, tree)
        return tree_id, (token if new else None)

    def sweep(self, idle: float) -> int:
        """Forget parsed trees nobody asked for in ``idle`` seconds (a lecture's
        big random trees, after the lecture); nodes forgotten."""
        cutoff = time.monotonic() - idle
        freed = 0
        with self._lock:
            for tree_id in [t for t, used in self._used.items() if used < cutoff]:
                old = self._cache.pop(tree_id, None)
                del self._used[tree_id]
                if old is not None:
                    self._cached_nodes -= held_nodes(old)
                    freed += held_nodes(old)
        return freed

    def cache_usage(self) -> tuple[int, int]:
        """``(trees, nodes)`` held parsed in memory now."""
        with self._lock:
            return len(self._cache), self._cached_nodes

    def _remember(self, tree_id: str, tree: Tree) -> None:
        with self._lock:
            if tree_id not in self._cache:
                self._cached_nodes += held_nodes(tree)
            self._cache[tree_id] = tree
            self._cache.move_to_end(tree_id)
            self._used[tree_id] = time.monotonic()
            # Count nodes, not just trees: a 200,000-node tree holds about 50 MB,
            # and 32 of them would be gigabytes. The newest always stays.
            while len(self._cache) > 1 and (len(self._cache) > self.cache_size
                                            or self._cached_nodes > self.cache_nodes):
                old_id, old = self._cache.popitem(last=False)
                self._used.pop(old_id, None)
                self._cached_nodes -= held_nodes(old)
