import type { AgentMessage, UserContent } from '../../../shared/messages.js';
import { assistantMessage, ONE_TOKEN_EACH, userMessage } from '../../test-support/messages.js';
import { DEMO_MODEL_ID } from '../../models/demo-model-entry.js';
import { DEMO_PROVIDER } from '../../models/model-catalog.js';

/*
 * A session file's lines as pi writes them (version 3), for tests that build a session line by
 * line to import or open it: entries with the ids and parents the test chooses, all stamped with
 * one time, answers from the demo model (Arbor's own, so a test may prompt on after them) with a
 * token of input and one of output.
 */

const TIME = '2026-01-02T03:04:05.000Z';

/** One JSONL line, newline included. */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

export function headerLine(sessionId: string, cwd = '/tmp'): string {
  return jsonLine({ type: 'session', version: 3, id: sessionId, timestamp: TIME, cwd });
}

function messageLine(id: string, parentId: string | null, message: AgentMessage): string {
  return jsonLine({ type: 'message', id, parentId, timestamp: TIME, message });
}

/** A user message; `content` is a string (kept as one) or pi's content parts. */
export function userLine(id: string, parentId: string | null, content: UserContent): string {
  return messageLine(id, parentId, userMessage(content, { plainString: true, timestamp: 1 }));
}

/** An assistant message of one text part, answered by the demo model. */
export function assistantLine(id: string, parentId: string, text: string): string {
  return messageLine(
    id,
    parentId,
    assistantMessage(text, {
      provider: DEMO_PROVIDER,
      model: DEMO_MODEL_ID,
      usage: ONE_TOKEN_EACH,
      timestamp: 2,
    }),
  );
}
