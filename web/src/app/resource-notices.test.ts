import { describe, expect, it } from 'vitest';
import { resourceWarningsNotice, warningsKey } from './resource-notices';

const warning = (n: number) => ({
  path: `/w/.pi/skills/s${n}/SKILL.md`,
  message: 'the frontmatter is not valid YAML',
});

describe('resourceWarningsNotice', () => {
  it('says nothing when every file loaded', () => {
    expect(resourceWarningsNotice([])).toBeNull();
  });

  it('names the one file and its problem', () => {
    expect(resourceWarningsNotice([warning(1)])).toBe(
      "One workspace file was skipped or read with a problem: /w/.pi/skills/s1/SKILL.md: the frontmatter is not valid YAML. The system prompt's node lists them all.",
    );
  });

  it('ends a message that has its own period with one period, not two', () => {
    expect(
      resourceWarningsNotice([{ path: '/w', message: 'Not loaded (arbor workspace trust /w).' }]),
    ).toBe(
      "One workspace file was skipped or read with a problem: /w: Not loaded (arbor workspace trust /w). The system prompt's node lists them all.",
    );
  });

  it('names the first three of many and counts the rest', () => {
    const text = resourceWarningsNotice([1, 2, 3, 4, 5].map(warning))!;
    expect(text).toMatch(/^5 workspace files were skipped/);
    expect(text).toContain('s3/SKILL.md');
    expect(text).not.toContain('s4/SKILL.md');
    expect(text).toContain('(and 2 more)');
  });
});

describe('warningsKey', () => {
  it('is the same for the same warnings and differs when one changes', () => {
    expect(warningsKey([warning(1)])).toBe(warningsKey([warning(1)]));
    expect(warningsKey([warning(1)])).not.toBe(warningsKey([warning(2)]));
  });
});
