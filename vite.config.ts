import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import optimizeLocales from '@react-aria/optimize-locales-plugin';

// The page lives in web/; vitest runs from the repository root so that server, shared and web
// tests are found alike, and e2e/ is left to Playwright.
export default defineConfig({
  root: 'web',
  // React Aria ships its strings in ~34 languages; the page speaks English, so the others stay out
  // of the bundle (about 130 kB).
  plugins: [react(), optimizeLocales.vite({ locales: ['en-US'] })],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries in chunks of their own, which stay cached across releases of the page's code;
        // the markdown stack and the login page are loaded on demand (dynamic imports).
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            {
              name: 'react-aria',
              test: /node_modules[\\/](react-aria|react-stately|react-aria-components|@internationalized|@react-aria|@react-stately|@react-types|@swc)[\\/]/,
            },
            {
              name: 'react-flow',
              test: /node_modules[\\/](@xyflow|d3-[a-z-]+|zustand|classcat|use-sync-external-store)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': { target: 'http://127.0.0.1:7478', ws: true } } },
  test: {
    root: '.',
    include: [
      'server/**/*.test.ts',
      'shared/**/*.test.ts',
      'web/**/*.test.{ts,tsx}',
      'bin/**/*.test.ts',
    ],
    // A focused test (`.only`) left in a commit would silently skip the rest of the suite.
    allowOnly: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
