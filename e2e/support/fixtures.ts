import fs from 'node:fs';
import {
  test as base,
  expect,
  type Browser,
  type BrowserContext,
  type Page,
  type TestInfo,
} from '@playwright/test';
import { addUser, makeTempDirs, startArbor, type ArborServer } from './arbor-server.js';

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

/**
 * Starts a server on `dirs`, hands it to `use`, and stops it after; when the test did not end as
 * expected, the server's output is kept beside the test's results as server.log.
 */
export async function serveDuring(
  testInfo: TestInfo,
  dirs: { dataDir: string; workspace: string },
  use: (server: ArborServer) => Promise<void>,
): Promise<void> {
  const server = await startArbor(dirs);
  try {
    await use(server);
  } finally {
    await server.stop();
    if (testInfo.status !== testInfo.expectedStatus)
      fs.writeFileSync(testInfo.outputPath('server.log'), server.log());
  }
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern
  arbor: async ({}, use, testInfo) => serveDuring(testInfo, makeTempDirs(), use),
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

type Role = 'admin' | 'member' | 'viewer';
/** Who holds each role in a team test: the same three people in every spec. */
const TEAM_NAMES: Record<Role, string> = { admin: 'ada', member: 'max', viewer: 'vic' };

/**
 * A test with a team server: one user for each of `roles` (ada the admin, max the member, vic the
 * viewer), added with the CLI before the server starts. `team` holds the server and each role's
 * login token. Pages are the test's own (see `logIn`), so no console check is made for it.
 */
export function teamTest<R extends Role>(...roles: R[]) {
  return base.extend<{ team: { server: ArborServer } & Record<R, string> }>({
    // eslint-disable-next-line no-empty-pattern
    team: async ({}, use, testInfo) => {
      const dirs = makeTempDirs();
      const tokens = Object.fromEntries(
        roles.map((role) => [role, addUser(dirs.dataDir, TEAM_NAMES[role], role)]),
      ) as Record<R, string>;
      await serveDuring(testInfo, dirs, (server) => use({ server, ...tokens }));
    },
  });
}

/**
 * Opens `url` in a browser context of its own and logs in there with `token`; the context's
 * console and page errors go to `errors` when it is given.
 */
export async function logIn(
  browser: Browser,
  url: string,
  token: string,
  errors?: string[],
): Promise<Page> {
  const context = await browser.newContext();
  if (errors) watchContext(context, errors);
  const page = await context.newPage();
  await page.goto(url);
  await submitToken(page, token);
  return page;
}

/** Types `token` into the login form and sends it. */
export async function submitToken(page: Page, token: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Token' }).fill(token);
  await page.getByRole('button', { name: 'Log in' }).click();
}

export { expect };
