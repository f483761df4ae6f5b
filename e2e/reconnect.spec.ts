import fs from 'node:fs';
import { test, expect } from '@playwright/test';
import { makeTempDirs, startArbor, type ArborServer } from './support/arbor-server.js';
import { watchConsole } from './support/fixtures.js';
import {
  chatMessages,
  editor,
  entryIdOf,
  leafNode,
  openArbor,
  sendPrompt,
  waitIdle,
} from './support/page-helpers.js';

/*
 * A server restart as an operator does it (SIGTERM, then `arbor serve` again on the same port and
 * data folder) under an open tab: the tab says it is reconnecting, refuses to send meanwhile, and
 * comes back to its session at the same leaf with the unsent text still in the editor.
 */

test('a tab comes back to its session by itself after the server restarts', async ({ page }) => {
  const dirs = makeTempDirs();
  const servers: ArborServer[] = [await startArbor(dirs)];
  const errors: string[] = [];
  watchConsole(page, errors);
  try {
    const first = servers[0]!;
    const port = Number(new URL(first.url).port);
    await openArbor(page, first.url);
    await sendPrompt(page, 'before the restart');
    const sessionUrl = page.url();
    const leafId = await entryIdOf(leafNode(page));
    await editor(page).fill('typed while the server restarts');

    await first.stop();
    await expect(page.locator('.connection')).toHaveText('Reconnecting to the server…');
    const send = page.getByRole('button', { name: 'Send' });
    await expect(send).toBeDisabled();
    await expect(send).toHaveAccessibleDescription(
      /Not connected: Send works again once the server is back/,
    );
    // Enter sends nothing either, and the text stays.
    await editor(page).press('Enter');
    await expect(editor(page)).toHaveValue('typed while the server restarts');
    // The session is still on the page: its chat and its tree, not "No session open".
    await expect(chatMessages(page, 'user')).toContainText(['before the restart']);
    await expect(leafNode(page)).toHaveAttribute('data-entry-id', leafId);
    await expect(page.getByRole('alert')).toHaveCount(0);

    servers.push(await startArbor(dirs, {}, port));
    await expect(page.locator('.connection')).toHaveText('', { timeout: 20_000 });
    expect(page.url()).toBe(sessionUrl);
    await expect(leafNode(page)).toHaveAttribute('data-entry-id', leafId);
    await expect(editor(page)).toHaveValue('typed while the server restarts');
    await expect(send).toBeEnabled();
    await expect(page.getByRole('alert')).toHaveCount(0);

    await send.click();
    await expect(chatMessages(page, 'assistant').last()).toContainText(
      'typed while the server restarts',
    );
    await waitIdle(page);
    await expect(chatMessages(page, 'user')).toHaveCount(2);
    // While the server was away the browser logged its failed attempts to reach it; nothing else.
    expect(
      errors.filter((e) => !/WebSocket connection to .* failed|ERR_CONNECTION_REFUSED/.test(e)),
    ).toEqual([]);
  } finally {
    for (const server of servers) await server.stop();
    if (test.info().status !== test.info().expectedStatus)
      fs.writeFileSync(
        test.info().outputPath('server.log'),
        servers.map((s) => s.log()).join('\n---\n'),
      );
  }
});
