import type { AgentMessage, AssistantMessage, ToolCall } from '../../../shared/messages.js';
import { emptyUsage } from '../../../shared/messages.js';
import fs from 'node:fs';
import path from 'node:path';
import { CURRENT_SESSION_VERSION, type SessionEntry } from '../../../shared/session-entries.js';
import { prng } from '../../../shared/prng.js';
import { estimateTokens } from '../token-estimates.js';

/*
 * A long linear session, fast to build: turns of a user request, read/edit calls with their
 * results and an answer, every message a `message` entry on one path. For tests and the bench
 * that need tens of thousands to a million messages; deterministic for a seed.
 */

const WORDS = 'alpha beta gamma delta file edit read write test build fails src/app.ts'.split(' ');

export interface LongSessionOptions {
  seed?: number;
  /** Scales every text (1: requests of 40–240 characters, tool output of 100–3,000). */
  textScale?: number;
}

export function longSessionMessages(count: number, opts: LongSessionOptions = {}): AgentMessage[] {
  const rand = prng(opts.seed ?? 1);
  const scale = opts.textScale ?? 1;
  const text = (unscaled: number): string => {
    const chars = unscaled * scale;
    const words: string[] = [];
    let length = 0;
    while (length < chars) {
      const word = WORDS[Math.floor(rand() * WORDS.length)] ?? 'x';
      words.push(word);
      length += word.length + 1;
    }
    return words.join(' ');
  };
  const messages: AgentMessage[] = [];
  // In the past, so that entries written now (a compaction) are newer than every message.
  let time = 1_700_000_000_000;
  // The estimate of everything so far: usage reports say what a model would have counted.
  let context = 0;
  const push = (message: AgentMessage): void => {
    messages.push(message);
    context += estimateTokens(message);
  };
  const assistant = (content: AssistantMessage['content'], toolUse: boolean): AssistantMessage => {
    const message: AssistantMessage = {
      role: 'assistant',
      content,
      api: 'openai-completions',
      provider: 'arbor',
      model: 'arbor-demo',
      usage: emptyUsage(),
      stopReason: toolUse ? 'toolUse' : 'stop',
      timestamp: ++time,
    };
    message.usage.input = context;
    message.usage.output = estimateTokens(message);
    message.usage.totalTokens = message.usage.input + message.usage.output;
    return message;
  };
  while (messages.length < count) {
    const turn = messages.length;
    push({
      role: 'user',
      content: [{ type: 'text', text: `request ${turn}: ${text(40 + rand() * 200)}` }],
      timestamp: ++time,
    });
    const tools = Math.floor(rand() * 3);
    for (let i = 0; i < tools && messages.length < count; i++) {
      const call: ToolCall = {
        type: 'toolCall',
        id: `call_${turn}_${i}`,
        name: i % 2 === 0 ? 'read' : 'edit',
        arguments: { path: `src/file-${turn % 500}-${i}.ts` },
      };
      push(assistant([{ type: 'text', text: text(20 + rand() * 100) }, call], true));
      if (messages.length >= count) break;
      push({
        role: 'toolResult',
        toolCallId: call.id,
        toolName: call.name,
        content: [{ type: 'text', text: text(rand() < 0.2 ? 3000 : 100 + rand() * 800) }],
        isError: false,
        timestamp: ++time,
      });
    }
    if (messages.length >= count) break;
    push(assistant([{ type: 'text', text: `done ${turn}: ${text(40 + rand() * 300)}` }], false));
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
