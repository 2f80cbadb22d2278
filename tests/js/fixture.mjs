// What a Node test in tests/js shares: the JSON fixture the pytest test
// wrote (the Python core's outputs), and the page's modules by name.
import { readFileSync } from 'node:fs';

/** The fixture pytest passed in (FIXTURE: the path of a JSON file). */
export function fixture() {
  const path = process.env.FIXTURE;
  if (!path) throw new Error('FIXTURE is not set: run this file through pytest (tests/js/node.py)');
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** The URL of static/js/<name>, for `await import(page('core/model.js'))`. */
export function page(name) {
  return new URL(`../../static/js/${name}`, import.meta.url).href;
}
