import { Worker } from 'node:worker_threads';
import { workerEntryBeside, type WorkerEntry } from '../runtime/worker-entry.js';
import type { GrepHits, GrepJob, GrepSummary } from './grep-search.js';

/*
 * Runs grep searches in worker threads, so that a pattern that backtracks catastrophically burns a
 * worker, never the server's event loop (every session shares it). A worker is terminated when its
 * search runs out of time or the tool's signal aborts; whatever matches it had reported by then are
 * kept. A worker whose search ended normally waits, unreferenced, for the next one (at most
 * `MAX_IDLE_WORKERS` of them, each for `IDLE_WORKER_MS`): starting a thread costs tens of
 * milliseconds, more than a search of a typical workspace, and an agent greps often. A search
 * holds directory descriptors while it walks (file-walk.ts); a terminated worker runs no `finally`,
 * so the worker is started with `trackUnmanagedFds`: Node closes every descriptor the thread opened
 * and did not close when it exits.
 */

/** Wall-clock budget of one search, worker start-up included. */
export const DEFAULT_GREP_TIME_BUDGET_MS = 10_000;

/** What the runner sends a worker: one search, named by `id`. */
export interface GrepJobMessage {
  type: 'job';
  id: number;
  job: GrepJob;
}

/** What a worker reports about the search `id`. */
export type GrepWorkerMessage = { id: number } & (
  | ({ type: 'hits' } & GrepHits)
  | ({ type: 'done' } & GrepSummary)
  | { type: 'failed'; message: string }
);

/** Workers kept for the next search, and how long each waits before it is let go. */
const MAX_IDLE_WORKERS = 2;
const IDLE_WORKER_MS = 30_000;

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

let entry: WorkerEntry | undefined;
let nextJobId = 1;

/** Workers with a search (each stays counted until its search is over and, if stopped, exited). */
const busy = new Set<Worker>();
/** Workers waiting for a search, with the timer that lets each go. */
const idle = new Map<Worker, NodeJS.Timeout>();

let started = 0;

/** How many grep searches are running now, a stopped one until its thread has exited. */
export function activeGrepWorkers(): number {
  return busy.size;
}

/** Workers waiting for a search, and how many were ever started (for tests and diagnostics). */
export function grepWorkerCounts(): { idle: number; started: number } {
  return { idle: idle.size, started };
}

function startWorker(): Worker {
  const { script, eval: evaluate } = (entry ??= workerEntryBeside(import.meta.url, 'grep-worker'));
  // No inherited node flags: some (e.g. --input-type) are refused by worker threads.
  const worker = new Worker(script, { eval: evaluate, execArgv: [], trackUnmanagedFds: true });
  started++;
  worker.on('exit', () => {
    clearTimeout(idle.get(worker));
    idle.delete(worker);
  });
  // A worker that fails outside a search (it cannot have one) is simply gone.
  worker.on('error', () => undefined);
  return worker;
}

/** An idle worker if one waits, else a new one; counted busy either way. */
function takeWorker(): Worker {
  let worker: Worker | undefined;
  for (const [waiting, timer] of idle) {
    clearTimeout(timer);
    idle.delete(waiting);
    worker = waiting;
    break;
  }
  worker ??= startWorker();
  worker.ref();
  busy.add(worker);
  return worker;
}

/** Gives back a worker whose search ended normally: it waits for the next one, or is let go. */
function returnWorker(worker: Worker): void {
  busy.delete(worker);
  if (idle.size >= MAX_IDLE_WORKERS) {
    void worker.terminate();
    return;
  }
  worker.unref();
  const timer = setTimeout(() => {
    idle.delete(worker);
    void worker.terminate();
  }, IDLE_WORKER_MS);
  timer.unref();
  idle.set(worker, timer);
}

function isWorkerMessage(value: unknown): value is GrepWorkerMessage {
  if (value === null || typeof value !== 'object') return false;
  const message = value as Record<string, unknown>;
  if (typeof message.id !== 'number') return false;
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
 * Runs `job` in a worker and resolves (never rejects) once it has finished, failed, run past
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
      worker = takeWorker();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      resolve({ ...run, outcome: { type: 'failed', message } });
      return;
    }
    const id = nextJobId++;
    let settled = false;
    // A stopped search resolves once its thread is gone, so nothing keeps running after it.
    const finish = (outcome: GrepOutcome, how: 'reuse' | 'terminate' | 'gone') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      const result = { ...run, lines: [...run.lines], outcome };
      if (how === 'reuse') {
        returnWorker(worker);
        return resolve(result);
      }
      const done = () => {
        busy.delete(worker);
        resolve(result);
      };
      if (how === 'gone') return done();
      worker.terminate().then(done, done);
    };
    const onAbort = () => finish({ type: 'aborted' }, 'terminate');
    const timer = setTimeout(() => finish({ type: 'timeout' }, 'terminate'), opts.budgetMs);
    const onMessage = (message: unknown) => {
      if (settled) return;
      if (!isWorkerMessage(message)) {
        finish({ type: 'failed', message: 'the search sent an unreadable message' }, 'terminate');
      } else if (message.id !== id) {
        return;
      } else if (message.type === 'hits') {
        run.lines.push(...message.lines);
        run.matches += message.matches;
      } else if (message.type === 'done') {
        run.limited = message.limited;
        run.clipped = message.clipped;
        finish({ type: 'done' }, 'reuse');
      } else {
        finish({ type: 'failed', message: message.message }, 'reuse');
      }
    };
    const onError = (error: Error) => finish({ type: 'failed', message: error.message }, 'gone');
    const onExit = (code: number) =>
      finish(
        { type: 'failed', message: `the search stopped unexpectedly (exit code ${code})` },
        'gone',
      );
    opts.signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    const request: GrepJobMessage = { type: 'job', id, job };
    worker.postMessage(request);
  });
}
