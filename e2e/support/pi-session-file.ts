import fs from 'node:fs';
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
