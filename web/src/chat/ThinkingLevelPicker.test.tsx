import type { ChangeEvent, ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { thinkingLevelChoices, ThinkingLevelPicker } from './ThinkingLevelPicker';

const noop = (): void => undefined;

describe('ThinkingLevelPicker', () => {
  it('offers pi’s levels in order, and an unknown current level as well', () => {
    expect(thinkingLevelChoices('medium').map((c) => c.value)).toEqual([
      'off',
      'minimal',
      'low',
      'medium',
      'high',
      'xhigh',
      'max',
    ]);
    expect(thinkingLevelChoices('turbo').map((c) => c.value)).toContain('turbo');
  });

  it('offers only the levels the model supports when the server names them', () => {
    const levels = ['minimal', 'low', 'medium', 'high'];
    expect(thinkingLevelChoices('low', levels).map((c) => c.value)).toEqual(levels);
    expect(thinkingLevelChoices('off', ['off']).map((c) => c.value)).toEqual(['off']);
    const html = renderToStaticMarkup(
      <ThinkingLevelPicker level="high" reasons levels={levels} canWrite onLevel={noop} />,
    );
    expect(html).not.toContain('value="off"');
    expect(html).not.toContain('value="xhigh"');
  });

  it('is a select labelled "Thinking level" showing the level the state reports', () => {
    const html = renderToStaticMarkup(
      <ThinkingLevelPicker level="high" reasons canWrite onLevel={noop} />,
    );
    expect(html).toMatch(/^<select aria-label="Thinking level"/);
    expect(html).not.toContain('disabled');
    expect(html).toContain('<option value="high" selected="">High</option>');
  });

  it('is read-only for a viewer and before the session is open', () => {
    const viewer = renderToStaticMarkup(
      <ThinkingLevelPicker level="low" reasons canWrite={false} onLevel={noop} />,
    );
    expect(viewer).toContain('disabled');
    const opening = renderToStaticMarkup(
      <ThinkingLevelPicker level={null} reasons={undefined} canWrite onLevel={noop} />,
    );
    expect(opening).toContain('disabled');
  });

  it('says why the level stays off for a model that does not reason', () => {
    const html = renderToStaticMarkup(
      <ThinkingLevelPicker level="off" reasons={false} canWrite onLevel={noop} />,
    );
    expect(html).toContain('does not reason');
  });

  it('hands the chosen level to its owner', () => {
    const chosen: string[] = [];
    const render = (ThinkingLevelPicker as unknown as { type: (props: object) => ReactElement })
      .type;
    const select = render({
      level: 'off',
      reasons: true,
      canWrite: true,
      onLevel: (level: string) => chosen.push(level),
    }) as ReactElement<{ onChange(event: ChangeEvent<HTMLSelectElement>): void }>;
    select.props.onChange({ target: { value: 'xhigh' } } as ChangeEvent<HTMLSelectElement>);
    expect(chosen).toEqual(['xhigh']);
  });
});
