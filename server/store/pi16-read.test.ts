import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { craftWithPi16, PI16_FIXTURES } from './test-support/pi16-oracle.js';
import { useTempDirs } from './test-support/temp-dir.js';
import { expectSameAsPi16 } from './test-support/pi16-compare.js';

const fixtures = fs.readdirSync(PI16_FIXTURES).filter((name) => name.endsWith('.jsonl'));

describe('files the real pi 1.6 wrote', () => {
  it.each(fixtures)('%s: Arbor reads every entry as pi 1.6 does', async (name) => {
    const { compared } = await expectSameAsPi16(path.join(PI16_FIXTURES, name));
    expect(compared).toBeGreaterThan(10);
  });
});

describe('files with every entry kind pi 1.6 appends', () => {
  const tempDir = useTempDirs();

  it('system patches, usage, context edits, deferred, checkpoints and keep-none compactions read as in pi 1.6', async () => {
    const dir = tempDir();
    const file = await craftWithPi16(dir, dir);
    const { pi, compared } = await expectSameAsPi16(file);
    expect(compared).toBeGreaterThan(40);
    // The file holds what the comparison is about.
    const types = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; message?: { role: string } });
    expect(types.filter((e) => e.message?.role === 'system').length).toBe(3);
    expect(types.filter((e) => e.type === 'context_edit').length).toBe(8);
    expect(types.filter((e) => e.type === 'usage').length).toBe(2);
    expect(pi.context.thinkingLevel).toBe('xhigh');
  });
});
