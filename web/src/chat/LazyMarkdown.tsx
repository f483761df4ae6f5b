import { lazy, memo, Suspense } from 'react';
import { Runs } from './LongText';

/*
 * The markdown and syntax-highlighting stack is the biggest part of the page's code and nothing
 * the graph's first paint needs: it loads on the first message drawn, which shows its plain text
 * until then.
 */
const Markdown = lazy(() => import('./Markdown').then((module) => ({ default: module.Markdown })));

export const LazyMarkdown = memo(function LazyMarkdown({ text }: { text: string }) {
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
