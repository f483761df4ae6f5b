import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain script of the repository, without types
import { generatedModule, TARGET } from '../../scripts/build-wasm.mjs';

describe('the committed WebAssembly line scan', () => {
  it('is the build of its AssemblyScript source (npm run build:wasm)', async () => {
    const built = (await generatedModule()) as string;
    expect(fs.readFileSync(TARGET as string, 'utf8')).toBe(built);
  }, 60_000);
});
