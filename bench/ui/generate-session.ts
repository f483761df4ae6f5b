import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sessionDirFor, sessionFileName } from '../../server/store/session-paths.js';

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
  const sessionId = crypto.randomUUID();
  const start = Date.parse('2026-03-01T09:00:00.000Z');
  const header = {
    type: 'session',
    version: 3,
    id: sessionId,
    timestamp: new Date(start).toISOString(),
    cwd,
  };
  const lines: string[] = [JSON.stringify(header)];
  let count = 0;
  let clock = start;
  const used = new Set<string>();
  const newId = (): string => {
    for (;;) {
      const id = crypto.randomBytes(4).toString('hex');
      if (!used.has(id)) {
        used.add(id);
        return id;
      }
    }
  };
  const append = (entry: Record<string, unknown>, parentId: string | null): string => {
    const id = newId();
    clock += 1000;
    lines.push(
      JSON.stringify({ ...entry, id, parentId, timestamp: new Date(clock).toISOString() }),
    );
    count++;
    return id;
  };
  const prompts: { id: string; text: string; parentId: string; answerId: string }[] = [];
  const turn = (parentId: string, n: number, track: boolean): string => {
    const text = `Task ${n}: update module ${n % 97} and run its tests`;
    const user = append(
      {
        type: 'message',
        message: { role: 'user', content: [{ type: 'text', text }], timestamp: clock },
      },
      parentId,
    );

    const callId = `call_${n}`;
    const call = append(
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
          timestamp: clock,
        },
      },
      user,
    );
    if (track) prompts.push({ id: user, text, parentId, answerId: call });
    const result = append(
      {
        type: 'message',
        message: {
          role: 'toolResult',
          toolCallId: callId,
          toolName: 'read',
          content: [{ type: 'text', text: `export const value${n} = ${n};\n`.repeat(20) }],
          isError: false,
          timestamp: clock,
        },
      },
      call,
    );
    return append(
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
          timestamp: clock,
        },
      },
      result,
    );
  };

  let leaf = append({ type: 'model_change', provider: 'arbor', modelId: 'arbor-demo' }, null);
  leaf = append({ type: 'thinking_level_change', thinkingLevel: 'off' }, leaf);
  const mainLine: string[] = [];
  let n = 0;
  while (count < entries - 4) {
    leaf = turn(leaf, ++n, true);
    mainLine.push(leaf);
    // Every fifth turn, a side branch of three turns off a turn a little way back.
    if (n % 5 === 0 && mainLine.length > 3 && count < entries - 16) {
      let side = mainLine[mainLine.length - 3]!;
      for (let k = 0; k < 3; k++) side = turn(side, ++n, false);
    }
  }
  const dir = sessionDirFor(dataDir, cwd);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, sessionFileName(header.timestamp, sessionId));
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return { file, sessionId, entries: count, recentPrompts: prompts.slice(-4), leafId: leaf };
}
