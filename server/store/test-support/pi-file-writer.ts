import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AgentMessage } from '../../../shared/messages.js';
import { sessionFileName } from '../session-paths.js';

/*
 * A pi session file (version 3, one JSON line per entry) written straight, without pi or Arbor's
 * store: for tests and benchmarks that need a file as pi in the terminal leaves it (no owner
 * record) or one too big to write through an API quickly. Entry ids are unique 8-hex ids, as pi's;
 * each entry is a second newer than the one before. Like pi's SessionManager it keeps a leaf: the
 * newest entry, or the one `branch` moved to, under which `appendMessage` writes.
 */

export interface PiFileWriter {
  readonly sessionId: string;
  /** The header's timestamp (ISO). */
  readonly timestamp: string;
  /** Milliseconds of the newest entry written (the header's at first). */
  readonly clock: number;
  /** Entries written so far, the header not counted. */
  readonly count: number;
  /** The entry the next message goes under: the newest one, or where `branch` moved. */
  readonly leafId: string | null;
  /** Appends `entry` under `parentId` with a new id and the next second's timestamp; its id. */
  append(entry: Record<string, unknown>, parentId: string | null): string;
  /** Appends a message entry under the leaf and moves the leaf to it; its id. */
  appendMessage(message: AgentMessage): string;
  /** Moves the leaf to `id` (null: the next entry is a new root). */
  branch(id: string | null): void;
  /** Writes the file into `sessionDir` (made if missing), named as pi names it; its path. */
  write(sessionDir: string): string;
}

export function piFileWriter(cwd: string, start: number): PiFileWriter {
  const sessionId = crypto.randomUUID();
  const timestamp = new Date(start).toISOString();
  const lines = [JSON.stringify({ type: 'session', version: 3, id: sessionId, timestamp, cwd })];
  const used = new Set<string>();
  let clock = start;
  let leafId: string | null = null;
  const newId = (): string => {
    for (;;) {
      const id = crypto.randomBytes(4).toString('hex');
      if (!used.has(id)) {
        used.add(id);
        return id;
      }
    }
  };
  return {
    sessionId,
    timestamp,
    get clock() {
      return clock;
    },
    get count() {
      return lines.length - 1;
    },
    get leafId() {
      return leafId;
    },
    append(entry, parentId) {
      const id = newId();
      leafId = id;
      clock += 1000;
      // pi's order of the common fields: type, id, parentId, timestamp, then the entry's own.
      const { type, ...fields } = entry;
      lines.push(
        JSON.stringify({ type, id, parentId, timestamp: new Date(clock).toISOString(), ...fields }),
      );
      return id;
    },
    appendMessage(message) {
      return this.append({ type: 'message', message }, leafId);
    },
    branch(id) {
      leafId = id;
    },
    write(sessionDir) {
      fs.mkdirSync(sessionDir, { recursive: true });
      const file = path.join(sessionDir, sessionFileName(timestamp, sessionId));
      fs.writeFileSync(file, `${lines.join('\n')}\n`);
      return file;
    },
  };
}
