import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LazyMarkdown } from './LazyMarkdown';
import { Markdown } from './Markdown';
import { isPageOriginImage } from './markdown-images';

describe('markdown images', () => {
  it('draws an image only from the page origin', () => {
    const page = 'http://127.0.0.1:7478';
    expect(isPageOriginImage('/logo.png', page)).toBe(true);
    expect(isPageOriginImage('http://127.0.0.1:7478/a.png', page)).toBe(true);
    expect(isPageOriginImage('http://127.0.0.1:9999/leak', page)).toBe(false);
    expect(isPageOriginImage('//evil.test/leak', page)).toBe(false);
    expect(isPageOriginImage('https://evil.test/?d=secret', page)).toBe(false);
    expect(isPageOriginImage('/a.png', undefined)).toBe(false);
  });

  it('shows an image from another host as a link, with no <img>', () => {
    const html = renderToStaticMarkup(
      <Markdown text={'look ![the secret](https://evil.test/?d=secret) here'} />,
    );
    expect(html).not.toContain('<img');
    expect(html).toContain('href="https://evil.test/?d=secret"');
    expect(html).toContain('Image: the secret');
  });
});

describe('long runs in markdown', () => {
  it('puts a long run of text without spaces in a span of its own, and leaves code blocks be', () => {
    const run = 'B'.repeat(500);
    const html = renderToStaticMarkup(
      <Markdown text={`a **${run}** b\n\n\`\`\`\n${run}\n\`\`\`\n`} />,
    );
    expect(html).toContain(`<strong><span class="long-run">${run}</span></strong>`);
    expect(html).toContain(`<code>${run}\n</code>`);
  });
});

describe('text past the markdown limit', () => {
  it('is shown plain, every character kept, without parsing a hostile run of marks', () => {
    const text = `${'*a'.repeat(20_000)}!`;
    const html = renderToStaticMarkup(<LazyMarkdown text={text} />);
    expect(html).toContain('Shown as plain text: longer than 20,000 characters.');
    expect(html).not.toContain('<em>');
    expect(html.replace(/<[^>]*>/g, '')).toContain(text);
  });
});
