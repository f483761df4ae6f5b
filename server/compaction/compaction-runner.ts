import { Worker } from 'node:worker_threads';
import { workerEntryBeside, type WorkerEntry } from '../runtime/worker-entry.js';
import type { SessionEntry } from '../../shared/session-entries.js';
import type { CompactionJobParams, CompactionJobResult } from './compaction-job.js';
import { LoopSlices } from './loop-slices.js';
import { SummaryAbortedError } from './summary-model.js';

/*
 * Runs compaction jobs (compaction-job.ts) on worker threads, so that preparing the compaction of
 * one long session (seconds for a million messages) never holds the event loop that serves every
 * other session. The path is read from the store newest first, entry by entry (session-path.ts),
 * and copied to the worker as JSON text in pieces of about 128 KB, the loop yielding every few
 * milliseconds, so not even reading and copying it stalls the loop for long (decision 054).
 * Workers are started and found as grep's are (server/tools/grep-runner.ts): a worker whose job
 * ended waits, unreferenced, for the next one for a while; an aborted job's worker is terminated.
 */

/** What the runner sends a worker: pieces of the path of job `id` (newest first), then its parameters. */
export type CompactionWorkerRequest =
  | { type: 'path'; id: number; json: string }
  | { type: 'run'; id: number; params: CompactionJobParams };

/** What a worker reports about job `id`. */
export type CompactionWorkerMessage =
  | { type: 'done'; id: number; threadId: number; result: CompactionJobResult }
  | { type: 'failed'; id: number; message: string };

/** About this much JSON text goes to the worker in one message. */
const PIECE_CHARS = 128 * 1024;

const MAX_IDLE_WORKERS = 1;
const IDLE_WORKER_MS = 30_000;

let entry: WorkerEntry | undefined;
let nextJobId = 1;
const idle = new Map<Worker, NodeJS.Timeout>();
const stats = { started: 0, running: 0, jobs: 0, lastThreadId: 0 };

/**
 * Workers started, jobs in flight (from the first piece of the path sent to the result) and
 * finished, and the thread that ran the last one (for tests and diagnostics).
 */
export function compactionWorkerStats(): Readonly<typeof stats> & { idle: number } {
  return { ...stats, idle: idle.size };
}

function takeWorker(): Worker {
  for (const [waiting, timer] of idle) {
    clearTimeout(timer);
    idle.delete(waiting);
    waiting.ref();
    return waiting;
  }
  const { script, eval: evaluate } = (entry ??= workerEntryBeside(
    import.meta.url,
    'compaction-worker',
  ));
  // No inherited node flags: some (e.g. --input-type) are refused by worker threads.
  const worker = new Worker(script, { eval: evaluate, execArgv: [] });
  stats.started++;
  worker.on('exit', () => {
    clearTimeout(idle.get(worker));
    idle.delete(worker);
  });
  worker.on('error', () => undefined);
  return worker;
}

function returnWorker(worker: Worker): void {
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

/**
 * Runs one compaction job on a worker over `pathNewestFirst` (the path's entries, leaf first).
 * Rejects with `SummaryAbortedError` when `signal` aborts (the worker is then terminated) and
 * with a clear error when the worker fails.
 */
export async function prepareCompactionInWorker(
  pathNewestFirst: Iterable<SessionEntry>,
  params: CompactionJobParams,
  signal?: AbortSignal,
): Promise<CompactionJobResult> {
  if (signal?.aborted) throw new SummaryAbortedError();
  const worker = takeWorker();
  const id = nextJobId++;
  let settled = false;
  stats.running++;
  let onAbort = (): void => undefined;
  let fail = (_error: Error): void => undefined;
  const outcome = new Promise<CompactionJobResult>((resolve, reject) => {
    const finish = (how: 'reuse' | 'terminate' | 'gone', error?: Error, result?: unknown) => {
      if (settled) return;
      settled = true;
      stats.running--;
      signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (how === 'reuse') returnWorker(worker);
      else if (how === 'terminate') void worker.terminate();
      if (error) reject(error);
      else resolve(result as CompactionJobResult);
    };
    const onMessage = (message: CompactionWorkerMessage) => {
      if (message?.id !== id) return;
      if (message.type === 'done') {
        stats.jobs++;
        stats.lastThreadId = message.threadId;
        finish('reuse', undefined, message.result);
      } else {
        finish('reuse', new Error(`The compaction could not be prepared: ${message.message}`));
      }
    };
    const onError = (error: Error) =>
      finish('gone', new Error(`The compaction could not be prepared: ${error.message}`));
    const onExit = (code: number) =>
      finish(
        'gone',
        new Error(`The compaction could not be prepared: its worker stopped (exit code ${code})`),
      );
    onAbort = () => finish('terminate', new SummaryAbortedError());
    fail = (error) => finish('terminate', error);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
  // Settles on its own when the copy below stops early; the caller sees it through `outcome`.
  outcome.catch(() => undefined);

  // Entries are gathered by reference and turned into JSON a batch at a time (one string per
  // batch, no per-entry strings to join); the batch grows or shrinks to about PIECE_CHARS.
  const post = (message: CompactionWorkerRequest) => worker.postMessage(message);
  let batch: SessionEntry[] = [];
  let batchSize = 16;
  const flush = () => {
    const json = JSON.stringify(batch);
    post({ type: 'path', id, json });
    const scaled = Math.round((batchSize * PIECE_CHARS) / Math.max(1, json.length));
    batchSize = Math.max(1, Math.min(batchSize * 2, scaled));
    batch = [];
  };
  const slices = new LoopSlices();
  try {
    for (const entry of pathNewestFirst) {
      if (settled) return outcome;
      batch.push(entry);
      if (batch.length >= batchSize) flush();
      const pause = slices.pause();
      if (pause) await pause;
    }
    if (settled) return outcome;
    if (batch.length > 0) flush();
    post({ type: 'run', id, params });
  } catch (error) {
    // The path could not be read or copied (the session was closed, say): the job is void.
    const reason = error instanceof Error ? error.message : String(error);
    fail(new Error(`The compaction could not be prepared: ${reason}`, { cause: error }));
  }
  return outcome;
}
