import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './support/fixtures.js';
import { makeTempDirs, startArbor } from './support/arbor-server.js';
import {
  DEMO_MODEL,
  GPT_4O,
  leafNode,
  modelPicker,
  openArbor,
  pickModel,
  sendPrompt,
  sessionTree,
  treeNode,
  treeNodes,
} from './support/page-helpers.js';

test('model and thinking changes tried before a prompt become one mark on it, which opens to show them', async ({
  page,
  arbor,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'first question');
  const thinking = page.getByRole('combobox', { name: 'Thinking level' });
  const tree = sessionTree(page);
  // A new session may open with its first settings already recorded: count the chips before.
  const chips = tree.locator('.node-settings-chip');
  const before = await chips.count();

  await pickModel(page, GPT_4O);
  await pickModel(page, { provider: 'openai', name: 'GPT-5 Mini', typed: 'gpt-5-mini' });
  await thinking.selectOption('high');
  await expect(thinking).toHaveValue('high');
  await thinking.selectOption('low');
  await expect(thinking).toHaveValue('low');
  await pickModel(page, DEMO_MODEL);
  // Before the next prompt, the changes are one small mark at the leaf.
  await expect(tree.locator('[data-role="settings"][aria-current="true"]')).toHaveCount(1);
  await expect(treeNodes(page, 'model_change')).toHaveCount(0);

  await sendPrompt(page, 'second question');
  await expect(treeNodes(page, 'model_change')).toHaveCount(0);
  await expect(treeNodes(page, 'thinking_level_change')).toHaveCount(0);
  await expect(treeNodes(page, 'settings')).toHaveCount(0);
  // One chip, on the prompt that followed the changes.
  const prompt = page.locator('[data-role="user"][aria-label*="second question"]');
  const chip = tree.locator('.react-flow__node', { has: prompt }).locator('.node-settings-chip');
  await expect(chips).toHaveCount(before + 1);
  await expect(chip).toHaveCount(1);
  await expect(chip).toHaveAccessibleName(/model openai\/gpt-4o.*thinking high.*thinking low/);

  // The chip opens into the changes, each a node to continue from.
  await chip.click();
  // Nodes outside the view are not in the document: show the whole graph.
  await page.getByRole('button', { name: 'Fit all' }).click();
  await expect(treeNodes(page, 'model_change')).toHaveCount(3);
  await expect(treeNodes(page, 'thinking_level_change')).not.toHaveCount(0);
  await expect(chips).toHaveCount(before);
  await treeNode(page, 'model_change', 'openai/gpt-5-mini').click();
  await expect(leafNode(page)).toHaveAttribute('data-role', 'model_change');
  await expect(leafNode(page)).toHaveAttribute('aria-label', /gpt-5-mini/);
  // The opened run stays open around the new leaf.
  await expect(treeNodes(page, 'model_change')).toHaveCount(3);
});

test('the model picker says which models have no API key, with the reason, before sending', async ({
  page,
}) => {
  const dirs = makeTempDirs();
  fs.writeFileSync(
    path.join(dirs.dataDir, 'models.json'),
    JSON.stringify({
      models: [
        {
          id: 'local-keyless',
          name: 'Local keyless',
          provider: 'local',
          baseUrl: 'http://127.0.0.1:9/v1',
          contextWindow: 8192,
          maxOutputTokens: 1024,
          apiKeyEnv: 'LOCAL_KEYLESS_KEY',
        },
        {
          id: 'local-keyed',
          name: 'Local keyed',
          provider: 'local',
          baseUrl: 'http://127.0.0.1:9/v1',
          contextWindow: 8192,
          maxOutputTokens: 1024,
          apiKey: 'a-key',
        },
      ],
    }),
  );
  const arbor = await startArbor(dirs, { OPENAI_API_KEY: '', LOCAL_KEYLESS_KEY: '' });
  try {
    await openArbor(page, arbor.url);
    await modelPicker(page).click();
    const local = page.getByRole('listbox').getByRole('group', { name: 'local', exact: true });
    await expect(local.getByRole('option', { name: 'Local keyless', exact: true })).toContainText(
      'local/local-keyless · 8k context · no key',
    );
    await expect(local.getByRole('option', { name: 'Local keyed', exact: true })).not.toContainText(
      'no key',
    );
    await expect(page.getByRole('option', { name: 'Arbor demo model' })).not.toContainText(
      'no key',
    );
    await expect(page.getByRole('note').filter({ hasText: 'no key' })).toHaveCount(0);

    // Picking it is allowed, and the picker keeps saying so beside it, with the reason.
    await pickModel(page, { provider: 'local', name: 'Local keyless', typed: 'keyless' });
    const note = page.getByRole('note').filter({ hasText: 'no key' });
    await expect(note).toBeVisible();
    await expect(note).toHaveAttribute(
      'title',
      'No API key: set LOCAL_KEYLESS_KEY or add "apiKey" to models.json',
    );
  } finally {
    await page.close();
    await arbor.stop();
  }
});
