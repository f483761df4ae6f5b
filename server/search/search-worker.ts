import { parentPort, workerData } from 'node:worker_threads';
import { runSearchJob, type SearchJob } from './session-search.js';
import type { SearchWorkerMessage } from './search-runner.js';

/*
 * Worker-thread entry of session search: runs the one search it was started with (`workerData`)
 * and reports each session's hits as found, then `done`. It is terminated when the search runs out
 * of time or its client goes away, which is why it reports as it goes.
 */

const port = parentPort;
if (port) {
  const send = (message: SearchWorkerMessage) => port.postMessage(message);
  runSearchJob(workerData as SearchJob, (result) => send({ type: 'result', result })).then(
    (summary) => send({ type: 'done', summary }),
    (error: unknown) =>
      send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
}
