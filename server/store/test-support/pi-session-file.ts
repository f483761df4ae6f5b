import { piFileWriter } from './pi-file-writer.js';
import {
  assistantMessage,
  DEMO_MODEL,
  ONE_TOKEN_EACH,
  toolResultMessage,
  userMessage,
} from '../../test-support/messages.js';

/*
 * Writes a session file as pi writes it (version 3, one line per entry) straight into a
 * workspace's session folder, as a session made by pi in the terminal would be: no owner record.
 * Answers come from Arbor's demo model, a token of input and one of output each.
 */

export interface PiTurn {
  role: 'user' | 'assistant' | 'toolResult';
  text: string;
  /** The index of the turn this one follows (default: the one before it), for branches. */
  parent?: number;
}

/**
 * Writes the session into `sessionDir` (made if missing) and answers its id, file and the ids of
 * its entries, in order. `cwd` goes into the header.
 */
export function writePiSessionFile(
  sessionDir: string,
  cwd: string,
  turns: PiTurn[],
  start = Date.parse('2026-11-20T10:00:00.000Z'),
): { sessionId: string; file: string; entryIds: string[] } {
  const writer = piFileWriter(cwd, start);
  const entryIds: string[] = [];
  turns.forEach((turn, i) => {
    const parentIndex = turn.parent ?? i - 1;
    writer.branch(parentIndex >= 0 ? entryIds[parentIndex]! : null);
    const timestamp = start + (i + 1) * 1000;
    const message =
      turn.role === 'user'
        ? userMessage(turn.text, { timestamp })
        : turn.role === 'assistant'
          ? assistantMessage(turn.text, { ...DEMO_MODEL, usage: ONE_TOKEN_EACH, timestamp })
          : toolResultMessage(`call_${i}`, turn.text, { timestamp });
    entryIds.push(writer.appendMessage(message));
  });
  return { sessionId: writer.sessionId, file: writer.write(sessionDir), entryIds };
}
