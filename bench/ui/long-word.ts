/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import { makeTempDirs, startArbor } from '../../e2e/support/arbor-server.js';
import { openCdpPage, type CdpPage } from './cdp-page.js';
import { writeLongWordSession, type LongWordParts } from '../../e2e/support/long-word-session.js';
import { paintedWith } from './page-scripts.js';
import { FOLD_CHARS } from '../../web/src/chat/long-text.js';

/*
 * The "long word" scenario: how long the page takes to show one run of text without spaces of
 * 20,000, 200,000 and 1,000,000 characters — in a session opened from its file (the prompt and
 * the answer quoting it; a tool result opened; a label and a session name), and sent from the
 * editor (paste, Send, the demo model's answer quoting it painted). Each figure is one page,
 * timed inside it, and ends two animation frames after the text is in the document, so the
 * layout and paint of that frame are inside. Needs `npm run build` first.
 * `BENCH_LONG_WORD_SIZES=20000,200000` picks the sizes; `BENCH_LONG_WORD_LIMIT_S` (default 150)
 * gives up on a page that stays frozen.
 */

const SIZES = (process.env.BENCH_LONG_WORD_SIZES ?? '20000,200000,1000000').split(',').map(Number);
const LIMIT_MS = Number(process.env.BENCH_LONG_WORD_LIMIT_S ?? 150) * 1000;

class Frozen extends Error {}

function within<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Frozen()), LIMIT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** In-page: the time from navigation start to `selector` painted. */
async function openAndPaint(page: CdpPage, url: string, selector: string): Promise<number> {
  await page.navigate(url);
  return page.evaluate<number>(paintedWith(selector));
}

/** In-page: from a click on `clickSelector` to `selector` painted. */
function clickAndPaint(clickSelector: string, selector: string): string {
  return `(() => {
    const started = performance.now();
    document.querySelector(${JSON.stringify(clickSelector)}).click();
    return ${paintedWith(selector)}.then((at) => at - started);
  })()`;
}

/** In-page: puts `size` characters into the editor as a paste does, then Send; to the answer painted. */
function pasteAndSend(size: number, answers: number): string {
  return `(() => {
    const area = document.querySelector('textarea[aria-label="Message"]');
    const started = performance.now();
    const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set;
    setter.call(area, 'A'.repeat(${size}));
    area.dispatchEvent(new Event('input', { bubbles: true }));
    return new Promise((resolve) => setTimeout(resolve, 0)).then(() => {
      const pasted = performance.now() - started;
      [...document.querySelectorAll('.editor-actions button')].find((b) => b.textContent === 'Send').click();
      const answer = '[aria-label="Conversation"] [data-role="assistant"]:not([aria-busy]):not([data-entry-id="pending"])';
      return new Promise((resolve, reject) => {
        const check = () => document.querySelectorAll(answer).length > ${answers};
        const done = () => requestAnimationFrame(() => requestAnimationFrame(() =>
          resolve({ pasted, answered: performance.now() - started })));
        if (check()) return done();
        const observer = new MutationObserver(() => { if (check()) { observer.disconnect(); done(); } });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true });
        setTimeout(() => reject(new Error('no answer within ${LIMIT_MS} ms')), ${LIMIT_MS});
      });
    });
  })()`;
}

function fmt(ms: number | 'frozen'): string {
  return ms === 'frozen' ? `> ${LIMIT_MS / 1000} s (given up)` : `${ms.toFixed(0)} ms`;
}

async function main(): Promise<void> {
  for (const file of ['dist/server/cli/main.js', 'dist/web/index.html'])
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  const dirs = makeTempDirs();
  const cwd = fs.realpathSync(dirs.workspace);
  const server = await startArbor(dirs);
  let page = await openCdpPage({ width: 1440, height: 900 });
  const chat = '[aria-label="Conversation"]';
  const tree = '[aria-label="Session tree"]';

  /** Runs one measurement on a fresh page; a page that stays frozen is closed and replaced. */
  const measure = async (label: string, run: (page: CdpPage) => Promise<number>) => {
    let result: number | 'frozen';
    try {
      result = await within(run(page));
    } catch (error) {
      if (!(error instanceof Frozen)) throw error;
      result = 'frozen';
      await page.close();
      page = await openCdpPage({ width: 1440, height: 900 });
    }
    console.log(`${label.padEnd(58)} ${fmt(result)}`);
  };

  try {
    for (const size of SIZES) {
      const word = 'A'.repeat(size);
      const only = (parts: LongWordParts) => writeLongWordSession(dirs.dataDir, cwd, word, parts);
      const prompt = only({ prompt: true });
      await measure(`${size} chars: open, prompt + answer painted`, (p) =>
        openAndPaint(
          p,
          `${server.url}/?session=${prompt.sessionId}`,
          `${chat} [data-entry-id="${prompt.answerId}"]:not([aria-busy])`,
        ),
      );
      if (size > FOLD_CHARS)
        await measure(`${size} chars: "Show all" → whole prompt painted`, async (p) => {
          await openAndPaint(
            p,
            `${server.url}/?session=${prompt.sessionId}`,
            `${chat} [data-entry-id="${prompt.promptId}"] .long-text-actions button`,
          );
          return p.evaluate<number>(
            clickAndPaint(
              `${chat} [data-entry-id="${prompt.promptId}"] .long-text-actions button`,
              `${chat} [data-entry-id="${prompt.promptId}"] [data-folded="false"]`,
            ),
          );
        });
      const tool = only({ toolResult: true });
      await measure(`${size} chars: tool result opened`, async (p) => {
        await openAndPaint(
          p,
          `${server.url}/?session=${tool.sessionId}`,
          `${chat} [data-role="toolResult"]:not([aria-busy]) summary`,
        );
        return p.evaluate<number>(
          clickAndPaint(
            `${chat} [data-role="toolResult"] summary`,
            `${chat} [data-role="toolResult"] details[open]`,
          ),
        );
      });
      const named = only({ label: true, name: true });
      await measure(`${size} chars: open, label + session name painted`, (p) =>
        openAndPaint(
          p,
          `${server.url}/?session=${named.sessionId}`,
          `${tree} [aria-current="true"]`,
        ),
      );
      const fresh = only({});
      await measure(`${size} chars: paste + Send → answer painted`, async (p) => {
        await openAndPaint(
          p,
          `${server.url}/?session=${fresh.sessionId}`,
          `${chat} [data-entry-id="${fresh.answerId}"]:not([aria-busy])`,
        );
        const { pasted, answered } = await p.evaluate<{ pasted: number; answered: number }>(
          pasteAndSend(size, 1),
        );
        console.log(`${`${size} chars: paste into the editor`.padEnd(58)} ${fmt(pasted)}`);
        return answered;
      });
    }
    if (page.errors.length) console.log(`page errors: ${page.errors.join('\n')}`);
  } finally {
    await page.close();
    await server.stop();
    fs.rmSync(path.dirname(dirs.dataDir), { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
