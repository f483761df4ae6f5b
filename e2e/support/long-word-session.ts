import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sessionDirFor, sessionFileName } from '../../server/store/session-paths.js';

/*
 * A session holding one long run of text without spaces wherever a user can meet it: a prompt of
 * that word, the demo model's answer quoting it, a tool result of it, a label of it on the prompt
 * and a session name of it (pi-made files may hold any length; Arbor's own commands cap both at
 * 200). Written straight in pi's v3 JSONL format. The e2e spec of long text and bench/ui/long-word.ts's
 * long-word scenario both open it.
 */

export interface LongWordParts {
  prompt?: boolean;
  toolResult?: boolean;
  label?: boolean;
  name?: boolean;
}

export interface LongWordSession {
  file: string;
  sessionId: string;
  promptId: string;
  answerId: string;
  leafId: string;
}

const usage = {
  input: 10,
  output: 10,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 20,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

export function writeLongWordSession(
  dataDir: string,
  cwd: string,
  word: string,
  parts: LongWordParts = { prompt: true, toolResult: true, label: true, name: true },
): LongWordSession {
  const sessionId = crypto.randomUUID();
  let clock = Date.parse('2026-03-01T09:00:00.000Z');
  const header = {
    type: 'session',
    version: 3,
    id: sessionId,
    timestamp: new Date(clock).toISOString(),
    cwd,
  };
  const lines = [JSON.stringify(header)];
  let leaf: string | null = null;
  const append = (entry: Record<string, unknown>): string => {
    const id = crypto.randomBytes(4).toString('hex');
    clock += 1000;
    lines.push(
      JSON.stringify({ ...entry, id, parentId: leaf, timestamp: new Date(clock).toISOString() }),
    );
    leaf = id;
    return id;
  };
  const assistant = (content: unknown[], stopReason: string): string =>
    append({
      type: 'message',
      message: {
        role: 'assistant',
        content,
        api: 'openai-completions',
        provider: 'arbor',
        model: 'arbor-demo',
        usage,
        stopReason,
        timestamp: clock,
      },
    });
  const user = (text: string): string =>
    append({
      type: 'message',
      message: { role: 'user', content: [{ type: 'text', text }], timestamp: clock },
    });

  append({ type: 'model_change', provider: 'arbor', modelId: 'arbor-demo' });
  if (parts.name) append({ type: 'session_info', name: word });
  const promptId = user(parts.prompt ? word : 'a short prompt');
  const answerId = assistant(
    [{ type: 'text', text: `You said: "${parts.prompt ? word : 'a short prompt'}"` }],
    'stop',
  );
  if (parts.label) append({ type: 'label', targetId: promptId, label: word });
  if (parts.toolResult) {
    user('/tool read {"path":"long.txt"}');
    assistant(
      [{ type: 'toolCall', id: 'call_long', name: 'read', arguments: { path: 'long.txt' } }],
      'toolUse',
    );
    append({
      type: 'message',
      message: {
        role: 'toolResult',
        toolCallId: 'call_long',
        toolName: 'read',
        content: [{ type: 'text', text: word }],
        isError: false,
        timestamp: clock,
      },
    });
    assistant([{ type: 'text', text: 'Read the file.' }], 'stop');
  }
  const dir = sessionDirFor(dataDir, cwd);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, sessionFileName(header.timestamp, sessionId));
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return { file, sessionId, promptId, answerId, leafId: leaf! };
}
