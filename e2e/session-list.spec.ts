import { test as base, type Page } from '@playwright/test';
import { addUser, makeTempDirs, type ArborServer } from './support/arbor-server.js';
import { expect, serveDuring, submitToken, test } from './support/fixtures.js';
import {
  chatMessages,
  editor,
  openArbor,
  sendPrompt,
  startNewSession,
  treeNodes,
} from './support/page-helpers.js';
import { writePiSession } from './support/pi-session-file.js';

function sidebar(page: Page) {
  return page.getByRole('navigation', { name: 'Sessions' });
}

function sessionRow(page: Page, id: string) {
  return sidebar(page).locator(`[data-session-id="${id}"]`);
}

function openSessionId(page: Page): string {
  const id = new URL(page.url()).searchParams.get('session');
  if (!id) throw new Error('no session in the URL');
  return id;
}

async function deleteRow(page: Page, title: string): Promise<void> {
  await sidebar(page)
    .getByRole('button', { name: `Delete ${title}` })
    .click();
  await page.getByRole('button', { name: 'Move to trash' }).click();
}

test('deleting the open session shows only the notice; Undo opens it again, whole and clean', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'apples');
  await startNewSession(page);
  await sendPrompt(page, 'pears');
  const pears = openSessionId(page);
  const nodesBefore = await treeNodes(page).count();

  await deleteRow(page, 'pears');
  const notices = page.locator('.notices');
  await expect(notices).toContainText('Moved “pears” to the trash.');
  // The user's own delete is news, not a failure: no red error beside it.
  await expect(notices.locator('.notice-error')).toHaveCount(0);
  await expect(notices).not.toContainText('no longer available');
  await expect(sessionRow(page, pears)).toHaveCount(0);

  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page).toHaveURL(new RegExp(`session=${pears}`));
  await expect(sessionRow(page, pears)).toHaveAttribute('class', /is-current/);
  await expect(chatMessages(page, 'user')).toHaveText([/pears/]);
  await expect(treeNodes(page)).toHaveCount(nodesBefore);
  await expect(editor(page)).toBeEnabled();
  await expect(notices.locator('.notice')).toHaveCount(0);
  // Still open and live: a prompt runs in it.
  await sendPrompt(page, 'plums');
  await expect(chatMessages(page, 'user')).toHaveText([/pears/, /plums/]);
});

test('Undo of deleting another session puts it back in the list and leaves the user where they are', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'apples');
  const apples = openSessionId(page);
  await startNewSession(page);
  await sendPrompt(page, 'pears');
  const pears = openSessionId(page);

  await deleteRow(page, 'apples');
  await expect(sessionRow(page, apples)).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(sessionRow(page, apples)).toHaveCount(1);
  // Before, Undo moved the user to the restored session.
  await expect(page).toHaveURL(new RegExp(`session=${pears}`));
  await expect(sessionRow(page, pears)).toHaveAttribute('class', /is-current/);
  await expect(chatMessages(page, 'user')).toHaveText([/pears/]);
});

test('a title without spaces leaves Undo and × on screen, next to the message', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  const word = 'W'.repeat(300);
  await sendPrompt(page, word);
  await sendPrompt(page, 'second');
  await startNewSession(page);
  await sendPrompt(page, 'keep me');

  await sidebar(page)
    .getByRole('button', { name: `Delete ${word}` })
    .click();
  await page.getByRole('button', { name: 'Move to trash' }).click();
  const notice = page.locator('.notice', { hasText: 'to the trash' });
  await expect(notice).toBeVisible();
  const viewport = page.viewportSize()!;
  const text = await notice.locator('.notice-text').boundingBox();
  for (const name of ['Undo', 'Dismiss']) {
    const box = await notice.getByRole('button', { name }).boundingBox();
    expect(box, name).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, `${name} inside the viewport`).toBeLessThanOrEqual(viewport.width);
    expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
    // Beside the message it belongs to, on the same line, not floated to a far edge.
    expect(Math.abs(box!.y + box!.height / 2 - (text!.y + text!.height / 2))).toBeLessThan(
      text!.height,
    );
  }
  const undo = await notice.getByRole('button', { name: 'Undo' }).boundingBox();
  expect(undo!.x - (text!.x + text!.width)).toBeLessThan(40);
  await notice.getByRole('button', { name: 'Undo' }).click();
  await sidebar(page)
    .getByRole('button', { name: new RegExp(`^${word}`) })
    .click();
  await expect(chatMessages(page, 'user')).toHaveText([new RegExp(word), /second/]);
});

const team = base.extend<{ server: ArborServer; member: string }>({
  // eslint-disable-next-line no-empty-pattern
  server: async ({}, use, testInfo) => {
    const dirs = makeTempDirs();
    addUser(dirs.dataDir, 'ada', 'admin');
    await serveDuring(testInfo, dirs, use);
  },
  member: async ({ server }, use) => {
    await use(addUser(server.dataDir, 'mia', 'member'));
  },
});

team(
  'a member is offered Rename and Delete on their own session only, not on one made by pi',
  async ({ page, server, member }) => {
    const pi = writePiSession(server.dataDir, server.workspace, [
      { role: 'user', text: 'made in the terminal' },
      { role: 'assistant', text: 'by pi' },
    ]);
    await page.goto(server.url);
    await submitToken(page, member);
    await expect(sessionRow(page, pi.sessionId)).toBeVisible();
    await startNewSession(page);
    await sendPrompt(page, 'mine');
    const mine = openSessionId(page);

    await expect(sessionRow(page, mine).getByRole('button', { name: 'Rename mine' })).toHaveCount(
      1,
    );
    await expect(sessionRow(page, mine).getByRole('button', { name: 'Delete mine' })).toHaveCount(
      1,
    );
    const piRow = sessionRow(page, pi.sessionId);
    await expect(piRow).toContainText('made in the terminal');
    await expect(piRow.getByRole('button', { name: /^Rename / })).toHaveCount(0);
    await expect(piRow.getByRole('button', { name: /^Delete / })).toHaveCount(0);
  },
);
