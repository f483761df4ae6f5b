import { expect, type Locator, type Page } from '@playwright/test';

/*
 * What a person does on the page, named for it. Locators use only the accessibility contract
 * (names, roles, data-entry-id, data-role, aria-current).
 */

export function editor(page: Page): Locator {
  return page.getByRole('textbox', { name: 'Message' });
}

export function conversation(page: Page): Locator {
  return page.getByRole('log', { name: 'Conversation' });
}

export function sessionTree(page: Page): Locator {
  return page.getByRole('region', { name: 'Session tree' });
}

export function chatMessages(page: Page, role?: string): Locator {
  const selector = role ? `[data-entry-id][data-role="${role}"]` : '[data-entry-id][data-role]';
  return conversation(page).locator(selector);
}

export function treeNodes(page: Page, role?: string): Locator {
  const selector = role ? `[data-entry-id][data-role="${role}"]` : '[data-entry-id][data-role]';
  return sessionTree(page).locator(selector);
}

export function treeNode(page: Page, role: string, text: string): Locator {
  return sessionTree(page).locator(
    `[data-role="${role}"][aria-label*="${text.replace(/"/g, '\\"')}"]`,
  );
}

export function leafNode(page: Page): Locator {
  return sessionTree(page).locator('[aria-current="true"]');
}

/** Opens the page and waits until a session is open and the editor can send. */
export async function openArbor(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(editor(page)).toBeEnabled();
  await expect(page.locator('.connection')).toHaveText('');
}

/**
 * Clicks "New session" and waits until the page shows it: another session in the URL and an
 * empty chat (what the previous session showed no longer counts, e.g. for `sendPrompt`).
 */
export async function startNewSession(page: Page): Promise<void> {
  const before = page.url();
  await page.getByRole('button', { name: 'New session' }).click();
  await expect.poll(() => page.url()).not.toBe(before);
  await expect(chatMessages(page)).toHaveCount(0);
}

/** Types a prompt, sends it with Enter, and waits until the run is over. */
export async function sendPrompt(page: Page, text: string): Promise<void> {
  const before = await chatMessages(page, 'assistant').count();
  await editor(page).fill(text);
  // Enter sends only what the page can deliver: wait until a session is open and connected.
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
  await editor(page).press('Enter');
  await expect(chatMessages(page, 'assistant')).not.toHaveCount(before);
  await waitIdle(page);
}

/** The run has ended: no Abort button, no message still streaming, every message stored. */
export async function waitIdle(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Abort' })).toHaveCount(0);
  await expect(conversation(page).locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(conversation(page).locator('[data-entry-id="pending"]')).toHaveCount(0);
  await waitGraphSettled(page);
}

/**
 * The graph has stopped moving: the view that follows the leaf glides for up to 250 ms after an
 * answer, and a click that lands while a node moves under the pointer reaches the pane instead.
 * Settled means the viewport's transform held still over three frames spaced 100 ms apart.
 */
export async function waitGraphSettled(page: Page): Promise<void> {
  const viewport = page.locator('.react-flow__viewport');
  if ((await viewport.count()) === 0 || !(await viewport.first().isVisible())) return;
  let last = '';
  let still = 0;
  await expect
    .poll(
      async () => {
        const now = (await viewport.first().getAttribute('style')) ?? '';
        still = now === last ? still + 1 : 0;
        last = now;
        return still;
      },
      { intervals: [100] },
    )
    .toBeGreaterThanOrEqual(2);
}

export async function entryIdOf(locator: Locator): Promise<string> {
  const id = await locator.getAttribute('data-entry-id');
  if (!id) throw new Error('no data-entry-id');
  return id;
}

/**
 * Sends `first` and `left`, then edits `left` from its node in the tree into `leaf` and sends that:
 * two branches after the first answer, `left`'s left behind and `leaf`'s the session's leaf. The
 * nodes of `left` are found by its first word. Answers the id of `left`'s answer.
 */
export async function sendTwoBranches(
  page: Page,
  first: string,
  left: string,
  leaf: string,
): Promise<string> {
  const word = left.split(' ')[0]!;
  await sendPrompt(page, first);
  await sendPrompt(page, left);
  const leftAnswer = await entryIdOf(treeNode(page, 'assistant', word));
  await treeNode(page, 'user', word).click();
  await expect(editor(page)).toHaveValue(left);
  await editor(page).fill(leaf);
  await sendPrompt(page, leaf);
  return leftAnswer;
}

/** Fits the whole tree in view, so a branch left behind is in sight. */
export async function showWholeTree(page: Page): Promise<void> {
  await waitGraphSettled(page);
  await page.getByRole('button', { name: 'Fit all' }).click();
  await waitGraphSettled(page);
}

/** Opens a node's menu with the "⋯" button its hover shows. */
export async function nodeMenu(node: Locator): Promise<Locator> {
  await node.hover();
  const role = await node.getAttribute('data-role');
  await node
    .locator('xpath=..')
    .getByRole('button', { name: `Actions for ${role} node` })
    .click();
  const menu = node.page().getByRole('menu', { name: `Actions for ${role} node` });
  await expect(menu).toBeVisible();
  return menu;
}

/** Reads the branch of a node from its menu. */
export async function readThisBranch(node: Locator): Promise<void> {
  const menu = await nodeMenu(node);
  await menu.getByRole('menuitem', { name: 'Read this branch' }).click();
}

/** Models the e2e server offers, as `pickModel` finds them. */
export const DEMO_MODEL = { provider: 'arbor', name: 'Arbor demo model', typed: 'demo' };
export const GPT_4O = { provider: 'openai', name: 'GPT-4o', typed: 'gpt-4o' };

/** The model combobox. */
export function modelPicker(page: Page): Locator {
  return page.getByRole('combobox', { name: 'Model' });
}

/**
 * Picks a model as a person does: types into the Model combobox and clicks the option named
 * `name` of its provider (in the provider's group, or in "Recent" when it was chosen lately).
 */
export async function pickModel(
  page: Page,
  model: { provider: string; name: string; typed: string },
): Promise<void> {
  const box = modelPicker(page);
  await box.click();
  await box.fill(model.typed);
  await page
    .getByRole('listbox')
    .getByRole('option', { name: model.name, exact: true })
    .filter({ hasText: `${model.provider}/` })
    .first()
    .click();
  await expect(box).toHaveValue(`${model.name} · ${model.provider}`);
}

/** Opens the session menu ("Session actions") and answers its item named `name`. */
export async function sessionMenuItem(page: Page, name: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Session actions' }).click();
  return page.getByRole('menu').getByRole('menuitem', { name, exact: true });
}

/** Does what the session menu's item `name` does ("Fork", "Statistics", "Share…", …). */
export async function sessionAction(page: Page, name: string): Promise<void> {
  await (await sessionMenuItem(page, name)).click();
}

/** Compacts the session through "Compact…", with `focus` for the summary when given. */
export async function compact(page: Page, focus?: string): Promise<void> {
  await sessionAction(page, 'Compact…');
  const dialog = page.getByRole('dialog', { name: 'Compact the conversation' });
  if (focus) await dialog.getByRole('textbox', { name: 'Compaction focus (optional)' }).fill(focus);
  await dialog.getByRole('button', { name: 'Compact' }).click();
}

/**
 * The pictures' session: a plan, a tool call and a question, then that question edited into a
 * second branch (four prompts in the graph).
 */
export async function gardenWithBranch(page: Page): Promise<void> {
  await sendPrompt(page, 'Sketch a plan for a small vegetable garden');
  await sendPrompt(page, '/tool ls {"path":"."}');
  await sendPrompt(page, 'Which plants grow well together?');
  await treeNode(page, 'user', 'Which plants').click();
  await expect(editor(page)).toHaveValue('Which plants grow well together?');
  await editor(page).fill('Which herbs grow well next to tomatoes?');
  await editor(page).press('Enter');
  await expect(treeNodes(page, 'user')).toHaveCount(4);
}
