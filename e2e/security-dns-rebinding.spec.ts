import config from '../playwright.config.js';
import { test, expect } from './support/fixtures.js';
import { chatMessages, openArbor, sendPrompt } from './support/page-helpers.js';

/*
 * DNS rebinding: a page at rebind.evil.test whose name the attacker makes resolve to 127.0.0.1.
 * Chromium is told so with --host-resolver-rules, so it sends that page's requests to the local
 * Arbor (which runs without login) with `Host: rebind.evil.test:PORT`, exactly as after a rebind.
 * That page must neither read the API nor open the WebSocket; Arbor opened by 127.0.0.1 still works.
 */

const launch = config.use?.launchOptions ?? {};
test.use({
  launchOptions: {
    ...launch,
    args: [...(launch.args ?? []), '--host-resolver-rules=MAP rebind.evil.test 127.0.0.1'],
  },
});

test('a page at a rebound host name can neither read the API nor open the WebSocket', async ({
  browser,
  page,
  arbor,
}) => {
  const port = new URL(arbor.url).port;
  // The attacker's page lives in a context of its own: its refused loads are expected errors.
  const attacker = await browser.newContext();
  try {
    const evil = await attacker.newPage();
    const response = await evil.goto(`http://rebind.evil.test:${port}/`);
    expect(response?.status()).toBe(421);
    await expect(evil.getByRole('heading')).toHaveText('Arbor does not answer to this host name');
    await expect(evil.locator('body')).toContainText('allowedOrigins');

    // What the attacker's script would do once the name points at 127.0.0.1.
    const attempt = await evil.evaluate(async () => {
      const api = await fetch('/api/workspaces');
      const session = await fetch('/api/workspaces', { method: 'POST', body: '{}' });
      const socket = await new Promise<string>((resolve) => {
        const ws = new WebSocket(`ws://${location.host}/api/ws`);
        ws.onopen = () => resolve('open');
        ws.onclose = () => resolve('closed');
      });
      return { api: api.status, body: await api.text(), post: session.status, socket };
    });
    expect(attempt).toMatchObject({ api: 421, post: 421, socket: 'closed' });
    expect(attempt.body).not.toContain(arbor.workspace);
    expect(attempt.body).toContain('loopback name');
  } finally {
    await attacker.close();
  }

  // The same server, opened by its loopback address, works as ever: page, API and WebSocket.
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'still mine');
  await expect(chatMessages(page, 'assistant')).toHaveText([/You said: "still mine"/]);
  const own = await page.evaluate(async () => (await fetch('/api/workspaces')).status);
  expect(own).toBe(200);
});
