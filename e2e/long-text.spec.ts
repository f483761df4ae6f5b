import fs from 'node:fs';
import { test, expect } from './support/fixtures.js';
import {
  chatMessages,
  conversation,
  editor,
  leafNode,
  openArbor,
  sessionTree,
  treeNodes,
  waitIdle,
  entryIdOf,
} from './support/page-helpers.js';
import { writeLongWordSession, type LongWordParts } from './support/long-word-session.js';
import type { Page } from '@playwright/test';

/*
 * A run of text without spaces used to freeze the tab (wrapping it cost the square of its
 * length; decision 072): every test here puts one on the page, then checks that the page still
 * answers what a person does next, within the usual waits.
 */

const MILLION = 'A'.repeat(1_000_000);

/**
 * The page answers: a click on the prompt's node moves the leaf off it and puts its text in the
 * editor, and the editor takes typing.
 */
async function expectPageAnswers(page: Page, promptText: string): Promise<void> {
  const prompt = treeNodes(page, 'user').last();
  const promptId = await entryIdOf(prompt);
  await prompt.click();
  await expect(editor(page)).toHaveValue(promptText);
  await expect(leafNode(page)).not.toHaveAttribute('data-entry-id', promptId);
  await editor(page).fill('');
  await editor(page).pressSequentially('still here');
  await expect(editor(page)).toHaveValue('still here');
}

function seed(arbor: { dataDir: string; workspace: string }, word: string, parts: LongWordParts) {
  return writeLongWordSession(arbor.dataDir, fs.realpathSync(arbor.workspace), word, parts);
}

test('a prompt of a million characters without a space is sent, shown folded, and the page answers, also after a reload', async ({
  page,
  arbor,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: arbor.url });
  await openArbor(page, arbor.url);
  await editor(page).fill(MILLION);
  await expect(editor(page)).toHaveValue(MILLION);
  await editor(page).press('Enter');
  // A million characters do not fit the model's window: the model refuses, the refused attempt is
  // hidden from the model, and the session compacts and answers (pi's overflow recovery).
  await expect(chatMessages(page, 'assistant')).toHaveCount(2);
  await waitIdle(page);
  await expect(chatMessages(page, 'assistant').first()).toContainText('Hidden from the model');

  const prompt = chatMessages(page, 'user').last();
  await expect(
    prompt.getByRole('button', { name: 'Show all (1,000,000 characters)' }),
  ).toBeVisible();
  await expectPageAnswers(page, MILLION);

  // `/` opens the newest session: this one, with its long word. It must open and answer.
  await page.goto(arbor.url);
  await expect(editor(page)).toBeEnabled();
  await treeNodes(page, 'assistant').last().click();
  await expect(leafNode(page)).toHaveAttribute('data-role', 'assistant');
  await editor(page).pressSequentially('typed after the reload');
  await expect(editor(page)).toHaveValue('typed after the reload');

  // Folded is not cut: the whole prompt opens and copies.
  const reloaded = chatMessages(page, 'user').last();
  await reloaded.getByRole('button', { name: 'Show all (1,000,000 characters)' }).click();
  await expect(reloaded.getByRole('button', { name: 'Show less' })).toBeVisible();
  expect(await reloaded.locator('.plain-text').evaluate((el) => el.textContent?.length)).toBe(
    1_000_000,
  );
  await reloaded.getByRole('button', { name: 'Copy all' }).click();
  await expect(reloaded.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(MILLION);
});

test('a tool result of a million characters without a space opens, and the page answers', async ({
  page,
  arbor,
}) => {
  const session = seed(arbor, MILLION, { toolResult: true });
  await openArbor(page, `${arbor.url}/?session=${session.sessionId}`);
  const result = chatMessages(page, 'toolResult');
  await result.locator('summary').click();
  await expect(
    result.getByRole('button', { name: 'Show all (1,000,000 characters)' }),
  ).toBeVisible();
  await result.getByRole('button', { name: 'Show all (1,000,000 characters)' }).click();
  expect(await result.locator('pre.tool-output').evaluate((el) => el.textContent?.length)).toBe(
    1_000_000,
  );
  await expectPageAnswers(page, '/tool read {"path":"long.txt"}');
});

test('a label and a session name of 100,000 characters leave the graph, the sidebar and the chat answering', async ({
  page,
  arbor,
}) => {
  const long = 'N'.repeat(100_000);
  const session = seed(arbor, long, { label: true, name: true });
  await openArbor(page, `${arbor.url}/?session=${session.sessionId}`);
  const prompt = sessionTree(page).locator(`[data-entry-id="${session.promptId}"]`);
  await expect(prompt.locator('.node-label')).toHaveText(long);
  await expect(page.locator('.session-title')).toHaveText(long);
  // The node's preview shows on hover; the sessions row holds the name.
  await prompt.hover();
  await expect(page.getByRole('navigation').getByText(long)).toBeVisible();
  await expect(conversation(page)).toContainText('You said: "a short prompt"');
  await expectPageAnswers(page, 'a short prompt');
});
