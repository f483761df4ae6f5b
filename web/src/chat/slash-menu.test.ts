import { describe, expect, it } from 'vitest';
import type { WorkspaceResources } from '../../../shared/resources';
import {
  applySlashChoice,
  filterSlashItems,
  movedIndex,
  slashItems,
  slashQuery,
  type SlashItem,
} from './slash-menu';

const RESOURCES: WorkspaceResources = {
  loaded: true,
  contextFiles: [],
  templates: [
    {
      name: 'review',
      description: 'Review the staged changes',
      argumentHint: '<focus>',
      path: '/w/.pi/prompts/review.md',
      scope: 'project',
    },
    {
      name: 'explain',
      description: 'Explain a file',
      path: '/u/prompts/explain.md',
      scope: 'user',
    },
  ],
  skills: [
    {
      name: 'code-review',
      description: 'Careful code review',
      path: '/w/.pi/skills/code-review/SKILL.md',
      scope: 'project',
      modelInvocable: true,
    },
    {
      name: 'pdf',
      description: 'Read PDF files',
      path: '/w/.pi/skills/pdf/SKILL.md',
      scope: 'project',
      modelInvocable: false,
    },
  ],
  warnings: [],
};

const commands = (items: SlashItem[]) => items.map((item) => item.command);

describe('slashQuery', () => {
  it('is the name after a leading slash while the caret is in it', () => {
    expect(slashQuery('/', 1)).toBe('');
    expect(slashQuery('/rev', 4)).toBe('rev');
    expect(slashQuery('/rev', 2)).toBe('rev');
  });

  it('is null once arguments are typed, the caret left the name, or the slash is not first', () => {
    expect(slashQuery('/review src', 11)).toBeNull();
    expect(slashQuery('/review\nmore', 12)).toBeNull();
    expect(slashQuery('/rev', 0)).toBeNull();
    expect(slashQuery('look at /tmp', 12)).toBeNull();
    expect(slashQuery(' /rev', 5)).toBeNull();
    expect(slashQuery('', 0)).toBeNull();
  });
});

describe('slashItems', () => {
  it('offers the templates by name, then every skill as skill:name', () => {
    const items = slashItems(RESOURCES);
    expect(commands(items)).toEqual(['review', 'explain', 'skill:code-review', 'skill:pdf']);
    expect(items[0]).toEqual({
      command: 'review',
      kind: 'template',
      description: 'Review the staged changes',
      argumentHint: '<focus>',
    });
    expect(items[1]).not.toHaveProperty('argumentHint');
  });

  it('offers nothing while the resources are unknown or switched off', () => {
    expect(slashItems(null)).toEqual([]);
    expect(
      slashItems({ ...RESOURCES, loaded: false, reason: 'Switched off by the workspace setting' }),
    ).toEqual([]);
  });
});

describe('filterSlashItems', () => {
  const items = slashItems(RESOURCES);

  it('offers everything for a bare slash, in order', () => {
    expect(commands(filterSlashItems(items, ''))).toEqual(commands(items));
  });

  it('finds a skill by its bare name, best match first', () => {
    expect(commands(filterSlashItems(items, 'rev'))).toEqual(['review', 'skill:code-review']);
    expect(commands(filterSlashItems(items, 'pdf'))).toEqual(['skill:pdf']);
  });

  it('ranks a skill by its bare name: /pdf puts skill:pdf before the template pdf-tools', () => {
    const both: SlashItem[] = [
      { command: 'pdf-tools', kind: 'template', description: '' },
      { command: 'skill:pdf', kind: 'skill', description: '' },
    ];
    expect(commands(filterSlashItems(both, 'pdf'))).toEqual(['skill:pdf', 'pdf-tools']);
  });

  it('finds skills by their full name after the bare-name matches', () => {
    expect(commands(filterSlashItems(items, 'skill:'))).toEqual(['skill:code-review', 'skill:pdf']);
    expect(commands(filterSlashItems(items, 'sk'))).toEqual(['skill:code-review', 'skill:pdf']);
  });

  it('offers nothing when nothing matches', () => {
    expect(filterSlashItems(items, 'tool')).toEqual([]);
  });
});

describe('applySlashChoice', () => {
  const review = slashItems(RESOURCES)[0]!;
  const skill = slashItems(RESOURCES)[2]!;

  it('replaces the typed name with /name and a space, the caret after it', () => {
    expect(applySlashChoice('/rev', review)).toEqual({ text: '/review ', caret: 8 });
    expect(applySlashChoice('/', skill)).toEqual({
      text: '/skill:code-review ',
      caret: 19,
    });
  });

  it('keeps what was typed after the name', () => {
    expect(applySlashChoice('/re src/app.ts', review)).toEqual({
      text: '/review src/app.ts',
      caret: 8,
    });
    expect(applySlashChoice('/re\nsecond line', review).text).toBe('/review \nsecond line');
  });
});

describe('movedIndex', () => {
  it('moves down and up, wrapping around the ends', () => {
    expect(movedIndex(0, 3, 'ArrowDown')).toBe(1);
    expect(movedIndex(2, 3, 'ArrowDown')).toBe(0);
    expect(movedIndex(0, 3, 'ArrowUp')).toBe(2);
  });

  it('jumps by five with the Page keys, stopping at the ends', () => {
    expect(movedIndex(0, 12, 'PageDown')).toBe(5);
    expect(movedIndex(9, 12, 'PageDown')).toBe(11);
    expect(movedIndex(3, 12, 'PageUp')).toBe(0);
  });
});
