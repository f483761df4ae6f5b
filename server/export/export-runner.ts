import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { ErrorBody } from '../../shared/protocol.js';
import { ArborError } from '../errors/error-catalog.js';
import { workerEntryBeside, type WorkerEntry } from '../runtime/worker-entry.js';
import type { ExportScope } from './session-html.js';

/*
 * Exports run in worker threads, each streaming its page to its reader (docs/decisions/097): a
 * session's markdown can cost seconds to render and a session can weigh hundreds of megabytes, and
 * neither may stall the event loop every session shares, nor hold a whole page per reader in
 * memory. The worker renders one piece ahead of what the reader has taken; a reader who stops
 * reading for `stallMs` loses the download, as does an export past `timeLimitMs`. Only `slots`
 * exports run at once on the server, and `perCaller` for one caller; past that, a clear 429.
 */

/** What the runner sends a worker to start with. */
export interface ExportJob {
  file: string;
  scope: ExportScope;
  /** ISO time the page says it was exported. */
  now: string;
  markdownBudgetMs: number;
  chunkChars: number;
}

/** What a worker sends back: a piece of the page, the end, or why it failed. */
export type ExportWorkerMessage =
  | { type: 'title'; title: string }
  | { type: 'chunk'; html: string }
  | { type: 'end' }
  | { type: 'failed'; body: ErrorBody; detail?: string };

export interface ExportLimits {
  /** Exports running at once on the server. */
  slots: number;
  /** Exports running at once for one caller. */
  perCaller: number;
  /** How long a reader may take nothing before the download is dropped. */
  stallMs: number;
  /** Wall-clock time of one export, reading included. */
  timeLimitMs: number;
  /** Markdown time of one export before the rest is shown plain (html-text.ts). */
  markdownBudgetMs: number;
  /** About how many characters each piece holds. */
  chunkChars: number;
  /** The heap a worker may grow to; a session that needs more is refused, the server unharmed. */
  heapMb: number;
}

export const DEFAULT_EXPORT_LIMITS: ExportLimits = {
  slots: 2,
  perCaller: 1,
  stallMs: 30_000,
  timeLimitMs: 10 * 60_000,
  markdownBudgetMs: 5_000,
  chunkChars: 64 * 1024,
  heapMb: 2_048,
};

export interface ExportRequest {
  file: string;
  scope: ExportScope;
  /** Who asks (a user's name, or an address without login): their exports count together. */
  caller: string;
  /** Where a fault's details go. */
  logFault(detail: string): void;
}

let entry: WorkerEntry | undefined;

export class SessionExporter {
  private readonly running = new Map<Worker, string>();

  constructor(private readonly limits: ExportLimits = DEFAULT_EXPORT_LIMITS) {}

  /** Exports running now. */
  get active(): number {
    return this.running.size;
  }

  /**
   * Starts exporting and resolves with the page as a stream, and its title, once its first piece
   * is rendered, so a session that cannot be read is refused with its own error before any byte
   * is sent.
   */
  start(request: ExportRequest): Promise<{ page: Readable; title: string }> {
    this.admit(request.caller);
    const limits = this.limits;
    const job: ExportJob = {
      file: request.file,
      scope: request.scope,
      now: new Date().toISOString(),
      markdownBudgetMs: limits.markdownBudgetMs,
      chunkChars: limits.chunkChars,
    };
    const { script, eval: evaluate } = (entry ??= workerEntryBeside(
      import.meta.url,
      'export-worker',
    ));
    const worker = new Worker(script, {
      eval: evaluate,
      execArgv: [],
      workerData: job,
      trackUnmanagedFds: true,
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb },
    });
    this.running.set(worker, request.caller);

    return new Promise<{ page: Readable; title: string }>((resolvePage, reject) => {
      let started = false;
      let title = '';
      const resolve = (page: Readable) => resolvePage({ page, title });
      let over = false;
      let stall: NodeJS.Timeout | undefined;
      const stream = new Readable({
        read: () => {
          clearTimeout(stall);
          if (!over) worker.postMessage('more');
        },
        destroy: (error, callback) => {
          stop();
          callback(error);
        },
      });
      const stop = () => {
        if (over) return;
        over = true;
        clearTimeout(stall);
        clearTimeout(deadline);
        // A terminated thread stops at once, even inside a long render: its slot is free now.
        this.running.delete(worker);
        void worker.terminate();
      };
      const fail = (error: Error) => {
        if (over) return;
        stop();
        if (started) stream.destroy(error);
        else reject(error);
      };
      const deadline = setTimeout(
        () => fail(new ArborError('unavailable', 'The export ran out of time.')),
        limits.timeLimitMs,
      );
      worker.on('message', (message: ExportWorkerMessage) => {
        if (over) return;
        if (message.type === 'title') {
          title = message.title;
        } else if (message.type === 'chunk') {
          stream.push(message.html);
          stall = setTimeout(
            () => fail(new ArborError('unavailable', 'The download was not read; it stopped.')),
            limits.stallMs,
          );
          if (!started) {
            started = true;
            resolve(stream);
          }
        } else if (message.type === 'end') {
          stop();
          stream.push(null);
          if (!started) {
            started = true;
            resolve(stream);
          }
        } else {
          if (message.detail) request.logFault(message.detail);
          fail(new ArborError(message.body.code, message.body.message));
        }
      });
      worker.on('error', (error: Error & { code?: string }) => {
        if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
          fail(new ArborError('payload_too_large', 'The session is too large to export here.'));
          return;
        }
        request.logFault(error.stack ?? error.message);
        fail(new ArborError('internal'));
      });
      worker.on('exit', () => {
        this.running.delete(worker);
        fail(new ArborError('internal'));
      });
      // The first piece is rendered before the reader asks for anything.
      stream.read(0);
    });
  }

  /** Stops every export (the server is closing). */
  async close(): Promise<void> {
    await Promise.all([...this.running.keys()].map((worker) => worker.terminate()));
    this.running.clear();
  }

  private admit(caller: string): void {
    if (this.running.size >= this.limits.slots) {
      throw new ArborError('rate_limited', 'Other exports are running; try again in a moment.');
    }
    let mine = 0;
    for (const who of this.running.values()) if (who === caller) mine++;
    if (mine >= this.limits.perCaller) {
      throw new ArborError(
        'rate_limited',
        'Your other export is still running; wait for it to finish.',
      );
    }
  }
}
