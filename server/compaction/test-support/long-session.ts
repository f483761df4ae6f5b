import type { AgentMessage } from '../../../shared/messages.js';
import { emptyUsage } from '../../../shared/messages.js';
import fs from 'node:fs';
import path from 'node:path';
import { CURRENT_SESSION_VERSION, type SessionEntry } from '../../../shared/session-entries.js';
import { codingTurn, sessionText, turnMessages } from '../../test-support/random-session.js';
import { estimateTokens } from '../token-estimates.js';

/*
 * A long linear session, fast to build: the shared generator's coding turns (a prompt, up to two
 * tool calls with their results, an answer), every message a `message` entry on one path, with
 * usage figures that say what a model would have counted. For tests and the bench that need tens
 * of thousands to a million messages; deterministic for a seed.
 */

export interface LongSessionOptions {
  seed?: number;
  /** Scales every text (1: about 600 characters a message on average). */
  textScale?: number;
}

/** Brings the generator's turns to this session's size (it was sized before they were shared). */
const SCALE = 0.4;

export function longSessionMessages(count: number, opts: LongSessionOptions = {}): AgentMessage[] {
  // In the past, so that entries written now (a compaction) are newer than every message.
  const text = sessionText(opts.seed ?? 1, { start: 1_700_000_000_000 });
  const shape = { tools: [0, 2] as const, scale: SCALE * (opts.textScale ?? 1) };
  const model = { provider: 'arbor', model: 'arbor-demo' };
  const messages: AgentMessage[] = [];
  for (let turn = 1; messages.length < count; turn++) {
    messages.push(...turnMessages(codingTurn(text, turn, shape), model));
  }
  messages.length = count;
  // The estimate of everything before an answer is the context its model counted.
  let context = 0;
  for (const message of messages) {
    if (message.role === 'assistant') {
      const output = estimateTokens(message);
      message.usage = { ...emptyUsage(), input: context, output, totalTokens: context + output };
    }
    context += estimateTokens(message);
  }
  return messages;
}

/** The messages as entries of one root-to-leaf path. */
export function longSessionEntries(count: number, opts: LongSessionOptions = {}): SessionEntry[] {
  let parentId: string | null = null;
  return longSessionMessages(count, opts).map((message, index) => {
    const id = index.toString(16).padStart(8, '0');
    const entry: SessionEntry = {
      type: 'message',
      id,
      parentId,
      timestamp: new Date(message.timestamp ?? 0).toISOString(),
      message,
    };
    parentId = id;
    return entry;
  });
}

/** Writes a session file of `count` messages into `dir` (as pi lays one out) and returns its path. */
export function writeLongSessionFile(
  dir: string,
  cwd: string,
  count: number,
  opts: LongSessionOptions = {},
): string {
  const file = path.join(dir, `long-${count}.jsonl`);
  const header = {
    type: 'session',
    version: CURRENT_SESSION_VERSION,
    id: `0190a000-0000-7000-8000-${count.toString(16).padStart(12, '0')}`,
    timestamp: new Date(1_700_000_000_000).toISOString(),
    cwd,
  };
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, `${JSON.stringify(header)}\n`);
    const entries = longSessionEntries(count, opts);
    for (let i = 0; i < entries.length; i += 5000) {
      const lines = entries.slice(i, i + 5000).map((entry) => JSON.stringify(entry));
      fs.writeSync(fd, `${lines.join('\n')}\n`);
    }
  } finally {
    fs.closeSync(fd);
  }
  return file;
}
