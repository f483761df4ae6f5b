import { parentPort, workerData } from 'node:worker_threads';
import { runGrepJob, type GrepJob } from './grep-search.js';
import type { GrepWorkerMessage } from './grep-runner.js';

/*
 * Worker-thread entry of the grep tool: runs one search (workerData, built and checked by
 * grep-runner.ts) and reports each file's matches, then `done`. It is terminated when the search
 * runs out of time or is aborted, which is why it reports as it goes.
 */

const port = parentPort;
if (port) {
  const send = (message: GrepWorkerMessage) => port.postMessage(message);
  runGrepJob(workerData as GrepJob, (hits) => send({ type: 'hits', ...hits })).then(
    (summary) => send({ type: 'done', ...summary }),
    (error: unknown) =>
      send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
}
