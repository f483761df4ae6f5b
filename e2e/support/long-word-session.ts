import { sessionDirFor } from '../../server/store/session-paths.js';
import { piFileWriter } from '../../server/store/test-support/pi-file-writer.js';
import {
  assistantMessage,
  DEMO_MODEL,
  toolResultMessage,
  userMessage,
} from '../../server/test-support/messages.js';

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

const USAGE = { input: 10, output: 10, totalTokens: 20 };

export function writeLongWordSession(
  dataDir: string,
  cwd: string,
  word: string,
  parts: LongWordParts = { prompt: true, toolResult: true, label: true, name: true },
): LongWordSession {
  const writer = piFileWriter(cwd, Date.parse('2026-03-01T09:00:00.000Z'));
  // Each message is stamped with its entry's time: the writer's clock moves a second an entry.
  const next = (): number => writer.clock + 1000;
  const answer = (
    text: string,
    call?: { id: string; name: string; args: Record<string, unknown> },
  ) =>
    writer.appendMessage(
      assistantMessage(text, {
        ...DEMO_MODEL,
        usage: USAGE,
        ...(call ? { toolCalls: [call] } : {}),
        timestamp: next(),
      }),
    );
  const user = (text: string): string =>
    writer.appendMessage(userMessage(text, { timestamp: next() }));
  const leafAppend = (entry: Record<string, unknown>): string =>
    writer.append(entry, writer.leafId);

  leafAppend({ type: 'model_change', provider: 'arbor', modelId: 'arbor-demo' });
  if (parts.name) leafAppend({ type: 'session_info', name: word });
  const prompt = parts.prompt ? word : 'a short prompt';
  const promptId = user(prompt);
  const answerId = answer(`You said: "${prompt}"`);
  if (parts.label) leafAppend({ type: 'label', targetId: promptId, label: word });
  if (parts.toolResult) {
    user('/tool read {"path":"long.txt"}');
    const call = { id: 'call_long', name: 'read', args: { path: 'long.txt' } };
    answer('', call);
    writer.appendMessage(toolResultMessage(call, word, { timestamp: next() }));
    answer('Read the file.');
  }
  const file = writer.write(sessionDirFor(dataDir, cwd));
  return { file, sessionId: writer.sessionId, promptId, answerId, leafId: writer.leafId! };
}
