import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionInfoOf } from './session-listing.js';
import { PI16_FIXTURES, PI16_NODE, readWithPi16 } from './test-support/pi16-oracle.js';

/*
 * The pi 1.6 oracle itself: pi 1.6.0 runs under the Node 22 of the devDependencies and reads the
 * files the real pi 1.6 wrote, and Arbor's listing agrees with it on who each session is.
 */

const fixtures = fs.readdirSync(PI16_FIXTURES).filter((name) => name.endsWith('.jsonl'));

describe('the pi 1.6 oracle', () => {
  it('runs under a Node that pi 1.6 accepts (>= 22.19)', () => {
    const [major, minor] = execFileSync(PI16_NODE, ['--version'], { encoding: 'utf8' })
      .trim()
      .slice(1)
      .split('.')
      .map(Number);
    expect(major! > 22 || (major === 22 && minor! >= 19)).toBe(true);
  });

  it('has the pi 1.6 fixtures in the repo', () => {
    expect(fixtures.sort()).toEqual(['print-tools.jsonl', 'rpc-root.jsonl']);
  });

  it.each(fixtures)('%s: pi 1.6 reads every entry, and the file stays as it was', async (name) => {
    const file = path.join(PI16_FIXTURES, name);
    const before = fs.readFileSync(file);
    const lines = before.toString('utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0]!) as { id: string };
    const ids = lines.slice(1).map((line) => (JSON.parse(line) as { id: string }).id);

    const pi = await readWithPi16(file);

    expect(pi.sessionId).toBe(header.id);
    expect((await sessionInfoOf(file))?.id).toBe(pi.sessionId);
    expect(pi.entryIds).toEqual(ids);
    expect(pi.leafId).toBe(ids.at(-1));
    expect(Object.keys(pi.byEntry)).toEqual(ids);
    expect(pi.byEntry[pi.leafId!]).toEqual(pi.context);
    // pi 1.6 records its prompt as a system message, first in the context, and the demo model.
    expect(pi.context.messages[0].role).toBe('system');
    expect(pi.context.model).toEqual({ provider: 'arbor', modelId: 'arbor-demo' });
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });
});
