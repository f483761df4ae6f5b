import { parentPort, workerData } from 'node:worker_threads';
import { quadraticFitSummaryRequest } from '../../server/compaction/test-support/quadratic-fit.js';
import { benchEntries, digest, fitInputs } from './fit-inputs.js';

/*
 * The old preparation of the bench's session, in a worker the bench terminates when it runs past
 * its limit: the plan (unchanged) and the quadratic fitting that used to run on the server's
 * event loop. Reports both times and a digest of the requests.
 */

const { messages } = workerData as { messages: number };
const entries = benchEntries(messages);
const started = performance.now();
const inputs = fitInputs(entries);
const fitStarted = performance.now();
const fitted = inputs.map((input) => quadraticFitSummaryRequest(input));
const done = performance.now();
parentPort?.postMessage({
  planMs: fitStarted - started,
  fitMs: done - fitStarted,
  digest: digest(fitted),
});
