import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { GrepHits, GrepJob, GrepSummary } from './grep-search.js';

/*
 * Runs one grep search in its own worker thread, so that a pattern that backtracks
 * catastrophically burns a worker, never the server's event loop (every session shares it).
 * The worker is terminated when the time budget runs out or the tool's signal aborts; whatever
 * matches it had reported by then are kept.
 */

/** Wall-clock budget of one search, worker start-up included. */
export const DEFAULT_GREP_TIME_BUDGET_MS = 10_000;

export type GrepWorkerMessage =
  | ({ type: 'hits' } & GrepHits)
  | ({ type: 'done' } & GrepSummary)
  | { type: 'failed'; message: string };

export type GrepOutcome =
  /** The search finished. */
  | { type: 'done' }
  /** The budget ran out and the worker was terminated. */
  | { type: 'timeout' }
  /** The signal aborted and the worker was terminated. */
  | { type: 'aborted' }
  /** The search itself failed (the worker threw or died). */
  | { type: 'failed'; message: string };

export interface GrepRun extends GrepSummary {
  outcome: GrepOutcome;
  /** Output lines reported before the search ended or was stopped. */
  lines: string[];
  matches: number;
}

interface WorkerEntry {
  /** A script file, or source code to evaluate. */
  script: URL | string;
  eval: boolean;
}

let entry: WorkerEntry | undefined;

const live = new Set<Worker>();

/** How many grep workers are running now (each stays counted until its thread has exited). */
export function activeGrepWorkers(): number {
  return live.size;
}

/**
 * The worker script beside this module: `grep-worker.js` when running the build (dist/); when
 * running from source (tsx, vitest) there is only `grep-worker.ts`, which a small bootstrap loads
 * through tsx's require hook (node 20 does not apply `--import` loaders to a worker's entry).
 */
function workerEntry(): WorkerEntry {
  if (entry) return entry;
  const compiled = new URL('./grep-worker.js', import.meta.url);
  if (fs.existsSync(fileURLToPath(compiled))) {
    entry = { script: compiled, eval: false };
  } else {
    const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
    const source = fileURLToPath(new URL('./grep-worker.ts', import.meta.url));
    entry = {
      script: `require(${JSON.stringify(tsx)}).require(${JSON.stringify(source)}, ${JSON.stringify(source)});`,
      eval: true,
    };
  }
  return entry;
}

function isWorkerMessage(value: unknown): value is GrepWorkerMessage {
  if (value === null || typeof value !== 'object') return false;
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case 'hits':
      return (
        Array.isArray(message.lines) &&
        message.lines.every((line) => typeof line === 'string') &&
        typeof message.matches === 'number'
      );
    case 'done':
      return typeof message.limited === 'boolean' && typeof message.clipped === 'boolean';
    case 'failed':
      return typeof message.message === 'string';
    default:
      return false;
  }
}

/**
 * Runs `job` in a new worker and resolves (never rejects) once it has finished, failed, run past
 * `budgetMs` or been aborted; in the last two cases the worker has been terminated.
 */
export function runGrepInWorker(
  job: GrepJob,
  opts: { signal: AbortSignal; budgetMs: number },
): Promise<GrepRun> {
  const run: GrepRun = {
    outcome: { type: 'done' },
    lines: [],
    matches: 0,
    limited: false,
    clipped: false,
  };
  if (opts.signal.aborted) return Promise.resolve({ ...run, outcome: { type: 'aborted' } });
  return new Promise<GrepRun>((resolve) => {
    let worker: Worker;
    try {
      const { script, eval: evaluate } = workerEntry();
      // No inherited node flags: some (e.g. --input-type) are refused by worker threads.
      worker = new Worker(script, { workerData: job, eval: evaluate, execArgv: [] });
      live.add(worker);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      resolve({ ...run, outcome: { type: 'failed', message } });
      return;
    }
    let settled = false;
    // A stopped search resolves once its thread is gone, so nothing keeps running after it.
    const finish = (outcome: GrepOutcome, terminate: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal.removeEventListener('abort', onAbort);
      const result = { ...run, lines: [...run.lines], outcome };
      if (!terminate) return resolve(result);
      worker.terminate().then(
        () => resolve(result),
        () => resolve(result),
      );
    };
    const onAbort = () => finish({ type: 'aborted' }, true);
    const timer = setTimeout(() => finish({ type: 'timeout' }, true), opts.budgetMs);
    opts.signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: unknown) => {
      if (settled) return;
      if (!isWorkerMessage(message)) {
        finish({ type: 'failed', message: 'the search sent an unreadable message' }, true);
      } else if (message.type === 'hits') {
        run.lines.push(...message.lines);
        run.matches += message.matches;
      } else if (message.type === 'done') {
        run.limited = message.limited;
        run.clipped = message.clipped;
        finish({ type: 'done' }, false);
      } else {
        finish({ type: 'failed', message: message.message }, false);
      }
    });
    worker.on('error', (error) => finish({ type: 'failed', message: error.message }, false));
    worker.on('exit', (code) => {
      live.delete(worker);
      finish(
        { type: 'failed', message: `the search stopped unexpectedly (exit code ${code})` },
        false,
      );
    });
  });
}
