import fs from 'node:fs';
import { test as base, expect, type Page, type BrowserContext } from '@playwright/test';
import { startArbor, type ArborServer } from './arbor-server.js';

/*
 * Every test gets its own server (fresh data dir and workspace) and fails on any console error or
 * uncaught page error, in every page it opened.
 */

interface Fixtures {
  arbor: ArborServer;
  consoleErrors: string[];
}

export function watchConsole(page: Page, errors: string[]): void {
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
}

export function watchContext(context: BrowserContext, errors: string[]): void {
  for (const page of context.pages()) watchConsole(page, errors);
  context.on('page', (page) => watchConsole(page, errors));
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern
  arbor: async ({}, use, testInfo) => {
    const server = await startArbor();
    try {
      await use(server);
    } finally {
      await server.stop();
      if (testInfo.status !== testInfo.expectedStatus)
        fs.writeFileSync(testInfo.outputPath('server.log'), server.log());
    }
  },
  consoleErrors: [
    // Depends on `arbor` so that it is torn down first: pages close before the server stops, and a
    // reconnect to a stopped server is not mistaken for a page error.
    async ({ context, arbor }, use) => {
      void arbor;
      const errors: string[] = [];
      watchContext(context, errors);
      await use(errors);
      const seen = [...errors];
      for (const page of context.pages()) await page.close();
      expect(seen, 'the page logged errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
