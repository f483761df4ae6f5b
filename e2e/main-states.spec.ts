import { AxeBuilder } from '@axe-core/playwright';
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './support/fixtures.js';
import {
  gardenWithBranch,
  modelPicker,
  nodeMenu,
  openArbor,
  treeNode,
} from './support/page-helpers.js';

/*
 * The page's main states in both themes at a phone's, a laptop's and a large screen's size:
 * each is photographed into `screenshots/` (gitignored, never emptied by a test run, for review)
 * and checked by axe-core, which must find no serious or critical violation in any.
 */

const SHOTS = path.resolve(import.meta.dirname, '..', 'screenshots');
const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'laptop', width: 1440, height: 900 },
  { name: 'large', width: 2560, height: 1440 },
] as const;
type Size = (typeof SIZES)[number];

for (const theme of ['light', 'dark'] as const) {
  test(`the main states in the ${theme} theme: photographed at three sizes, no serious axe finding`, async ({
    page,
    arbor,
  }) => {
    test.setTimeout(180_000);
    fs.mkdirSync(SHOTS, { recursive: true });
    const findings: string[] = [];
    const look = async (state: string, size: Size) => {
      await page.screenshot({ path: path.join(SHOTS, `${state}-${theme}-${size.name}.png`) });
      let axe = new AxeBuilder({ page });
      // While its listbox is open, React Aria's combobox hides the rest of the page from screen
      // readers (useComboBox's ariaHideOutside, for mobile readers); Tab closes the listbox before
      // focus leaves the field, so nothing hidden can take focus: axe cannot know that.
      if (state === 'model-picker') axe = axe.disableRules(['aria-hidden-focus']);
      const result = await axe.analyze();
      // Nothing wider than the screen: no sideways scrolling at any size.
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      if (wide > size.width) findings.push(`${state} ${size.name}: the page is ${wide} px wide`);
      for (const violation of result.violations) {
        if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
        const where = violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(', ');
        findings.push(`${state} ${size.name}: ${violation.id} (${where})`);
      }
    };
    const atEachSize = async (
      state: string,
      show: (size: Size) => Promise<void>,
      hide?: () => Promise<void>,
    ) => {
      for (const size of SIZES) {
        await page.setViewportSize({ width: size.width, height: size.height });
        await show(size);
        await look(state, size);
        await hide?.();
      }
    };
    const phoneTab = async (size: Size, tab: 'Chat' | 'Tree') => {
      if (size.name === 'phone') await page.getByRole('button', { name: tab, exact: true }).click();
    };

    await page.emulateMedia({ colorScheme: theme });
    await openArbor(page, arbor.url);
    await atEachSize('first-run', async (size) => phoneTab(size, 'Chat'));

    await gardenWithBranch(page);

    await atEachSize('session-chat', async (size) => phoneTab(size, 'Chat'));
    await atEachSize('session-tree', async (size) => {
      await phoneTab(size, 'Tree');
      await page.getByRole('button', { name: 'Fit all' }).click();
    });
    await atEachSize(
      'model-picker',
      async (size) => {
        await phoneTab(size, 'Chat');
        await page.getByRole('button', { name: 'Show models' }).click();
        await expect(page.getByRole('listbox')).toBeVisible();
      },
      async () => {
        await page.keyboard.press('Escape');
        await modelPicker(page).blur();
      },
    );
    await atEachSize(
      'command-palette',
      async (size) => {
        await phoneTab(size, 'Chat');
        await page.keyboard.press('Control+k');
        await page.getByLabel('Search commands').fill('the');
      },
      async () => page.keyboard.press('Escape'),
    );
    await atEachSize(
      'node-menu',
      async (size) => {
        await phoneTab(size, 'Tree');
        await page.getByRole('button', { name: 'Fit all' }).click();
        await nodeMenu(treeNode(page, 'user', 'Sketch a plan'));
      },
      async () => page.keyboard.press('Escape'),
    );
    await atEachSize(
      'settings',
      async () => {
        await page.getByRole('button', { name: 'Settings', exact: true }).click();
        await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible();
      },
      async () => page.getByRole('button', { name: 'Close' }).click(),
    );
    expect(findings).toEqual([]);
  });
}
