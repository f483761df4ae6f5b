import type { Browser, Page } from '@playwright/test';
import { expect, logIn as logInPage, teamTest } from './support/fixtures.js';
import {
  chatMessages,
  conversation,
  editor,
  entryIdOf,
  leafNode,
  readThisBranch,
  sendTwoBranches,
  showWholeTree,
  treeNode,
  waitGraphSettled,
} from './support/page-helpers.js';

/*
 * Reading another branch without moving the session's leaf (decision 076): a viewer's click
 * reads, a member's "Read this branch" reads, and only "Continue here" moves the leaf, which every
 * other tab then sees.
 */

const test = teamTest('member', 'viewer');

async function logIn(browser: Browser, url: string, token: string, errors: string[]) {
  const page = await logInPage(browser, url, token, errors);
  await expect(conversation(page)).toBeVisible();
  return { context: page.context(), page };
}

/**
 * The member's session: "apples", then two branches after its answer, "bananas" (left behind)
 * and "cherries" (the leaf). Returns the session's address and the left branch's answer id.
 */
async function twoBranches(page: Page): Promise<{ url: string; otherAnswer: string }> {
  await expect(editor(page)).toBeEnabled();
  const otherAnswer = await sendTwoBranches(page, 'apples', 'bananas', 'cherries');
  await expect(chatMessages(page, 'user')).toHaveText([/apples/, /cherries/]);
  await waitGraphSettled(page);
  return { url: page.url(), otherAnswer };
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
  await readThisBranch(treeNode(page, 'assistant', 'bananas'));
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
