// The tidy tree layout (Reingold-Tilford, in Buchheim, Jünger and Leipert's
// linear time) over flat arrays: d3-hierarchy's `tree()` (ISC licence,
// static/vendor/d3-hierarchy) step for step, the same arithmetic in the same
// order, so every node lands exactly where d3 puts it
// (tests/js/tidy.test.mjs holds the two together). d3 makes two objects per
// node (its hierarchy's and its layout's, each with a children array):
// 222,222 objects for a 111,111-node tree, a tenth of a second to make and
// as long again to collect. Here a node is an index into a few typed arrays.

/**
 * tidy(root, childrenOf, separation) -> {nodes, x, depth}. `childrenOf(n)`:
 * the children laid out under `n` (null or empty: none); `separation(a, b,
 * siblings)`: the distance between the centres of neighbours `a` and `b`
 * (either order; `siblings`: they share their parent), as d3's
 * `tree().nodeSize([1, dy]).separation(...)` asks it. `nodes`: every node
 * laid out, parents before children (breadth first); `x[i]` the centre of
 * `nodes[i]` (the root at 0); `depth[i]` its depth below `root`.
 */
export function tidy(root, childrenOf, separation) {
  // Breadth first: a node's children get consecutive numbers (no child lists).
  const nodes = [root], parentOf = [-1], nth = [0], first = [], count = [];
  for (let v = 0; v < nodes.length; v++) {
    const kids = childrenOf(nodes[v]);
    const k = kids ? kids.length : 0;
    first.push(nodes.length);
    count.push(k);
    for (let i = 0; i < k; i++) { nodes.push(kids[i]); parentOf.push(v); nth.push(i); }
  }
  const n = nodes.length, V = n;      // V: d3's parent of the root, with the root as its one child
  first.push(0); count.push(1); parentOf[0] = V;
  const z = new Float64Array(n + 1);  // prelim
  const m = new Float64Array(n + 1);  // mod
  const c = new Float64Array(n + 1);  // change
  const s = new Float64Array(n + 1);  // shift
  const th = new Int32Array(n + 1).fill(-1);   // thread
  const A = new Int32Array(n + 1).fill(-1);    // default ancestor
  const a = new Int32Array(n + 1);             // ancestor
  for (let v = 0; v <= n; v++) a[v] = v;

  const sep = (p, q) => separation(nodes[p], nodes[q], parentOf[p] === parentOf[q]);
  const nextLeft = (v) => (count[v] ? first[v] : th[v]);
  const nextRight = (v) => (count[v] ? first[v] + count[v] - 1 : th[v]);

  function moveSubtree(wm, wp, shift) {
    const change = shift / (nth[wp] - nth[wm]);
    c[wp] -= change;
    s[wp] += shift;
    c[wm] += change;
    z[wp] += shift;
    m[wp] += shift;
  }

  function executeShifts(v) {
    let shift = 0, change = 0;
    for (let w = first[v] + count[v] - 1; w >= first[v]; w--) {
      z[w] += shift;
      m[w] += shift;
      shift += s[w] + (change += c[w]);
    }
  }

  function apportion(v, w, ancestor) {
    if (w < 0) return ancestor;
    let vip = v, vop = v, vim = w, vom = first[parentOf[vip]];
    let sip = m[vip], sop = m[vop], sim = m[vim], som = m[vom];
    for (;;) {
      vim = nextRight(vim);
      vip = nextLeft(vip);
      if (vim < 0 || vip < 0) break;
      vom = nextLeft(vom);
      vop = nextRight(vop);
      a[vop] = v;
      const shift = z[vim] + sim - z[vip] - sip + sep(vim, vip);
      if (shift > 0) {
        moveSubtree(parentOf[a[vim]] === parentOf[v] ? a[vim] : ancestor, v, shift);
        sip += shift;
        sop += shift;
      }
      sim += m[vim];
      sip += m[vip];
      som += m[vom];
      sop += m[vop];
    }
    if (vim >= 0 && nextRight(vop) < 0) {
      th[vop] = vim;
      m[vop] += sim - sop;
    }
    if (vip >= 0 && nextLeft(vom) < 0) {
      th[vom] = vip;
      m[vom] += sip - som;
      ancestor = v;
    }
    return ancestor;
  }

  function firstWalk(v) {
    const p = parentOf[v];
    const w = nth[v] ? v - 1 : -1;     // the left sibling
    if (count[v]) {
      executeShifts(v);
      const midpoint = (z[first[v]] + z[first[v] + count[v] - 1]) / 2;
      if (w >= 0) {
        z[v] = z[w] + sep(v, w);
        m[v] = z[v] - midpoint;
      } else {
        z[v] = midpoint;
      }
    } else if (w >= 0) {
      z[v] = z[w] + sep(v, w);
    }
    A[p] = apportion(v, w, A[p] >= 0 ? A[p] : first[p]);
  }

  // Children before parents, left to right (d3's eachAfter).
  const stack = new Int32Array(n), after = new Int32Array(n);
  let top = 0, done = 0;
  stack[top++] = 0;
  while (top) {
    const v = stack[--top];
    after[done++] = v;
    for (let w = first[v]; w < first[v] + count[v]; w++) stack[top++] = w;
  }
  for (let k = n - 1; k >= 0; k--) firstWalk(after[k]);
  m[V] = -z[0];
  // Parents before children (d3's eachBefore): the modifiers summed down.
  const x = new Float64Array(n), depth = new Int32Array(n);
  for (let v = 0; v < n; v++) {
    const p = parentOf[v];
    x[v] = z[v] + m[p];
    m[v] += m[p];
    if (v) depth[v] = depth[p] + 1;
  }
  return { nodes, x, depth };
}
