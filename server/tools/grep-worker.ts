import { parentPort } from 'node:worker_threads';
import { runGrepJob } from './grep-search.js';
import type { GrepJobMessage, GrepWorkerMessage } from './grep-runner.js';

/*
 * Worker-thread entry of the grep tool: runs each search it is sent (a `job` message, built and
 * checked by grep-runner.ts, one at a time) and reports each file's matches, then `done`, all
 * tagged with the search's id. It is terminated when a search runs out of time or is aborted,
 * which is why it reports as it goes.
 */

const port = parentPort;
if (port) {
  const send = (message: GrepWorkerMessage) => port.postMessage(message);
  port.on('message', (message: GrepJobMessage) => {
    if (message?.type !== 'job') return;
    const { id, job } = message;
    runGrepJob(job, (hits) => send({ type: 'hits', id, ...hits })).then(
      (summary) => send({ type: 'done', id, ...summary }),
      (error: unknown) =>
        send({
          type: 'failed',
          id,
          message: error instanceof Error ? error.message : String(error),
        }),
    );
  });
}
