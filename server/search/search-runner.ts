import { Worker } from 'node:worker_threads';
import type { SessionSearchResult } from '../../shared/rest-shapes.js';
import { workerEntryBeside, type WorkerEntry } from '../runtime/worker-entry.js';
import type { SearchJob, SearchSummary } from './session-search.js';

/*
 * Runs a session search in a worker thread of its own, so that reading and parsing big session
 * files never holds up the server's event loop, which every live session shares. The worker is
 * terminated when the search runs past its time budget or the signal aborts (its client went
 * away); the sessions it had reported by then are kept. Started with `trackUnmanagedFds`, so the
 * file a terminated worker was reading is closed.
 */

export type SearchWorkerMessage =
  | { type: 'result'; result: SessionSearchResult }
  | { type: 'done'; summary: SearchSummary }
  | { type: 'failed'; message: string };

export type SearchOutcome = 'done' | 'timeout' | 'aborted' | 'failed';

export interface SearchRun {
  outcome: SearchOutcome;
  results: SessionSearchResult[];
  summary: SearchSummary;
  /** Why the search failed, when it did. */
  message?: string;
}

let entry: WorkerEntry | undefined;
let running = 0;
let aborted = 0;

/** Searches whose worker has not exited yet (for tests and diagnostics). */
export function activeSearchWorkers(): number {
  return running;
}

/** Searches stopped by their signal since the process started (for tests and diagnostics). */
export function abortedSearches(): number {
  return aborted;
}

/** Runs `job` and resolves (never rejects) once it has finished, failed, timed out or aborted. */
export function runSearchInWorker(
  job: SearchJob,
  opts: { signal: AbortSignal; budgetMs: number },
): Promise<SearchRun> {
  const run: SearchRun = {
    outcome: 'done',
    results: [],
    summary: { capped: false, partialFiles: 0 },
  };
  if (opts.signal.aborted) return Promise.resolve({ ...run, outcome: 'aborted' });
  return new Promise<SearchRun>((resolve) => {
    const { script, eval: evaluate } = (entry ??= workerEntryBeside(
      import.meta.url,
      'search-worker',
    ));
    let worker: Worker;
    try {
      worker = new Worker(script, {
        eval: evaluate,
        execArgv: [],
        trackUnmanagedFds: true,
        workerData: job,
      });
    } catch (error) {
      resolve({ ...run, outcome: 'failed', message: String(error) });
      return;
    }
    running++;
    let settled = false;
    const exited = new Promise<void>((done) => worker.once('exit', () => done()));
    void exited.then(() => running--);
    const finish = (outcome: SearchOutcome, message?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal.removeEventListener('abort', onAbort);
      const result: SearchRun = { ...run, results: [...run.results], outcome };
      if (message !== undefined) result.message = message;
      // A stopped search resolves once its thread is gone, so nothing keeps reading after it.
      void worker.terminate().finally(() => exited.then(() => resolve(result)));
    };
    const onAbort = () => {
      if (!settled) aborted++;
      finish('aborted');
    };
    const timer = setTimeout(() => finish('timeout'), opts.budgetMs);
    opts.signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: SearchWorkerMessage) => {
      if (settled) return;
      if (message.type === 'result') run.results.push(message.result);
      else if (message.type === 'done') {
        run.summary = message.summary;
        finish('done');
      } else finish('failed', message.message);
    });
    worker.on('error', (error) => finish('failed', error.message));
    worker.on('exit', (code) => finish('failed', `the search stopped (exit code ${code})`));
  });
}
