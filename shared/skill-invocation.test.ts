import { describe, expect, it } from 'vitest';
import { skillBlock, skillInvocation } from './skill-invocation.js';

describe('a skill invocation', () => {
  const skill = {
    name: 'release-notes',
    filePath: '/srv/team/.pi/skills/release-notes/SKILL.md',
    baseDir: '/srv/team/.pi/skills/release-notes',
    body: 'Write the notes.\n\nUse <b>plain</b> words.',
  };

  it('reads back what the server writes: the name, the instructions and the arguments', () => {
    expect(skillInvocation(skillBlock({ ...skill, args: 'for 2.0\nand 2.1' }))).toEqual({
      name: 'release-notes',
      instructions: 'Write the notes.\n\nUse <b>plain</b> words.',
      args: 'for 2.0\nand 2.1',
    });
    expect(skillInvocation(skillBlock({ ...skill, args: '' }))?.args).toBe('');
  });

  it('leaves any other prompt alone', () => {
    for (const text of [
      'hello',
      '<skill name="x">no location</skill>',
      `say ${skillBlock({ ...skill, args: '' })}`,
    ])
      expect(skillInvocation(text)).toBeNull();
  });
});
