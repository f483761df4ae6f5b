import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.js';
import {
  chatMessages,
  conversation,
  editor,
  leafNode,
  openArbor,
  sendPrompt,
  sessionAction,
  sessionTree,
  startNewSession,
} from './support/page-helpers.js';
import { writePiSession } from './support/pi-session-file.js';

function sidebar(page: Page) {
  return page.getByRole('navigation', { name: 'Sessions' });
}

/** A long paragraph, so that a session of a few turns is taller than the chat. */
function paragraph(topic: string): string {
  return Array.from({ length: 12 }, (_, i) => `${topic}: line ${i} of a long answer.`).join('\n\n');
}

test('search finds a word in a later prompt and opens the session at that entry, the leaf kept', async ({
  page,
  arbor,
}) => {
  const turns = Array.from({ length: 8 }, (_, i) => [
    { role: 'user' as const, text: i === 4 ? 'now about the zebracorn migration' : `prompt ${i}` },
    { role: 'assistant' as const, text: paragraph(`answer ${i}`) },
  ]).flat();
  const older = writePiSession(arbor.dataDir, arbor.workspace, turns);
  const target = older.entryIds[8]!;
  const lastEntry = older.entryIds.at(-1)!;

  await openArbor(page, arbor.url);
  await expect(page).toHaveURL(new RegExp(`session=${older.sessionId}`));
  await startNewSession(page);
  await sendPrompt(page, 'a newer session about something else');
  const search = page.getByRole('searchbox', { name: 'Search sessions' });
  await expect(search).toHaveAttribute('placeholder', 'Search all messages');
  await search.fill('zebracorn');

  const results = sidebar(page).locator('[data-session-id]');
  await expect(results).toHaveCount(1);
  await expect(results).toHaveAttribute('data-session-id', older.sessionId);
  const hit = results.locator(`[data-hit-entry-id="${target}"]`);
  await expect(hit).toContainText('Prompt');
  await expect(hit.locator('mark')).toHaveText('zebracorn');
  await expect(hit).toContainText('now about the zebracorn migration');

  await hit.click();
  await expect(page).toHaveURL(new RegExp(`session=${older.sessionId}`));
  const inChat = conversation(page).locator(`[data-entry-id="${target}"]`);
  await expect(inChat).toHaveAttribute('data-revealed', 'true');
  await expect(inChat).toBeInViewport();
  const inTree = sessionTree(page).locator(`[data-entry-id="${target}"]`);
  await expect(inTree).toHaveAttribute('data-revealed', 'true');
  await expect(inTree).toBeInViewport();
  // Looking is not acting: the leaf stays where it was, the chat shows the whole path.
  await expect(chatMessages(page).last()).toHaveAttribute('data-entry-id', lastEntry);
  await expect(chatMessages(page, 'user')).toHaveCount(8);
  await sessionTree(page).getByRole('button', { name: 'Fit to leaf' }).click();
  await expect(leafNode(page)).toHaveAttribute('data-entry-id', lastEntry);
  await expect(editor(page)).toHaveValue('');
  // Cleared, the search takes its marks away.
  await search.fill('');
  await expect(inChat).not.toHaveAttribute('data-revealed', 'true');
  await expect(conversation(page).locator('[data-revealed]')).toHaveCount(0);
  await expect(sessionTree(page).locator('[data-revealed]')).toHaveCount(0);
});

test('a match on another branch opens that branch for reading, without moving the leaf', async ({
  page,
  arbor,
}) => {
  const branched = writePiSession(arbor.dataDir, arbor.workspace, [
    { role: 'user', text: 'start here' },
    { role: 'assistant', text: 'started' },
    { role: 'user', text: 'the okapi branch', parent: 1 },
    { role: 'assistant', text: 'okay', parent: 2 },
    { role: 'user', text: 'the other branch', parent: 1 },
    { role: 'assistant', text: 'other', parent: 4 },
  ]);
  const target = branched.entryIds[2]!;
  const leaf = branched.entryIds[5]!;
  await openArbor(page, arbor.url);
  await page.getByRole('searchbox', { name: 'Search sessions' }).fill('okapi');
  await sidebar(page).locator(`[data-hit-entry-id="${target}"]`).click();
  await expect(page.getByText('Reading another branch')).toBeVisible();
  await expect(chatMessages(page, 'user')).toHaveText([/start here/, /the okapi branch/]);
  const inChat = conversation(page).locator(`[data-entry-id="${target}"]`);
  await expect(inChat).toHaveAttribute('data-revealed', 'true');
  const inTree = sessionTree(page).locator(`[data-entry-id="${target}"]`);
  await expect(inTree).toHaveAttribute('data-revealed', 'true');
  await expect(inTree).toBeInViewport();
  // Looking is not acting: the session's leaf has not moved.
  await expect(leafNode(page)).toHaveAttribute('data-entry-id', leaf);
  await page.getByRole('button', { name: 'Back to the current branch' }).click();
  await expect(chatMessages(page, 'user')).toHaveText([/start here/, /the other branch/]);
});

test('search reaches tool output and answers, and says so when nothing matches', async ({
  page,
  arbor,
}) => {
  writePiSession(arbor.dataDir, arbor.workspace, [
    { role: 'user', text: 'list the files' },
    { role: 'assistant', text: 'Running ls now.' },
    { role: 'toolResult', text: 'README.md\nquokka-notes.txt\n' },
    { role: 'assistant', text: 'There is a file about a quokka.' },
  ]);
  await openArbor(page, arbor.url);
  const search = page.getByRole('searchbox', { name: 'Search sessions' });
  await search.fill('quokka');
  const hits = sidebar(page).locator('.search-hit');
  await expect(hits).toHaveCount(2);
  await expect(hits.nth(0)).toContainText('Tool output');
  await expect(hits.nth(1)).toContainText('Answer');
  await search.fill('no such word anywhere');
  await expect(sidebar(page)).toContainText('No matches.');
  await search.fill('');
  await expect(sidebar(page).locator('[data-session-id]')).toHaveCount(1);
});

test('a fork is told apart from the session it came from', async ({ page, arbor }) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'original idea');
  await sendPrompt(page, 'refine it');
  const parentId = new URL(page.url()).searchParams.get('session')!;
  await sessionAction(page, 'Fork');
  await expect(page).not.toHaveURL(new RegExp(`session=${parentId}`));
  const forkId = new URL(page.url()).searchParams.get('session')!;

  const parentRow = sidebar(page).locator(`[data-session-id="${parentId}"]`);
  const forkRow = sidebar(page).locator(`[data-session-id="${forkId}"]`);
  await expect(forkRow.locator('.session-name')).toHaveText('original idea');
  await expect(forkRow).toContainText('Fork of “original idea” · made');
  await expect(parentRow).not.toContainText('Fork of');
  // The fork's row says when it was made; the parent's says nothing of the kind.
  const made = await forkRow.locator('.session-lineage').innerText();
  expect(made).toMatch(/made .*\d/);
});
