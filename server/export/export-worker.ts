import { parentPort, workerData } from 'node:worker_threads';
import { isExpectedError, toErrorBody } from '../errors/error-catalog.js';
import { exportSessionChunks } from './export-session.js';
import type { ExportJob, ExportWorkerMessage } from './export-runner.js';

/*
 * Worker-thread entry of one export (export-runner.ts starts one per export): renders the session
 * named in `workerData` and sends the page in pieces of about `chunkChars`, one piece for each
 * `more` the runner sends, so a reader who stops reading stops the rendering too and nothing piles
 * up in memory. The runner terminates the thread when the reader goes away or the export runs out
 * of time.
 */

const port = parentPort;
if (port) {
  const job = workerData as ExportJob;
  const send = (message: ExportWorkerMessage) => port.postMessage(message);
  let credit = 0;
  let wake: (() => void) | undefined;
  port.on('message', (message: unknown) => {
    if (message !== 'more') return;
    credit++;
    wake?.();
  });
  const granted = () =>
    credit > 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          wake = resolve;
        });
  const sendPiece = async (html: string) => {
    await granted();
    wake = undefined;
    credit--;
    send({ type: 'chunk', html });
  };
  const run = async () => {
    let pending = '';
    const pieces = exportSessionChunks(job.file, job.scope, {
      now: new Date(job.now),
      markdownBudgetMs: job.markdownBudgetMs,
      onTitle: (title) => send({ type: 'title', title }),
    });
    for (const piece of pieces) {
      pending += piece;
      if (pending.length < job.chunkChars) continue;
      await sendPiece(pending);
      pending = '';
    }
    if (pending) await sendPiece(pending);
    send({ type: 'end' });
  };
  run().catch((error: unknown) =>
    send({
      type: 'failed',
      body: toErrorBody(error),
      // What the log gets of a fault; an expected refusal says all in its body.
      ...(isExpectedError(error)
        ? {}
        : { detail: error instanceof Error ? error.stack : String(error) }),
    }),
  );
}
