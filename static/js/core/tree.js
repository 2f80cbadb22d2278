// The tree as the page uses it: the JSON of GET /api/trees/<id> read into
// plain node records, and laid out once with d3-hierarchy's tidy tree (its
// algorithm over flat arrays: tidy.js) so that nodes never move while a
// search is stepped through (they are only revealed by class).

import { tidy } from './tidy.js';
import { planLabels, SHAPE, leafWidth } from './labels.js';
import { RECORDS } from './algorithms.js';
import { pageFetch } from './i18n.js';

/** Fetch a tree as JSON (`query`: e.g. '?open=X5' for a game); throws an Error with the server's message. */
export async function fetchTree(id, query = '') {
  const res = await pageFetch(`/api/trees/${encodeURIComponent(id)}${query}`);
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.error?.message || `tree ${id}: HTTP ${res.status}`);
  return body;
}

// Every leaf's children: one array, frozen (not 100,000 empty ones to collect).
const LEAF = Object.freeze([]);

/**
 * Read the tree JSON (the structure of a tree file: players, root, children,
 * value, eval, type: chance, probability; or, with `form: 'flat'`, the same
 * nodes as columns in preorder, `nodes`: app.web.treejson.flat_nodes) into
 * {root, nodes, byId, players}.
 * Node records: id, label, player (name), role (max|min|chance|leaf|player),
 * playerIndex, value, eval, probability, depth, parent, children.
 */
export function readTree(json) {
  const players = json.players?.length ? json.players.map(String) : ['MAX', 'MIN'];
  const multiplayer = players.length > 2;
  const nodes = [];
  const byId = new Map();
  let auto = 0;

  /** The node record of `raw` (a tree file's node: its fields) with `count` children to come. */
  function record(raw, count, parent, depth) {
    const chance = raw.type === 'chance' || raw.chance === true || raw.player === 'CHANCE';
    let playerIndex = typeof raw.player === 'number' ? raw.player : players.indexOf(raw.player);
    if (playerIndex < 0) playerIndex = depth % players.length;
    // The API writes every id (explicit_ids); a bare leaf only comes from
    // hand-made JSON, where any unique id will do.
    const id = raw.id != null ? String(raw.id) : `_${++auto}`;
    // A game's node whose subtree the server left out (app.games.lazy): an
    // inner node drawn folded, with the size of what it holds.
    const folded = raw.collapsed === true;
    const node = {
      id,
      label: raw.label != null ? String(raw.label) : id,
      player: chance ? 'CHANCE' : players[playerIndex],
      playerIndex: chance ? -1 : playerIndex,
      role: chance ? 'chance' : count === 0 && !folded ? 'leaf'
        : multiplayer ? 'player' : playerIndex === 0 ? 'max' : 'min',
      folded,
      size: folded ? raw.size ?? null : null,
      value: raw.value ?? null,
      eval: raw.eval ?? null,
      probability: raw.probability ?? null,
      depth,
      parent,
      children: count ? [] : LEAF,
      index: nodes.length,
      // (the layout's: in the literal, so that setting them allocates nothing more per node)
      x: null, y: null,
    };
    nodes.push(node);
    byId.set(id, node);
    if (parent) parent.children.push(node);
    return node;
  }

  if (json.form === 'flat') readColumns(json.nodes, record);
  else readNested(json.root, record);
  const first = { node: nodes[0] };
  const height = nodes.reduce((h, n) => Math.max(h, n.depth), 0);
  return {
    root: first.node, nodes, byId, players, multiplayer, height,
    hasChance: nodes.some((n) => n.role === 'chance'),
    game: json.game || null,
    // The leaf values' range [L, U] of a chance tree (Star1 prunes with it), else null.
    bounds: Array.isArray(json.bounds) && json.bounds.length === 2 ? json.bounds.map(Number) : null,
    title: json.title || '', source: json.source || '',
    description: json.description || '', algorithm: json.algorithm || null,
    translations: json.translations || {},
    // The depth limit the tree's lecture uses (the page opens with it).
    depth: Number.isInteger(json.depth) ? json.depth : null,
    algorithms: Array.isArray(json.algorithms) ? json.algorithms.map(String) : null,
    // A game's positions in words, by label ("X in the centre"), in the page's language.
    positions: json.positions && typeof json.positions === 'object' ? json.positions : null,
    // Its moves in words, by node id ("O in the top-right corner to block", "X in column 4").
    moves: json.moves && typeof json.moves === 'object' ? json.moves : null,
  };
}

/** The nested form: record(raw, count, parent, depth) for every node, in preorder. */
function readNested(root, record) {
  // Explicit stack (generated trees can be deeper than the JS call stack) of
  // (raw, parent, depth) triples, flat (no array per node: 111,111 of them
  // are garbage to collect), so that nodes are made in preorder: the order
  // of the file, and of a left-to-right search.
  const stack = [root, null, 0];
  while (stack.length) {
    const depth = stack.pop(), parent = stack.pop();
    let raw = stack.pop();
    if (typeof raw === 'number' || Array.isArray(raw)) raw = { value: raw };
    const children = raw.children || [];
    const node = record(raw, children.length, parent, depth);
    // children pushed in reverse, so that nodes are made in preorder
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i], node, depth + 1);
  }
}

/**
 * The flat form (columns in preorder: ids, children counts, values, and
 * each other field by index where a node has it): record() for every node,
 * reading them through one object reused (no object per node to collect).
 */
function readColumns(cols, record) {
  const { ids, children, value } = cols;
  const fields = Object.keys(cols).filter((k) => k !== 'ids' && k !== 'children' && k !== 'value');
  if (!Array.isArray(ids) || !ids.length || children?.length !== ids.length || value?.length !== ids.length) {
    throw new Error('the tree has no nodes');
  }
  const raw = {};
  const open = [], left = [];      // the parents whose children are still coming, and how many
  for (let i = 0; i < ids.length; i++) {
    while (left.length && left[left.length - 1] === 0) { left.pop(); open.pop(); }
    if (i && !open.length) throw new Error('the tree has more than one root');
    if (left.length) left[left.length - 1] -= 1;
    raw.id = ids[i];
    raw.value = value[i];
    for (const k of fields) raw[k] = cols[k][i];
    const count = children[i];
    const node = record(raw, count, open.length ? open[open.length - 1] : null, open.length);
    if (count > 0) { open.push(node); left.push(count); }
  }
}

/** The nodes a view draws, in preorder: none below the depth limit or
 * inside a collapsed subtree (both painters and the count walk the same). */
export function* drawnNodes(t, maxDepth = null, collapsed = null) {
  const folded = new Set();
  for (const n of t.nodes) {
    if (maxDepth != null && n.depth > maxDepth) continue;
    if (collapsed && n.parent && (folded.has(n.parent.id) || collapsed.has(n.parent.id))) {
      folded.add(n.id);
      continue;
    }
    yield n;
  }
}

/** How many nodes a view with these options draws. */
export function drawnCount(t, { maxDepth = null, collapsed = null } = {}) {
  if (maxDepth == null && !collapsed) return t.nodes.length;
  let count = 0;
  for (const _ of drawnNodes(t, maxDepth, collapsed)) count += 1;
  return count;
}

/** How a node is read aloud: its position in words for a game's board or piles, else its label. */
export function spokenLabel(t, n) {
  return (t.positions && Object.hasOwn(t.positions, n.label) && t.positions[n.label]) || n.label;
}

/** A node named as the move that reaches it ("X in column 4"), else as spokenLabel. */
export function moveLabel(t, n) {
  return (t.moves && Object.hasOwn(t.moves, n.id) && t.moves[n.id]) || spokenLabel(t, n);
}

/**
 * The algorithms that fit a tree, the first being its default: the server's
 * list (app.search.algorithms_for) when the tree came from the API.
 */
export function algorithmsFor(t) {
  if (t.algorithms?.length) return t.algorithms;
  // Else as app.search.algorithms_for, from the records: iterative deepening
  // stops at every depth, so every inner node below the root needs an eval.
  const evals = t.nodes.every((n) => n === t.root || n.children.length === 0 || n.eval != null);
  const all = RECORDS.filter((a) => (a.players === 'vectors') === Boolean(t.multiplayer)
    && (a.chance === 'accepts') === Boolean(t.hasChance) && !a.leaf_bounds && a.whatif !== false
    && (a.evals !== 'every' || evals)).map((a) => a.id);
  const first = all.includes(t.algorithm) ? t.algorithm
    : (all.find((id) => RECORDS.find((a) => a.id === id).bounds) ?? all[0]);
  return [first, ...all.filter((a) => a !== first)];
}

/**
 * How many static evaluations plain minimax makes below `node` with a depth
 * limit (null = none): the leaves, plus the inner nodes the limit stops at.
 */
export function evaluationsBelow(node, limit) {
  let count = 0;
  const stack = [node];
  while (stack.length) {
    const n = stack.pop();
    if (n.children.length === 0 || (limit != null && n.depth >= limit)) count += 1;
    else for (const c of n.children) stack.push(c);
  }
  return count;
}

// -- layout -----------------------------------------------------------------

export const LEVEL = 96;       // vertical distance between plies (px)
export { SHAPE, leafWidth } from './labels.js';

/**
 * Lay the whole tree out once: sets n.x, n.y on every node (down to
 * `maxDepth` if given) and returns the bounding box {x0, y0, x1, y1, plan}
 * of the nodes *and every label they carry*. Neighbours are spaced by their
 * labels (labels.js: a name on the left, alpha/beta on the right, a name or
 * a board under a leaf), so no two labels can meet; siblings sit closer than
 * cousins, so the structure reads at a glance (the textbook look).
 * `names: false` leaves the names out (huge trees draw none).
 */
export function layout(t, { compact = false, maxDepth = null, names = true, collapsed = null, level = null } = {}) {
  const plan = planLabels(t, { names });
  const of = plan.of;
  const [near, far] = compact ? [6, 12] : [10, 22];
  // `level`: a shorter distance between plies (presentation mode: larger
  // type for the same height), never so short that what hangs under one ply
  // (a leaf's name or picture) reaches what stands above the next.
  const dy = level == null ? (compact ? LEVEL * 0.8 : LEVEL) : Math.max(level, plyRoom(t, of, maxDepth));
  // With a depth limit, what lies beyond it is not laid out (nor drawn);
  // nor is what lies under a collapsed node (`collapsed`: a Set of ids).
  const below = (n) => ((maxDepth != null && n.depth >= maxDepth) || collapsed?.has(n.id)
    ? null : n.children);
  // nodeSize 1: separation is then the distance in px between two centres.
  // d3 asks for the separation of two neighbours in either order (left-right
  // in its contour walk, right-left between siblings): the preorder index
  // says which is on the left.
  const gap = (a, b, siblings) => (a.index < b.index ? of(a).right + of(b).left : of(b).right + of(a).left)
    + (siblings ? near : far);
  const { nodes, x, depth } = tidy(t.root, below, gap);
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i], p = of(n);
    n.x = x[i];
    n.y = depth[i] * dy;
    x0 = Math.min(x0, n.x - p.left);
    x1 = Math.max(x1, n.x + p.right);
    y0 = Math.min(y0, n.y - p.above);
    y1 = Math.max(y1, n.y + p.below);
  }
  const pad = 8;
  return { x0: x0 - pad, y0: y0 - pad, x1: x1 + pad, y1: y1 + pad, plan };
}

/** The least distance between plies that keeps every ply's labels off the next one's. */
function plyRoom(t, of, maxDepth) {
  const below = [], above = [];
  for (const n of t.nodes) {
    if (maxDepth != null && n.depth > maxDepth) continue;
    const p = of(n);
    below[n.depth] = Math.max(below[n.depth] ?? 0, p.below);
    above[n.depth] = Math.max(above[n.depth] ?? 0, p.above);
  }
  let room = 0;
  for (let d = 0; d + 1 < above.length; d++) room = Math.max(room, (below[d] ?? 0) + (above[d + 1] ?? 0) + 12);
  return room;
}

/**
 * SVG path of a node's shape, centred on (x, y) (default the origin): an
 * absolute start point, then relative moves, so that a drawing can place
 * shapes without a transform per node.
 */
export function shapePath(n, r = SHAPE, x = 0, y = 0) {
  const h = r * 1.1;
  switch (n.role === 'player' ? PLAYER_SHAPES[n.playerIndex % PLAYER_SHAPES.length] : n.role) {
    case 'max': return `M${x},${y - h} l${r * 1.2},${h * 1.75} h${-r * 2.4}Z`;
    case 'min': return `M${x},${y + h} l${r * 1.2},${-h * 1.75} h${-r * 2.4}Z`;
    case 'diamond': {
      const a = r * 1.15;
      return `M${x},${y - a} l${a},${a} l${-a},${a} l${-a},${-a}Z`;
    }
    case 'hexagon': return polygon(6, r * 1.05, x, y);
    case 'pentagon': return polygon(5, r * 1.1, x, y);
    case 'chance': return `M${x - r},${y} a${r},${r} 0 1,0 ${2 * r},0 a${r},${r} 0 1,0 ${-2 * r},0Z`;
    default: { // leaf: a square, widened to fit a vector value
      const w = leafWidth(n) / 2, s = r * 0.85;
      return `M${x - w},${y - s} h${2 * w} v${2 * s} h${-2 * w}Z`;
    }
  }
}

// max^n players get a shape each (and a letter), not just a colour.
const PLAYER_SHAPES = ['max', 'min', 'diamond', 'hexagon', 'pentagon'];

function polygon(k, r, x, y) {
  const pts = [];
  for (let i = 0; i < k; i++) {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / k;
    pts.push(`${(x + r * Math.cos(a)).toFixed(2)},${(y + r * Math.sin(a)).toFixed(2)}`);
  }
  return `M${pts.join(' L')}Z`;
}
