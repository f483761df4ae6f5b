import { sessionDirFor } from '../../server/store/session-paths.js';
import { piFileWriter } from '../../server/store/test-support/pi-file-writer.js';

/*
 * Writes a session of `entries` entries straight in pi's v3 JSONL format, as a long-lived coding
 * session looks: turns of prompt → tool call → tool result → answer along a main line, with a side
 * branch off an earlier turn every few turns. The leaf is the end of the main line.
 */

export interface GeneratedSession {
  file: string;
  sessionId: string;
  entries: number;
  /** Ids and texts of the last prompts on the main line (newest last), for clicks. */
  recentPrompts: { id: string; text: string; parentId: string; answerId: string }[];
  leafId: string;
}

const usage = {
  input: 1200,
  output: 80,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 1280,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

export function generateSession(dataDir: string, cwd: string, entries = 10_000): GeneratedSession {
  const writer = piFileWriter(cwd, Date.parse('2026-03-01T09:00:00.000Z'));
  const prompts: { id: string; text: string; parentId: string; answerId: string }[] = [];
  const turn = (parentId: string, n: number, track: boolean): string => {
    const text = `Task ${n}: update module ${n % 97} and run its tests`;
    const user = writer.append(
      {
        type: 'message',
        message: { role: 'user', content: [{ type: 'text', text }], timestamp: writer.clock },
      },
      parentId,
    );

    const callId = `call_${n}`;
    const call = writer.append(
      {
        type: 'message',
        message: {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Reading the module first.' },
            {
              type: 'toolCall',
              id: callId,
              name: 'read',
              arguments: { path: `src/module-${n % 97}.ts` },
            },
          ],
          api: 'openai-completions',
          provider: 'arbor',
          model: 'arbor-demo',
          usage,
          stopReason: 'toolUse',
          timestamp: writer.clock,
        },
      },
      user,
    );
    if (track) prompts.push({ id: user, text, parentId, answerId: call });
    const result = writer.append(
      {
        type: 'message',
        message: {
          role: 'toolResult',
          toolCallId: callId,
          toolName: 'read',
          content: [{ type: 'text', text: `export const value${n} = ${n};\n`.repeat(20) }],
          isError: false,
          timestamp: writer.clock,
        },
      },
      call,
    );
    return writer.append(
      {
        type: 'message',
        message: {
          role: 'assistant',
          content: [
            {
              type: 'text',
              text: `Done with task ${n}. The tests pass.\n\n\`\`\`ts\nexport const value${n} = ${n};\n\`\`\``,
            },
          ],
          api: 'openai-completions',
          provider: 'arbor',
          model: 'arbor-demo',
          usage,
          stopReason: 'stop',
          timestamp: writer.clock,
        },
      },
      result,
    );
  };

  let leaf = writer.append(
    { type: 'model_change', provider: 'arbor', modelId: 'arbor-demo' },
    null,
  );
  leaf = writer.append({ type: 'thinking_level_change', thinkingLevel: 'off' }, leaf);
  const mainLine: string[] = [];
  let n = 0;
  while (writer.count < entries - 4) {
    leaf = turn(leaf, ++n, true);
    mainLine.push(leaf);
    // Every fifth turn, a side branch of three turns off a turn a little way back.
    if (n % 5 === 0 && mainLine.length > 3 && writer.count < entries - 16) {
      let side = mainLine[mainLine.length - 3]!;
      for (let k = 0; k < 3; k++) side = turn(side, ++n, false);
    }
  }
  const file = writer.write(sessionDirFor(dataDir, cwd));
  return {
    file,
    sessionId: writer.sessionId,
    entries: writer.count,
    recentPrompts: prompts.slice(-4),
    leafId: leaf,
  };
}
