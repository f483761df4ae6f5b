import { test, expect } from './support/fixtures.js';
import { editor, openArbor, sendPrompt, treeNode } from './support/page-helpers.js';
import type { Locator, Page } from '@playwright/test';

/* A phone: 390 × 844, a finger (decision 072). */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

/** Every visible control under `area` is at least 44 × 44 px, the size of a fingertip. */
async function expectTouchTargets(area: Locator): Promise<void> {
  const controls = area.locator('button, select, input');
  const count = await controls.count();
  let measured = 0;
  for (let i = 0; i < count; i++) {
    const control = controls.nth(i);
    if (!(await control.isVisible())) continue;
    const box = await control.boundingBox();
    const name = (await control.getAttribute('aria-label')) ?? (await control.innerText());
    expect(box, name).not.toBeNull();
    expect(box!.height, `height of "${name}"`).toBeGreaterThanOrEqual(44);
    expect(box!.width, `width of "${name}"`).toBeGreaterThanOrEqual(44);
    measured++;
  }
  expect(measured, 'controls measured').toBeGreaterThan(0);
}

function panelTab(page: Page, name: string): Locator {
  return page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name });
}

test('on a phone every button of the top bar, the chat toolbar, the editor and the tree toolbar is a 44 px target', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'a prompt on a phone');
  await expectTouchTargets(page.locator('.topbar'));
  await expectTouchTargets(page.locator('.chat-toolbar'));
  await expectTouchTargets(page.locator('.editor'));
  await panelTab(page, 'Tree').tap();
  await expectTouchTargets(page.locator('.tree-toolbar'));
});

test('tapping a prompt in the Tree tab brings up the Chat tab with the prompt in the focused editor', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'edit me on a phone');
  await panelTab(page, 'Tree').tap();
  await expect(editor(page)).toBeHidden();
  await treeNode(page, 'user', 'edit me on a phone').tap();

  await expect(panelTab(page, 'Chat')).toHaveAttribute('aria-pressed', 'true');
  await expect(editor(page)).toBeVisible();
  await expect(editor(page)).toBeFocused();
  await expect(editor(page)).toHaveValue('edit me on a phone');
  // Typing goes on at the end of the prompt.
  await page.keyboard.type(', again');
  await expect(editor(page)).toHaveValue('edit me on a phone, again');
});
