import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.js';
import {
  chatMessages,
  editor,
  openArbor,
  sendPrompt,
  sessionAction,
  startNewSession,
} from './support/page-helpers.js';

function sessionRows(page: Page) {
  return page.getByRole('navigation', { name: 'Sessions' }).locator('[data-session-id]');
}

test('fork and clone open new sessions listed under the one they came from', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'original idea');
  await sendPrompt(page, 'refine it');
  const originalUrl = page.url();
  const originalId = new URL(originalUrl).searchParams.get('session');
  expect(originalId).toBeTruthy();

  await sessionAction(page, 'Fork');
  await expect(page).not.toHaveURL(originalUrl);
  await expect(editor(page)).toHaveValue('refine it');
  // The prompt and tools the session recorded first (pi 1.6), the first prompt and its answer.
  await expect(chatMessages(page)).toHaveCount(3);
  await expect(chatMessages(page, 'user')).toHaveText([/original idea/]);
  const forkId = new URL(page.url()).searchParams.get('session');

  await sessionAction(page, 'Clone');
  await expect(page).not.toHaveURL(new RegExp(`session=${forkId}`));
  await expect(chatMessages(page)).toHaveCount(3);
  const cloneId = new URL(page.url()).searchParams.get('session');

  await expect(sessionRows(page)).toHaveCount(3);
  await expect(page.locator(`[data-session-id="${forkId}"]`)).toHaveAttribute(
    'data-parent-session-id',
    originalId!,
  );
  await expect(page.locator(`[data-session-id="${cloneId}"]`)).toHaveAttribute(
    'data-parent-session-id',
    forkId!,
  );
});

test('new, rename, search and delete to trash', async ({ page, arbor }) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'apples');
  await startNewSession(page);
  await sendPrompt(page, 'pears');
  await expect(sessionRows(page)).toHaveCount(2);

  await page.getByRole('button', { name: 'Rename apples' }).click();
  // The field starts with what the row shows, not empty.
  await expect(page.getByRole('textbox', { name: 'Session name' })).toHaveValue('apples');
  await page.getByRole('textbox', { name: 'Session name' }).fill('Fruit one');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(sessionRows(page).first().or(sessionRows(page).last())).toHaveCount(2);
  await expect(page.getByRole('navigation', { name: 'Sessions' })).toContainText('Fruit one');

  await page.getByRole('searchbox', { name: 'Search sessions' }).fill('pears');
  await expect(sessionRows(page)).toHaveCount(1);
  await page.getByRole('searchbox', { name: 'Search sessions' }).fill('');
  await expect(sessionRows(page)).toHaveCount(2);

  // The row's controls are drawn, not left to a font that may lack their glyphs.
  await expect(page.getByRole('button', { name: 'Delete Fruit one' }).locator('svg')).toHaveCount(
    1,
  );
  await expect(page.getByRole('button', { name: 'Delete Fruit one' })).toHaveText('');
  await page.getByRole('button', { name: 'Delete Fruit one' }).click();
  await page.getByRole('button', { name: 'Move to trash' }).click();
  await expect(sessionRows(page)).toHaveCount(1);
  await expect(page.getByRole('navigation', { name: 'Sessions' })).not.toContainText('Fruit one');

  // The notice offers to undo: the session comes back from the trash, whole; the user stays in the
  // session they were in (it was not the one deleted).
  await expect(page.getByRole('alert')).toContainText('Moved “Fruit one” to the trash.');
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(sessionRows(page)).toHaveCount(2);
  await expect(page.getByRole('navigation', { name: 'Sessions' })).toContainText('Fruit one');
  await expect(chatMessages(page, 'user')).toHaveText([/pears/]);
  await page.getByRole('button', { name: /^Fruit one/ }).click();
  await expect(chatMessages(page, 'user')).toHaveCount(1);
  await expect(chatMessages(page, 'user')).toContainText('apples');
});
