// Numbers as app/search/numbers.py writes them, for the page's narrator
// (narrate.js and its parts): values from the compact records, strict JSON
// values (jv) and a lecturer's figures (fmt). DOM-free.

const MINUS = '\u2212';

/** A record's value as a number (infinities come as strings), vectors too. */
export function num(x) {
  if (x === 'inf') return Infinity;
  if (x === '-inf') return -Infinity;
  if (Array.isArray(x)) return x.map(num);
  return x;
}

/** numbers.jv: strict JSON (infinities as strings, float noise rounded away). */
export function jv(x) {
  if (x === null || x === undefined) return null;
  if (Array.isArray(x)) return x.map(jv);
  if (typeof x !== 'number') return x;
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (Number.isInteger(x) && Math.abs(x) < 2 ** 53) return x === 0 ? 0 : x;
  return Number(x.toPrecision(12));
}

/** Python's format(x, 'g'): six significant digits, no trailing zeros. */
function pyG(x) {
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [m, e] = x.toExponential(5).split('e');
  const exp = Number(e);
  if (exp < -4 || exp >= 6) {
    const mant = m.includes('.') ? m.replace(/0+$/, '').replace(/\.$/, '') : m;
    return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  let s = x.toFixed(Math.max(0, 5 - exp));
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s;
}

/** numbers.fmt: a value as a lecturer writes it (a true minus sign). */
export function fmt(x) {
  // Most values are whole numbers: the quick way first.
  if (typeof x === 'number' && Number.isInteger(x) && Math.abs(x) < 2 ** 53) {
    return x < 0 ? MINUS + String(-x) : String(x);
  }
  if (x === null || x === undefined) return '—';
  if (x === 'inf' || x === Infinity) return '+∞';
  if (x === '-inf' || x === -Infinity) return '−∞';
  if (Array.isArray(x)) return `(${x.map(fmt).join(', ')})`;
  if (typeof x !== 'number') return String(x);
  const j = jv(x);
  if (typeof j === 'string') return fmt(j);
  return (Number.isInteger(j) ? String(j) : pyG(j)).replace(/-/g, MINUS);
}

/** Python's == on values: numbers, strings, vectors, null. */
export function eq(a, b) {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => eq(x, b[i]));
  }
  return false;
}

/** narrate._num: a view value back to a number. */
export function unview(x) {
  if (x === 'inf') return Infinity;
  if (x === '-inf') return -Infinity;
  return x;
}


/**
 * Python's round(x, d) (d small): the exact value rounded half to even (a
 * tie only where x is k / 2^(d+1), whose decimals end there), then the
 * nearest double, as [mcts]'s means and UCB1 numbers are rounded.
 */
export function round(x, d) {
  if (!Number.isFinite(x)) return x;
  const scale = 10 ** d;
  const y = x * scale;                  // off the exact x × 10^d by less than 1e-8 below 1e8:
  const f = Math.floor(y), frac = y - f;
  if (Math.abs(y) < 1e8 && Math.abs(frac - 0.5) > 1e-7) return (frac < 0.5 ? f : f + 1) / scale;
  // (far from a half, the same integer as the exact value's; ÷ is correctly rounded)
  if (Number.isInteger(x * 2 ** (d + 1)) && Math.abs(x) < 2 ** 40) {
    // exact: y = k × 5^d / 2
    if (frac === 0.5) return (f % 2 === 0 ? f : f + 1) / scale;
  }
  return Number(x.toFixed(d));
}
