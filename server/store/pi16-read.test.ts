import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PI16_FIXTURES } from './test-support/pi16-oracle.js';
import { expectSameAsPi16 } from './test-support/pi16-compare.js';

const fixtures = fs.readdirSync(PI16_FIXTURES).filter((name) => name.endsWith('.jsonl'));

describe('files the real pi 1.6 wrote', () => {
  it.each(fixtures)('%s: Arbor reads every entry as pi 1.6 does', async (name) => {
    const { compared } = await expectSameAsPi16(path.join(PI16_FIXTURES, name));
    expect(compared).toBeGreaterThan(10);
  });
});
