import { memo, useRef, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import rehypeHighlight from 'rehype-highlight';
import { CopyButton } from '../ui/CopyButton';
import { isPageOriginImage } from './markdown-images';
import { rehypeLongRuns } from './rehype-long-runs';

/*
 * react-markdown builds a new processor for every render, and rehype-highlight makes a new
 * highlighter (registering every language anew, and compiling each grammar again on first use)
 * for every processor. One highlighter made once serves every message instead.
 */
let highlighter: ReturnType<typeof rehypeHighlight> | null = null;
function sharedHighlight(): ReturnType<typeof rehypeHighlight> {
  highlighter ??= rehypeHighlight({ detect: false });
  return highlighter;
}

const remarkPlugins = [remarkGfm];
const rehypePlugins = [sharedHighlight, rehypeLongRuns];

/** A code block, with a button that copies its text. */
function CodeBlock({ children }: { children?: ReactNode }) {
  const pre = useRef<HTMLPreElement>(null);
  return (
    <div className="code-block">
      <CopyButton
        label="Copy code"
        text={() => (pre.current?.textContent ?? '').replace(/\n$/, '')}
      />
      <pre ref={pre}>{children}</pre>
    </div>
  );
}

const components: Components = {
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  ),
  // An image from another origin is a link, never a request made on the reader's behalf.
  img: ({ src, alt }) => {
    const url = typeof src === 'string' ? src : undefined;
    const origin = typeof window === 'undefined' ? undefined : window.location.origin;
    if (url && isPageOriginImage(url, origin)) return <img src={url} alt={alt ?? ''} />;
    return (
      <a
        className="markdown-image-link"
        href={url}
        title={url}
        target="_blank"
        rel="noreferrer noopener"
      >
        {`Image: ${alt || url || '(no address)'}`}
      </a>
    );
  },
};

/**
 * Markdown of model output. react-markdown builds React elements from the syntax tree and never
 * renders raw HTML, and its URL filter drops `javascript:` links, so model text cannot inject
 * markup or script. Images load only from the page's own origin (markdown-images.ts).
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehypePlugins}
        components={components}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});
