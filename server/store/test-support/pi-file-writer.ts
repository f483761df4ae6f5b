import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sessionFileName } from '../session-paths.js';

/*
 * A pi session file (version 3, one JSON line per entry) written straight, without pi or Arbor's
 * store: for tests and benchmarks that need a file as pi in the terminal leaves it (no owner
 * record) or one too big to write through an API quickly. Entry ids are unique 8-hex ids, as pi's;
 * each entry is a second newer than the one before.
 */

export interface PiFileWriter {
  readonly sessionId: string;
  /** The header's timestamp (ISO). */
  readonly timestamp: string;
  /** Milliseconds of the newest entry written (the header's at first). */
  readonly clock: number;
  /** Entries written so far, the header not counted. */
  readonly count: number;
  /** Appends `entry` under `parentId` with a new id and the next second's timestamp; its id. */
  append(entry: Record<string, unknown>, parentId: string | null): string;
  /** Writes the file into `sessionDir` (made if missing), named as pi names it; its path. */
  write(sessionDir: string): string;
}

export function piFileWriter(cwd: string, start: number): PiFileWriter {
  const sessionId = crypto.randomUUID();
  const timestamp = new Date(start).toISOString();
  const lines = [JSON.stringify({ type: 'session', version: 3, id: sessionId, timestamp, cwd })];
  const used = new Set<string>();
  let clock = start;
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
    append(entry, parentId) {
      const id = newId();
      clock += 1000;
      // pi's order of the common fields: type, id, parentId, timestamp, then the entry's own.
      const { type, ...fields } = entry;
      lines.push(
        JSON.stringify({ type, id, parentId, timestamp: new Date(clock).toISOString(), ...fields }),
      );
      return id;
    },
    write(sessionDir) {
      fs.mkdirSync(sessionDir, { recursive: true });
      const file = path.join(sessionDir, sessionFileName(timestamp, sessionId));
      fs.writeFileSync(file, `${lines.join('\n')}\n`);
      return file;
    },
  };
}
