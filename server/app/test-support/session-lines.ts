/*
 * A session file's lines as pi writes them (version 3), for tests that build a session line by
 * line to import or open it: entries with the ids and parents the test chooses, all stamped with
 * one time, answers from a demo model with a token of input and one of output.
 */

const TIME = '2026-01-02T03:04:05.000Z';

/** One JSONL line, newline included. */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

export function headerLine(sessionId: string, cwd = '/tmp'): string {
  return jsonLine({ type: 'session', version: 3, id: sessionId, timestamp: TIME, cwd });
}

/** A user message; `content` is a string or pi's content parts. */
export function userLine(id: string, parentId: string | null, content: unknown): string {
  return jsonLine({
    type: 'message',
    id,
    parentId,
    timestamp: TIME,
    message: { role: 'user', content, timestamp: 1 },
  });
}

/** An assistant message of one text part, answered by `model` of the `demo` provider. */
export function assistantLine(id: string, parentId: string, text: string, model = 'm'): string {
  return jsonLine({
    type: 'message',
    id,
    parentId,
    timestamp: TIME,
    message: {
      role: 'assistant',
      content: [{ type: 'text', text }],
      api: 'openai-completions',
      provider: 'demo',
      model,
      usage: {
        input: 1,
        output: 1,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 2,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: 'stop',
      timestamp: 2,
    },
  });
}
