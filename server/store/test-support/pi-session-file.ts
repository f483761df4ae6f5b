import { piFileWriter } from './pi-file-writer.js';

/*
 * Writes a session file as pi writes it (version 3, one line per entry) straight into a
 * workspace's session folder, as a session made by pi in the terminal would be: no owner record.
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
    const parentId = parentIndex >= 0 ? entryIds[parentIndex]! : null;
    const time = start + (i + 1) * 1000;
    const message =
      turn.role === 'user'
        ? { role: 'user', content: [{ type: 'text', text: turn.text }], timestamp: time }
        : turn.role === 'assistant'
          ? {
              role: 'assistant',
              content: [{ type: 'text', text: turn.text }],
              api: 'openai-completions',
              provider: 'arbor',
              model: 'arbor-demo',
              usage: {
                input: 1,
                output: 1,
                cacheRead: 0,
                cacheWrite: 0,
                totalTokens: 2,
                cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
              },
              stopReason: 'stop',
              timestamp: time,
            }
          : {
              role: 'toolResult',
              toolCallId: `call_${i}`,
              toolName: 'bash',
              content: [{ type: 'text', text: turn.text }],
              isError: false,
              timestamp: time,
            };
    entryIds.push(writer.append({ type: 'message', message }, parentId));
  });
  return { sessionId: writer.sessionId, file: writer.write(sessionDir), entryIds };
}
