import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// The page lives in web/; vitest runs from the repository root so that server, shared and web
// tests are found alike, and e2e/ is left to Playwright.
export default defineConfig({
  root: 'web',
  plugins: [react()],
  build: { outDir: '../dist/web', emptyOutDir: true },
  server: { proxy: { '/api': { target: 'http://127.0.0.1:7478', ws: true } } },
  test: {
    root: '.',
    include: [
      'server/**/*.test.ts',
      'shared/**/*.test.ts',
      'web/**/*.test.{ts,tsx}',
      'bin/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
