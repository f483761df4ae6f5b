import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../shared/protocol.js';
import { expectSameAsPi16 } from '../store/test-support/pi16-compare.js';
import { sessionFileIn, startTeamOnSocket } from './test-support/test-server.js';

/*
 * Who sent each prompt, in a team: saved as `author` on the prompt's entry (beside the message,
 * never in what the model sees), sent with the live event and the snapshot, and read by pi 1.6 to
 * the same context as a file without it.
 */

describe('prompt authors', () => {
  it('saves who sent a prompt, a steer and a follow-up; others see it; pi 1.6 reads the file unchanged', async () => {
    const team = await startTeamOnSocket({ ada: 'admin', max: 'member' });
    try {
      const { max, ada } = team.clients;
      const sessionId = await max.newSession(team.server.workspaceId);
      await max.prompt(sessionId, 'asked by max');
      const live = (await max.seen(
        (m) =>
          m.type === 'event' &&
          m.sessionId === sessionId &&
          m.event.type === 'message_end' &&
          m.event.message.role === 'user',
      )) as { event: { author?: string } };
      expect(live.event.author).toBe('max');

      // A run going on: a steer and a follow-up queued by max also carry his name.
      const ended = max.waitForEvent(sessionId, 'agent_end', 20_000);
      // Fifty words a chunk each 20 ms apart: time to queue while it answers.
      await max.ok({ type: 'prompt', sessionId, text: `${'slowly '.repeat(50)}\n/slow 20` });
      await max.ok({ type: 'steer', sessionId, text: 'a steer' });
      await max.ok({ type: 'follow_up', sessionId, text: 'a follow-up' });
      await ended;

      const file = sessionFileIn(team.server.dataDir, sessionId);
      const entries = fs
        .readFileSync(file, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const prompts = entries.filter(
        (e) => e.type === 'message' && (e.message as { role: string }).role === 'user',
      );
      expect(prompts).toHaveLength(4);
      for (const entry of prompts) expect(entry.author).toBe('max');
      // Only prompts: the model's answers have no author.
      for (const entry of entries.filter((e) => e.type === 'message' && !prompts.includes(e)))
        expect(entry).not.toHaveProperty('author');
      // Never in what the model sees.
      for (const entry of prompts) expect(entry.message).not.toHaveProperty('author');

      // An admin opening the session sees whose prompts they are.
      await ada.ok({ type: 'subscribe', sessionId });
      const snapshot = (await ada.seen(
        (m) => m.type === 'snapshot' && m.sessionId === sessionId,
      )) as Snapshot;
      const shown = snapshot.messages.filter((m) => m.message.role === 'user');
      expect(shown.map((m) => m.author)).toEqual(shown.map(() => 'max'));

      await expectSameAsPi16(file);
    } finally {
      await team.close();
    }
  });
});
