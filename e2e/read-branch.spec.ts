import fs from 'node:fs';
import { test as base, expect, type Browser, type Page } from '@playwright/test';
import { addUser, makeTempDirs, startArbor, type ArborServer } from './support/arbor-server.js';
import { watchContext } from './support/fixtures.js';
import {
  chatMessages,
  editor,
  entryIdOf,
  leafNode,
  sendPrompt,
  treeNode,
  waitGraphSettled,
} from './support/page-helpers.js';

/*
 * Reading another branch without moving the session's leaf (decision 076): a viewer's click
 * reads, a member's "Read this branch" reads, and only "Continue here" moves the leaf, which every
 * other tab then sees.
 */

type Team = { server: ArborServer; member: string; viewer: string };

const test = base.extend<{ team: Team }>({
  // eslint-disable-next-line no-empty-pattern
  team: async ({}, use, testInfo) => {
    const dirs = makeTempDirs();
    const member = addUser(dirs.dataDir, 'max', 'member');
    const viewer = addUser(dirs.dataDir, 'vic', 'viewer');
    const server = await startArbor(dirs);
    try {
      await use({ server, member, viewer });
    } finally {
      await server.stop();
      if (testInfo.status !== testInfo.expectedStatus)
        fs.writeFileSync(testInfo.outputPath('server.log'), server.log());
    }
  },
});

async function logIn(browser: Browser, url: string, token: string, errors: string[]) {
  const context = await browser.newContext();
  watchContext(context, errors);
  const page = await context.newPage();
  await page.goto(url);
  await page.getByRole('textbox', { name: 'Token' }).fill(token);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('log', { name: 'Conversation' })).toBeVisible();
  return { context, page };
}

/**
 * The member's session: "apples", then two branches after its answer, "bananas" (left behind)
 * and "cherries" (the leaf). Returns the session's address and the left branch's answer id.
 */
async function twoBranches(page: Page): Promise<{ url: string; otherAnswer: string }> {
  await expect(editor(page)).toBeEnabled();
  await sendPrompt(page, 'apples');
  await sendPrompt(page, 'bananas');
  const otherAnswer = await entryIdOf(treeNode(page, 'assistant', 'bananas'));
  await treeNode(page, 'user', 'bananas').click();
  await expect(editor(page)).toHaveValue('bananas');
  await editor(page).fill('cherries');
  await sendPrompt(page, 'cherries');
  await expect(chatMessages(page, 'user')).toHaveText([/apples/, /cherries/]);
  await waitGraphSettled(page);
  return { url: page.url(), otherAnswer };
}

/** Fits the whole tree in view, so the branch left behind is in sight. */
async function showWholeTree(page: Page): Promise<void> {
  await waitGraphSettled(page);
  await page.getByRole('button', { name: 'Fit all' }).click();
  await waitGraphSettled(page);
}

const banner = (page: Page) => page.getByRole('region', { name: 'Reading mode' });

test("a viewer's click reads another branch in the chat, and the session's leaf stays", async ({
  browser,
  team,
}) => {
  const errors: string[] = [];
  const owner = await logIn(browser, team.server.url, team.member, errors);
  const { url, otherAnswer } = await twoBranches(owner.page);
  const leaf = await entryIdOf(leafNode(owner.page));

  const viewer = await logIn(browser, url, team.viewer, errors);
  const page = viewer.page;
  await expect(chatMessages(page, 'user')).toHaveText([/apples/, /cherries/]);
  await showWholeTree(page);
  await treeNode(page, 'assistant', 'bananas').click();

  await expect(banner(page)).toContainText('Reading another branch');
  await expect(chatMessages(page, 'user')).toHaveText([/apples/, /bananas/]);
  await expect(chatMessages(page, 'assistant').last()).toContainText('bananas');
  // A viewer may not act: nothing offers to continue from there, and it says why.
  await expect(banner(page).getByRole('button', { name: 'Continue here' })).toHaveCount(0);
  await expect(banner(page)).toContainText('You may read this session but not act in it');
  // The session did not move, for the viewer's graph nor for the owner's tab.
  await expect(leafNode(page)).toHaveAttribute('data-entry-id', leaf);
  await expect(leafNode(owner.page)).toHaveAttribute('data-entry-id', leaf);
  await expect(chatMessages(owner.page, 'user')).toHaveText([/apples/, /cherries/]);
  await expect(owner.page.getByRole('region', { name: 'Reading mode' })).toHaveCount(0);
  expect(otherAnswer).not.toBe(leaf);

  await banner(page).getByRole('button', { name: 'Back to the current branch' }).click();
  await expect(banner(page)).toHaveCount(0);
  await expect(chatMessages(page, 'user')).toHaveText([/apples/, /cherries/]);

  await owner.context.close();
  await viewer.context.close();
  expect(errors.filter((e) => !/401 \(Unauthorized\)/.test(e))).toEqual([]);
});

test('a member reads a branch with "Read this branch", then continues there', async ({
  browser,
  team,
}) => {
  const errors: string[] = [];
  const first = await logIn(browser, team.server.url, team.member, errors);
  const { url, otherAnswer } = await twoBranches(first.page);
  const leaf = await entryIdOf(leafNode(first.page));
  // The same member in a second tab, which sees what the session's leaf does.
  const second = await logIn(browser, url, team.member, errors);
  await expect(leafNode(second.page)).toHaveAttribute('data-entry-id', leaf);

  const page = first.page;
  await showWholeTree(page);
  const node = treeNode(page, 'assistant', 'bananas');
  await node.hover();
  await node
    .locator('xpath=..')
    .getByRole('button', { name: 'Read this branch (assistant node)' })
    .click();
  await expect(banner(page)).toContainText('Reading another branch');
  await expect(chatMessages(page, 'user')).toHaveText([/apples/, /bananas/]);
  // Reading moved nothing: the leaf is where it was, here and in the other tab.
  await expect(leafNode(page)).toHaveAttribute('data-entry-id', leaf);
  await expect(leafNode(second.page)).toHaveAttribute('data-entry-id', leaf);
  await expect(chatMessages(second.page, 'user')).toHaveText([/apples/, /cherries/]);

  // "Continue here" applies the click rule there: on an answer, the leaf moves to it.
  await banner(page).getByRole('button', { name: 'Continue here' }).click();
  await expect(banner(page)).toHaveCount(0);
  await expect(leafNode(page)).toHaveAttribute('data-entry-id', otherAnswer);
  await expect(leafNode(second.page)).toHaveAttribute('data-entry-id', otherAnswer);
  await expect(chatMessages(second.page, 'user')).toHaveText([/apples/, /bananas/]);
  await expect(chatMessages(page, 'user')).toHaveText([/apples/, /bananas/]);

  // From the keyboard, R reads; Enter then acts (the click rule) and shows where the leaf went.
  const cherries = treeNode(page, 'assistant', 'cherries');
  await cherries.focus();
  await page.keyboard.press('r');
  await expect(banner(page)).toContainText('Reading another branch');
  await expect(chatMessages(page, 'user')).toHaveText([/apples/, /cherries/]);
  await expect(leafNode(second.page)).toHaveAttribute('data-entry-id', otherAnswer);
  await page.keyboard.press('Enter');
  await expect(banner(page)).toHaveCount(0);
  await expect(leafNode(page)).toHaveAttribute('data-entry-id', leaf);
  await expect(leafNode(second.page)).toHaveAttribute('data-entry-id', leaf);

  await first.context.close();
  await second.context.close();
  expect(errors.filter((e) => !/401 \(Unauthorized\)/.test(e))).toEqual([]);
});
