// A PostgreSQL that goes away under load, with two tooldex instances (real processes) on it: nobody crashes,
// store calls answer 503 store_unavailable with Retry-After, readiness says no while liveness says yes, the log
// says once that the store is gone and once that it is back, and both recover by themselves. Start-up waits for it.
// The PostgreSQL here is the test's own (stopping the shared one would break other tests).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { postgresBinDir, smallSnapshot, startOwnPostgres, startTooldex, type LogLine, type OwnPostgres, type TooldexProcess } from '../../helpers/processes.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const gone = (line: LogLine) => line.msg.startsWith('store unavailable');
const back = (line: LogLine) => line.msg === 'store available again';

interface Answer { status: number; code?: string; retryAfter: string | null; at: number }

/** A request that needs the store: an unknown slug is looked up in the store (and its closest slugs with pg_trgm). */
async function storeCall(base: string): Promise<Answer> {
  const response = await fetch(`${base}/tools/context/no-such-tool-zzz`);
  const body = await response.json() as { error?: { code?: string } };
  return { status: response.status, code: body.error?.code, retryAfter: response.headers.get('retry-after'), at: Date.now() };
}

describe('PostgreSQL outage with two instances', { skip: !postgresBinDir() && 'PostgreSQL server binaries are not installed (scripts/setup.sh)' }, () => {
  let pg: OwnPostgres;
  let a: TooldexProcess;
  let b: TooldexProcess;
  let env: Record<string, string>;

  before(async () => {
    pg = await startOwnPostgres();
    env = { DATABASE_URL: pg.url, TOOLDEX_SNAPSHOT: await smallSnapshot(), TOOLDEX_RATE_LIMIT_RPM: '100000' };
    a = await startTooldex(env);
    b = await startTooldex(env);
  });
  after(async () => {
    await a?.dispose();
    await b?.dispose();
    await pg?.dispose();
  });

  it('keeps both instances up through a stop and start under load, then recovers by itself', async (t) => {
    const answers: Answer[] = [];
    const searches: number[] = [];
    let loading = true;
    const worker = async (base: string) => {
      while (loading) {
        answers.push(await storeCall(base).catch(() => ({ status: 0, retryAfter: null, at: Date.now() })));
        await sleep(20);
      }
    };
    const load = [a.url, b.url, a.url, b.url].map(worker);
    let stoppedAt = 0;
    let recoveredMs = 0;
    try {
      await sleep(1500);
      stoppedAt = Date.now();
      await pg.stop();
      await Promise.all([a, b].map((instance) => instance.waitForLog(gone, 15_000)));

      // During the outage: alive, not ready, and the in-memory search index still answers.
      for (const instance of [a, b]) {
        const ready = await fetch(`${instance.url}/healthz`);
        assert.equal(ready.status, 503);
        assert.equal((await ready.json()).error.code, 'store_unavailable');
        assert.ok(ready.headers.get('retry-after'));
        assert.equal((await fetch(`${instance.url}/livez`)).status, 200);
        searches.push((await fetch(`${instance.url}/tools/search?q=http%20client&limit=3`)).status);
      }
      await sleep(3000);
      assert.equal(a.child.exitCode, null, 'instance A is still running');
      assert.equal(b.child.exitCode, null, 'instance B is still running');

      await pg.start();
      const restartedAt = Date.now();
      await Promise.all([a, b].map((instance) => instance.waitForLog(back, 15_000)));
      await Promise.all([a, b].map((instance) => instance.waitReady(15_000)));
      recoveredMs = Date.now() - restartedAt;
      await sleep(500);
    } finally {
      loading = false; // also on failure: the workers must stop or the test file never ends
      await Promise.all(load);
    }

    assert.deepEqual(searches, [200, 200], 'search (in-memory index) keeps answering');
    const statuses = new Set(answers.map((answer) => answer.status));
    assert.ok(!statuses.has(500) && !statuses.has(0), `no 500 and no dropped connection; saw ${[...statuses].join(', ')}`);
    const during = answers.filter((answer) => answer.status === 503);
    assert.ok(during.length > 10, `503s during the outage (${during.length})`);
    for (const answer of during) {
      assert.equal(answer.code, 'store_unavailable');
      assert.ok(Number(answer.retryAfter) >= 1, 'Retry-After on every 503');
      assert.ok(answer.at >= stoppedAt, '503 only after the stop');
    }
    const last = answers.slice(-8);
    assert.ok(last.every((answer) => answer.status === 404), `answers again after recovery: ${last.map((x) => x.status).join(',')}`);
    assert.ok(recoveredMs < 15_000, `recovered ${recoveredMs} ms after PostgreSQL came back`);
    t.diagnostic(`${answers.length} store calls: ${during.length} answered 503 store_unavailable during the outage; ready again ${recoveredMs} ms after PostgreSQL came back`);

    for (const instance of [a, b]) {
      assert.equal(instance.logs.filter(gone).length, 1, 'the outage is logged once');
      assert.equal(instance.logs.filter(back).length, 1, 'the recovery is logged once');
      const noisy = instance.logs.filter((line) => line.level >= 40 && !gone(line));
      assert.ok(noisy.length <= 2, `no log flood: ${noisy.map((line) => line.msg).join(' | ')}`);
    }
  });

  it('waits at start-up for a PostgreSQL that is not there yet, alive but not ready meanwhile', async () => {
    await pg.stop();
    const late = await startTooldex({ ...env, TOOLDEX_STORE_WAIT_MS: '60000', TOOLDEX_STORE_BACKOFF_MAX_MS: '500' }, { waitReady: false });
    const impatient = await startTooldex({ ...env, TOOLDEX_STORE_WAIT_MS: '1000' }, { waitReady: false });
    try {
      await late.waitForLog((line) => line.msg === 'database not reachable yet; waiting for it');
      assert.equal((await fetch(`${late.url}/livez`)).status, 200);
      const starting = await fetch(`${late.url}/healthz`);
      assert.equal(starting.status, 503);
      assert.equal((await starting.json()).error.code, 'starting');
      assert.ok(starting.headers.get('retry-after'));

      const { code } = await impatient.exited;
      assert.equal(code, 1, 'a bounded wait ends in a clear failure');
      assert.ok(impatient.logs.some((line) => line.msg === 'start-up failed' && JSON.stringify(line).includes('TOOLDEX_STORE_WAIT_MS')),
        JSON.stringify(impatient.logs));

      await sleep(1000);
      await pg.start();
      await late.waitReady(30_000);
      assert.equal(late.logs.filter((line) => line.msg === 'database not reachable yet; waiting for it').length, 1);
      assert.ok(late.logs.some((line) => line.msg === 'database answered; starting'));
    } finally {
      await late.dispose();
      await impatient.dispose();
    }
  });
});
