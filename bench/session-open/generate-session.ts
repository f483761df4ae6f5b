import fs from 'node:fs';
import path from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { codingTurn, sessionText, turnMessages } from '../../server/test-support/random-session.js';

/*
 * Writes a realistic 20,000-entry session with pi's own SessionManager, so its shape is pi's:
 * the shared generator's coding turns (user prompt → assistant tool calls → tool results with
 * large outputs → answer), a few branches back to earlier prompts, labels, a session name and
 * compactions on the active path.
 */

const MODEL = { provider: 'demo', model: 'demo-model' };

type PiMessage = Parameters<SessionManager['appendMessage']>[0];

export function generateSession(dir: string, entries = 20_000, seed = 1): string {
  fs.mkdirSync(dir, { recursive: true });
  const text = sessionText(seed);
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
  let pathAtCompaction = 0;
  let firstAfterCompaction = 0;
  let turn = 0;
  while (depth.size < entries) {
    turn++;
    // pi's message types are stricter than the factory's schema-derived ones; the file is pi's.
    const [userId] = turnMessages(codingTurn(text, turn, { tools: [1, 3] }), MODEL).map((message) =>
      track(sm.appendMessage(message as PiMessage)),
    );
    userIds.push(userId!);
    if (turn % 40 === 0) track(sm.appendLabelChange(userId!, `checkpoint ${turn}`));
    if (turn === 10) track(sm.appendSessionInfo('Benchmark session'));
    // Every 150 turns, go back to an earlier prompt and continue from there (a new branch).
    // Never across the compaction, so that it stays on the active path.
    if (turn % 150 === 0 && userIds.length - firstAfterCompaction > 20) {
      const back = userIds[userIds.length - 1 - Math.floor(text.rand() * 20)]!;
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
          `## Goal\n${text.words(200)}`,
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
