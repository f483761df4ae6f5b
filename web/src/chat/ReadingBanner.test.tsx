import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ReadingBanner } from './ReadingBanner';

const noop = () => undefined;

describe('ReadingBanner', () => {
  it('offers the way back and "Continue here" to one who may act', () => {
    const html = renderToStaticMarkup(
      <ReadingBanner
        preview="bananas"
        onCurrentBranch={false}
        canWrite
        onBack={noop}
        onContinue={noop}
      />,
    );
    expect(html).toContain('Reading another branch');
    expect(html).toContain('Back to the current branch');
    expect(html).toContain('Continue here');
  });

  it('offers only the way back to one who may not act, and says why', () => {
    const html = renderToStaticMarkup(
      <ReadingBanner
        preview="bananas"
        onCurrentBranch={false}
        canWrite={false}
        onBack={noop}
        onContinue={noop}
      />,
    );
    expect(html).toContain('Back to the current branch');
    expect(html).not.toContain('Continue here');
    expect(html).toContain('not act in it');
  });

  it('names an ancestor of the leaf an earlier point of this branch', () => {
    const html = renderToStaticMarkup(
      <ReadingBanner preview="apples" onCurrentBranch canWrite onBack={noop} onContinue={noop} />,
    );
    expect(html).toContain('Reading an earlier point of this branch');
  });
});
