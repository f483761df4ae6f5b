import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SlashMenu } from './SlashMenu';
import type { SlashMenuState } from './use-slash-menu';

function menu(overrides: Partial<SlashMenuState>): SlashMenuState {
  return {
    typing: true,
    open: true,
    options: [],
    activeIndex: 0,
    listId: 'm',
    optionId: (index) => `m-${index}`,
    choose: () => undefined,
    ariaProps: { 'aria-autocomplete': 'list', 'aria-haspopup': 'listbox' },
    onKeyDown: () => false,
    onCaret: () => undefined,
    ...overrides,
  };
}

describe('SlashMenu', () => {
  it('is a named listbox whose highlighted option is selected', () => {
    const html = renderToStaticMarkup(
      <SlashMenu
        menu={menu({
          options: [
            { command: 'review', kind: 'template', description: 'Review', argumentHint: '<f>' },
            { command: 'skill:pdf', kind: 'skill', description: 'PDFs' },
          ],
          activeIndex: 1,
        })}
        offReason={null}
      />,
    );
    expect(html).toContain('role="listbox" aria-label="Prompt templates and skills"');
    expect(html).toMatch(/id="m-0" role="option" aria-selected="false"/);
    expect(html).toMatch(/id="m-1" role="option" aria-selected="true"/);
    expect(html).toContain('2 matches');
  });

  it("draws a hostile template's name and description as text", () => {
    const html = renderToStaticMarkup(
      <SlashMenu
        menu={menu({
          options: [
            {
              command: '<img src=x onerror=alert(1)>',
              kind: 'template',
              description: '<script>alert(2)</script>',
              argumentHint: '<b>hint</b>',
            },
          ],
        })}
        offReason={null}
      />,
    );
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('says why nothing is offered where the list would be, while a name is typed', () => {
    const off = 'Prompt templates and skills are not loaded: switched off.';
    const html = renderToStaticMarkup(<SlashMenu menu={menu({ open: false })} offReason={off} />);
    expect(html).toContain(off);
    expect(html).not.toContain('role="listbox"');
    expect(
      renderToStaticMarkup(
        <SlashMenu menu={menu({ open: false, typing: false })} offReason={off} />,
      ),
    ).not.toContain(off);
  });
});
