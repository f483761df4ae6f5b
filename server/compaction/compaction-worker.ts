import { parentPort, threadId } from 'node:worker_threads';
import type { SessionEntry } from '../../shared/session-entries.js';
import { runCompactionJob } from './compaction-job.js';
import type { CompactionWorkerMessage, CompactionWorkerRequest } from './compaction-runner.js';

/*
 * Worker-thread entry of compaction: receives a session's path in pieces (JSON text, newest first),
 * then the job's parameters, runs the job (compaction-job.ts) and reports its result, all tagged
 * with the job's id. One job at a time; the runner terminates the worker when the job is aborted.
 */

const port = parentPort;
if (port) {
  const paths = new Map<number, SessionEntry[]>();
  const send = (message: CompactionWorkerMessage) => port.postMessage(message);
  port.on('message', (message: CompactionWorkerRequest) => {
    if (message?.type === 'path') {
      const entries = paths.get(message.id) ?? [];
      for (const entry of JSON.parse(message.json) as SessionEntry[]) entries.push(entry);
      paths.set(message.id, entries);
      return;
    }
    if (message?.type !== 'run') return;
    const { id, params } = message;
    const path = (paths.get(id) ?? []).reverse();
    paths.delete(id);
    try {
      send({ type: 'done', id, threadId, result: runCompactionJob(path, params) });
    } catch (error) {
      send({ type: 'failed', id, message: error instanceof Error ? error.message : String(error) });
    }
  });
}
