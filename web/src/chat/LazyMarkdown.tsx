import { lazy, memo, Suspense } from 'react';
import { fitsMarkdown, MARKDOWN_MAX_CHARS } from '../../../shared/markdown-limits';
import { Runs } from './LongText';

/*
 * The markdown and syntax-highlighting stack is the biggest part of the page's code and nothing
 * the graph's first paint needs: it loads on the first message drawn, which shows its plain text
 * until then. Text past the shared markdown limit is shown plain: the markdown parser is quadratic
 * in a run of emphasis marks, and one hostile answer must not freeze the tab.
 */
const Markdown = lazy(() => import('./Markdown').then((module) => ({ default: module.Markdown })));

export const LazyMarkdown = memo(function LazyMarkdown({ text }: { text: string }) {
  if (!fitsMarkdown(text)) {
    return (
      <div className="markdown" style={{ whiteSpace: 'pre-wrap' }}>
        <p className="note">
          Shown as plain text: longer than {MARKDOWN_MAX_CHARS.toLocaleString('en')} characters.
        </p>
        <Runs text={text} />
      </div>
    );
  }
  return (
    <Suspense
      fallback={
        <div className="markdown" style={{ whiteSpace: 'pre-wrap' }}>
          <Runs text={text} />
        </div>
      }
    >
      <Markdown text={text} />
    </Suspense>
  );
});
