/*
 * bench/compaction: preparing the compaction of a long session, before and after decision 054.
 * For 1k, 30k, 300k and 1M messages: the old (quadratic) fitting of the summary request against
 * the linear one on the same requests, and how long the server's event loop is held: before, the
 * whole preparation (plan, estimate, serialise, fit) ran on it; now it runs on a worker and the
 * loop only copies the path to it, in slices. Run: `npm run bench compaction` (or
 * `npx tsx bench/compaction/main.ts`). SIZES=1000,30000 picks the sizes; OLD_LIMIT_S (default 180)
 * is how long the old fitting may run before it is stopped and reported as "> limit".
 */
import os from 'node:os';
import { createRequire } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { fitSummaryRequest } from '../../server/compaction/fit-summary-request.js';
import { prepareCompactionInWorker } from '../../server/compaction/compaction-runner.js';
import { newestFirst } from '../../server/compaction/session-path.js';
import { benchEntries, digest, fitInputs, PARAMS, TEXT_SCALE } from './fit-inputs.js';

const sizes = (process.env.SIZES ?? '1000,30000,300000,1000000').split(',').map(Number);
const oldLimitMs = Number(process.env.OLD_LIMIT_S ?? 180) * 1000;

interface OldRun {
  planMs: number;
  fitMs: number;
  digest: string;
}

/** The old preparation in a worker (tsx's require hook, as the compaction runner loads its own). */
function runOld(messages: number): Promise<OldRun | 'stopped'> {
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const source = fileURLToPath(new URL('./old-fit-worker.ts', import.meta.url));
  const worker = new Worker(
    `require(${JSON.stringify(tsx)}).require(${JSON.stringify(source)}, ${JSON.stringify(source)});`,
    { eval: true, execArgv: [], workerData: { messages } },
  );
  return new Promise((resolve, reject) => {
    // Generating the session takes a few seconds of its own; the limit is for the old work.
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve('stopped');
    }, oldLimitMs + 10_000);
    worker.once('message', (run: OldRun) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(run);
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
const ratio = (old: number, now: number) => `${(old / now).toFixed(old / now >= 100 ? 0 : 1)}×`;

process.stdout.write(
  `compaction preparation, texts × ${TEXT_SCALE}, window ${PARAMS.model.contextWindow}, ` +
    `${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}\n\n`,
);
// The machine's own noise: the loop's delays while it has nothing to do.
{
  const idle = monitorEventLoopDelay({ resolution: 1 });
  idle.enable();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  idle.disable();
  process.stdout.write(
    `idle loop for 2 s: longest delay ${(idle.max / 1e6).toFixed(1)} ms, p99 ${(idle.percentile(99) / 1e6).toFixed(1)} ms\n`,
  );
}
// The first job starts the worker (tens of milliseconds, once; from source, tsx compiles it).
const coldStart = performance.now();
await prepareCompactionInWorker(newestFirst(benchEntries(200)), PARAMS);
process.stdout.write(`worker start and a 200-message job: ${ms(performance.now() - coldStart)}\n`);
const warmStart = performance.now();
await prepareCompactionInWorker(newestFirst(benchEntries(200)), PARAMS);
process.stdout.write(
  `the same job on the waiting worker: ${ms(performance.now() - warmStart)}\n\n`,
);
const rows: string[][] = [];
for (const messages of sizes) {
  const entries = benchEntries(messages);
  global.gc?.();

  // New, on this thread: plan + convert (unchanged code), then the linear fitting.
  const planStart = performance.now();
  const inputs = fitInputs(entries);
  const fitStart = performance.now();
  const fitted = inputs.map((input) => fitSummaryRequest(input));
  const fitMs = performance.now() - fitStart;
  const planMs = fitStart - planStart;

  // New, as the server runs it: the path copied to a worker in slices, the job there.
  global.gc?.();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const workerStart = performance.now();
  const result = await prepareCompactionInWorker(newestFirst(entries), PARAMS);
  const workerMs = performance.now() - workerStart;
  delay.disable();
  const stallMs = delay.max / 1e6;
  const p99Ms = delay.percentile(99) / 1e6;
  if (result.type !== 'prepared') throw new Error(`unexpected: ${result.message}`);

  const old = await runOld(messages);
  const same = old === 'stopped' ? 'not compared' : old.digest === digest(fitted) ? 'yes' : 'NO';
  const limit = `> ${ms(oldLimitMs)}`;
  const oldFit = old === 'stopped' ? limit : ms(old.fitMs);
  const oldHeld = old === 'stopped' ? limit : ms(old.planMs + old.fitMs);
  const fitRatio = old === 'stopped' ? `> ${ratio(oldLimitMs, fitMs)}` : ratio(old.fitMs, fitMs);
  const heldRatio =
    old === 'stopped' ? `> ${ratio(oldLimitMs, stallMs)}` : ratio(old.planMs + old.fitMs, stallMs);
  rows.push([
    messages.toLocaleString('en-US'),
    oldFit,
    ms(fitMs),
    fitRatio,
    oldHeld,
    `${stallMs.toFixed(1)} ms (p99 ${p99Ms.toFixed(1)})`,
    heldRatio,
    ms(workerMs),
    ms(planMs + fitMs),
    same,
  ]);
  process.stdout.write(`${messages} messages done\n`);
}

const header = [
  'messages',
  'fit, old',
  'fit, new',
  'fit ratio',
  'loop held, old (whole preparation)',
  'loop held, new (longest stall, p99 delay)',
  'stall ratio',
  'new preparation on the worker (wall)',
  'same work on one thread',
  'same requests',
];
process.stdout.write(`\n| ${header.join(' | ')} |\n| ${header.map(() => '---').join(' | ')} |\n`);
for (const row of rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
process.exit(0);
