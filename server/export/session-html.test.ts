import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportSessionChunks } from './export-session.js';
import { EXPORT_CSP } from './session-html.js';
import { writeHostileSession } from './test-support/hostile-session.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function hostileExport(scope: 'path' | 'all'): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-export-'));
  return [...exportSessionChunks(writeHostileSession(dir), scope)].join('');
}

/** The page's markup with every text node dropped: what a browser would treat as tags. */
function tags(html: string): string[] {
  return [...html.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)].map((m) => `${m[1]}${m[2]}`);
}

describe('the HTML export of a session', () => {
  it('holds no script, no event handler and no script link, whatever the session holds', () => {
    const html = hostileExport('all');
    const all = tags(html);
    expect(all.filter((tag) => /^(script|iframe|object|embed|base|form)\b/i.test(tag))).toEqual([]);
    expect(all.filter((tag) => /\son\w+\s*=/i.test(tag))).toEqual([]);
    expect(all.filter((tag) => /javascript:/i.test(tag))).toEqual([]);
    // The hostile texts are there, as text.
    expect(html).toContain('Hello &lt;script&gt;alert(&quot;user&quot;)&lt;/script&gt;');
    expect(html).toContain('&lt;/pre&gt;&lt;script&gt;alert(&quot;tool&quot;)&lt;/script&gt;');
  });

  it('allows nothing to load but its own style and data-URL images', () => {
    const html = hostileExport('all');
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">`);
    expect(EXPORT_CSP).toMatch(/^default-src 'none'; style-src 'sha256-[\w+/=]+'; img-src data:;/);
    const sources = all(html, /\ssrc="([^"]*)"/g);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(source).toMatch(/^data:image\/png;base64,/);
    // A remote markdown image becomes a link to it; links go nowhere but pages.
    expect(html).toContain('<a href="http://127.0.0.1:9/track.png">[image: pixel]</a>');
    for (const href of all(html, /\shref="([^"]*)"/g)) expect(href).toMatch(/^(#e-|https?:|$)/);
  });

  it('shows the system prompt with its sections and tools, thinking, tool calls, results and images', () => {
    const html = hostileExport('path');
    expect(html).toContain('Section <code>AGENTS.md</code>');
    expect(html).toContain('Tool <code>read&lt;img src=x onerror=alert(1)&gt;</code>');
    expect(html).toContain('<summary>Thinking</summary><pre>Secret plan');
    expect(html).toContain('Tool call <code>bash&quot; onclick=&quot;alert(6)</code>');
    expect(html).toContain('Tool result: bash');
    expect(html).toMatch(/<img alt="Attached image" src="data:image\/png;base64,[\w+/=]+">/);
    expect(html).toContain('(an image Arbor cannot show: image/png&quot;&gt;&lt;script&gt;');
    expect(html).toContain('Done on the main branch.');
  });

  it('with scope "path" leaves the other branches out, with "all" shows them and the whole tree', () => {
    const onlyPath = hostileExport('path');
    expect(onlyPath).not.toContain('A prompt on another branch');
    const whole = hostileExport('all');
    expect(whole).toContain('<section aria-label="Other branches">');
    expect(whole).toContain('<a href="#e-user0002">user: A prompt on another branch</a>');
    expect(whole).toContain('id="e-asst0003"');
    // The tree branches under the system prompt: one list per child.
    expect(whole).toMatch(/e-sys00001[^]*?<ul><li><ol><li><a href="#e-user0002"/);
    expect(whole).toContain('aria-current="true"');
  });
});

function all(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((m) => m[1] ?? '');
}
