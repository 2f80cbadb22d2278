// static/js/core/stream.js under Node with a socket of our own (tests/js/test_stream.py):
// a server shedding load refuses a start or a pull with 503 + retry_after; the
// page waits that long, saying so, and asks again; every event arrives, in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, page } from './fixture.mjs';

const { total, refuse } = fixture();
globalThis.document = { documentElement: { lang: 'en' } };
const { makeFeeder, startRun } = await import(page('core/stream.js'));

/** A server of `total` events refusing the asks numbered in `refuse` (1-based). */
function server() {
  let position = 0, asks = 0;
  const busy = { ok: false, error: { message: 'The server is busy', status: 503, retry_after: 0.01 } };
  const answer = (name, payload) => {
    asks += 1;
    if (refuse.includes(asks)) return busy;
    if (name === 'start') return { ok: true, run: 'r1' };
    const events = [];
    while (events.length < payload.count && position < total) {
      position += 1;
      events.push({ step: position, type: position === total ? 'done' : 'enter' });
    }
    return { ok: true, events_json: JSON.stringify(events), done: position === total };
  };
  return {
    connected: true,
    once() {},
    timeout() { return { emitWithAck: async (name, payload) => answer(name, payload) }; },
  };
}

test('a refused start and refused pulls are waited out; every event arrives in order', async () => {
  const socket = server();
  const waits = [];
  const id = await startRun(socket, { tree: 't' }, { onWait: (s) => waits.push(s) });
  assert.equal(id, 'r1');
  const got = [];
  const run = { fetched: 0, done: false,
    push(events) { got.push(...events); this.fetched += events.length; this.done = events.at(-1)?.type === 'done'; } };
  const feeder = makeFeeder(socket, id, run, { onWait: (s) => waits.push(s) });
  await feeder.fill(Infinity, 200);
  assert.ok(run.done);
  assert.deepEqual(got.map((e) => e.step), Array.from({ length: total }, (_, i) => i + 1));
  assert.equal(waits.length, refuse.length);
  assert.ok(waits.every((s) => s === 0.01));
});
