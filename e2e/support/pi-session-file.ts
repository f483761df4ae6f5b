import fs from 'node:fs';
import path from 'node:path';
import { sessionDirFor } from '../../server/store/session-paths.js';
import {
  writePiSessionFile,
  type PiTurn,
} from '../../server/store/test-support/pi-session-file.js';

/**
 * Writes a session as pi does straight into the workspace's session folder of a running server,
 * as a session made by pi in the terminal would be: no owner record.
 */
export function writePiSession(
  dataDir: string,
  workspace: string,
  turns: PiTurn[],
  start?: number,
): { sessionId: string; file: string; entryIds: string[] } {
  const cwd = fs.realpathSync(workspace);
  return writePiSessionFile(sessionDirFor(dataDir, cwd), cwd, turns, start);
}

/** Every line of every session file in the data folder, parsed. */
export function sessionFileLines<T = Record<string, unknown>>(dataDir: string): T[] {
  const dir = path.join(dataDir, 'sessions');
  const files = fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.jsonl'));
  return files.flatMap((name) =>
    fs
      .readFileSync(path.join(dir, name), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as T),
  );
}
