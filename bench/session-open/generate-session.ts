import fs from 'node:fs';
import path from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { prng } from '../../shared/prng.js';

/*
 * Writes a realistic 20,000-entry session with pi's own SessionManager, so its shape is pi's:
 * turns of user prompt → assistant tool calls → tool results with large outputs → answer, a few
 * branches back to earlier prompts, labels, a session name and compactions on the active path.
 */

type PiMessage = Parameters<SessionManager['appendMessage']>[0];

const WORDS =
  'the session tree keeps every branch of a conversation with the agent so nothing is lost when a prompt is edited and run again while tools read files and write patches'.split(
    ' ',
  );

export function generateSession(dir: string, entries = 20_000, seed = 1): string {
  fs.mkdirSync(dir, { recursive: true });
  const random = prng(seed);
  const text = (words: number): string =>
    Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
  const output = (bytes: number): string => {
    const lines: string[] = [];
    let size = 0;
    while (size < bytes) {
      const line = `${String(lines.length + 1).padStart(5)}  ${text(6 + Math.floor(random() * 10))}`;
      lines.push(line);
      size += line.length + 1;
    }
    return lines.join('\n');
  };
  const usage = () => ({
    input: 1000 + Math.floor(random() * 50_000),
    output: Math.floor(random() * 2000),
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0.01, output: 0.02, cacheRead: 0, cacheWrite: 0, total: 0.03 },
  });
  let now = Date.parse('2026-01-01T00:00:00.000Z');
  const tick = () => (now += 1000 + Math.floor(random() * 5000));

  const sm = SessionManager.create('/home/dev/project', dir);
  // Depth of every entry on its path, so the path length is known without pi's O(n) getBranch.
  const depth = new Map<string, number>();
  let pathLength = 0;
  const track = (id: string): string => {
    depth.set(id, ++pathLength);
    return id;
  };
  track(sm.appendModelChange('demo', 'demo-model'));
  track(sm.appendThinkingLevelChange('medium'));
  const userIds: string[] = [];
  let call = 0;
  let pathAtCompaction = 0;
  let firstAfterCompaction = 0;
  let turn = 0;
  while (depth.size < entries) {
    turn++;
    const userId = track(
      sm.appendMessage({
        role: 'user',
        content: [{ type: 'text', text: `Turn ${turn}: ${text(20 + Math.floor(random() * 40))}` }],
        timestamp: tick(),
      } as PiMessage),
    );
    userIds.push(userId);
    const tools = 1 + Math.floor(random() * 3);
    for (let t = 0; t < tools; t++) {
      const id = `call_${++call}`;
      track(
        sm.appendMessage({
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: text(30), thinkingSignature: '' },
            { type: 'text', text: text(15) },
            {
              type: 'toolCall',
              id,
              name: t % 2 ? 'read' : 'bash',
              arguments: { command: `grep -rn ${text(2)} src/` },
            },
          ],
          api: 'openai-completions',
          provider: 'demo',
          model: 'demo-model',
          usage: usage(),
          stopReason: 'toolUse',
          timestamp: tick(),
        } as PiMessage),
      );
      track(
        sm.appendMessage({
          role: 'toolResult',
          toolCallId: id,
          toolName: t % 2 ? 'read' : 'bash',
          content: [{ type: 'text', text: output(600 + Math.floor(random() * 3500)) }],
          isError: random() < 0.05,
          timestamp: tick(),
        } as PiMessage),
      );
    }
    track(
      sm.appendMessage({
        role: 'assistant',
        content: [{ type: 'text', text: text(60 + Math.floor(random() * 120)) }],
        api: 'openai-completions',
        provider: 'demo',
        model: 'demo-model',
        usage: usage(),
        stopReason: 'stop',
        timestamp: tick(),
      } as PiMessage),
    );
    if (turn % 40 === 0) track(sm.appendLabelChange(userId, `checkpoint ${turn}`));
    if (turn === 10) track(sm.appendSessionInfo('Benchmark session'));
    // Every 150 turns, go back to an earlier prompt and continue from there (a new branch).
    // Never across the compaction, so that it stays on the active path.
    if (turn % 150 === 0 && userIds.length - firstAfterCompaction > 20) {
      const back = userIds[userIds.length - 1 - Math.floor(random() * 20)]!;
      const parent = sm.getEntry(back)?.parentId;
      if (parent) {
        sm.branch(parent);
        pathLength = depth.get(parent)!;
      }
    }
    // Compact as an agent with a ~200k-token window would: every ~800 entries on the path,
    // keeping the last few turns.
    if (pathLength - pathAtCompaction > 800) {
      const kept = userIds[userIds.length - 4]!;
      track(
        sm.appendCompaction(
          `## Goal\n${text(200)}`,
          kept,
          180_000,
          { readFiles: [], modifiedFiles: [] },
          false,
        ),
      );
      pathAtCompaction = pathLength;
      firstAfterCompaction = userIds.length;
    }
  }
  const file = sm.getSessionFile();
  if (!file) throw new Error('pi did not name a session file');
  return path.resolve(file);
}
