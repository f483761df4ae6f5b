import type { WebSocket as PageSocket } from '@playwright/test';
import { test, expect } from './support/fixtures.js';
import { openArbor, sendPrompt } from './support/page-helpers.js';

/*
 * The context meter and the cost show the state the server pushes (`state_changed`, decision
 * 083): after a run with tool calls the meter reads the server's own figure, and the page never
 * asks for the state itself.
 */

interface PushedState {
  contextUsage: { tokens: number | null; contextWindow: number; estimated?: boolean };
  cost: number;
  isStreaming: boolean;
}

const short = (value: number) =>
  value >= 1_000_000
    ? `${(value / 1_000_000).toFixed(1)}M`
    : value >= 1000
      ? `${(value / 1000).toFixed(1)}k`
      : String(value);

test("the meter and the cost show the server's pushed state, and the page never asks for it", async ({
  page,
  arbor,
}) => {
  const sent: string[] = [];
  const pushed: PushedState[] = [];
  page.on('websocket', (socket: PageSocket) => {
    socket.on('framesent', ({ payload }) => {
      sent.push((JSON.parse(String(payload)) as { type: string }).type);
    });
    socket.on('framereceived', ({ payload }) => {
      const frame = JSON.parse(String(payload)) as {
        type: string;
        event?: { type: string; state?: PushedState };
      };
      if (frame.type === 'event' && frame.event?.type === 'state_changed' && frame.event.state)
        pushed.push(frame.event.state);
    });
  });
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'look around\n/tool ls {"path":"."}');
  await sendPrompt(page, 'and again, in more words than before');

  await expect.poll(() => pushed.at(-1)?.isStreaming).toBe(false);
  const state = pushed.at(-1)!;
  const { tokens, contextWindow } = state.contextUsage;
  expect(tokens).toBeGreaterThan(0);
  await expect(page.locator('.context-meter')).toHaveText(
    `${short(tokens!)} / ${short(contextWindow)} tokens`,
  );
  await expect(page.locator('.cost')).toHaveText(`$${state.cost.toFixed(4)}`);
  expect(sent).toContain('prompt');
  expect(sent).not.toContain('get_state');
});
