import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e',
  timeout: 90_000,
  // The demo model answers in well under a second, but CI machines and shared 2-core hosts can be
  // slow: assertions wait up to 15 s before failing.
  expect: { timeout: 15_000 },
  workers: 1,
  // A focused test left in a commit would silently skip the rest of the suite.
  forbidOnly: true,
  reporter: [['list']],
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
