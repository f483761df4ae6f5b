import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { skillBlock } from '../../../shared/skill-invocation';
import { MessageView } from './MessageView';

describe('MessageView', () => {
  it('shows a message whose body is still loading as a busy placeholder under its role', () => {
    const html = renderToStaticMarkup(
      <MessageView entryId="e1" role="user" message={undefined} streaming={false} />,
    );
    expect(html).toContain('aria-busy="true"');
    expect(html).toContain('is-loading');
    expect(html).toContain('You');
    expect(html).toContain('Loading…');
  });

  it('is not busy once its body is there', () => {
    const html = renderToStaticMarkup(
      <MessageView
        entryId="e1"
        role="user"
        message={{ role: 'user', content: 'hello there', timestamp: 0 }}
        streaming={false}
      />,
    );
    expect(html).not.toContain('aria-busy');
    expect(html).not.toContain('is-loading');
    expect(html).toContain('hello there');
  });

  it("opens pi 1.6's system message to its text, sections and tools", () => {
    const html = renderToStaticMarkup(
      <MessageView
        entryId="s1"
        role="system"
        message={{
          role: 'system',
          content: 'Be brief.',
          sections: { preamble: '<p>Exact.</p>', old: null },
          toolsAdded: [{ name: 'read', description: 'Read a file' }],
          toolsRemoved: [{ name: 'bash' }],
          timestamp: 0,
        }}
        streaming={false}
      />,
    );
    expect(html).toContain('System prompt');
    expect(html).toContain('2 sections, 1 tool added, 1 removed');
    expect(html).toContain('Be brief.');
    expect(html).toContain('&lt;p&gt;Exact.&lt;/p&gt;');
    expect(html).toContain('<code>read</code> Read a file');
    expect(html).toContain('<del><code>bash</code></del>');
  });

  it('says a body the server could not give is unreadable, without waiting for it', () => {
    const html = renderToStaticMarkup(
      <MessageView entryId="e1" role="user" message={undefined} streaming={false} unavailable />,
    );
    expect(html).not.toContain('aria-busy');
    expect(html).not.toContain('Loading…');
    expect(html).toContain('could not be read');
  });

  it('offers context edits as named buttons to those who may act, disabled while running', () => {
    const message = { role: 'user' as const, content: 'hello there', timestamp: 0 };
    const edit = () => undefined;
    const none = renderToStaticMarkup(
      <MessageView entryId="e1" role="user" message={message} streaming={false} />,
    );
    expect(none).not.toContain('Hide from the model');
    const idle = renderToStaticMarkup(
      <MessageView
        entryId="e1"
        role="user"
        message={message}
        streaming={false}
        contextActions={{ idle: true, edit }}
      />,
    );
    expect(idle).toContain('>Hide from the model</button>');
    expect(idle).toContain('>Replace for the model</button>');
    expect(idle).not.toContain('Undo context edit');
    const busyHidden = renderToStaticMarkup(
      <MessageView
        entryId="e1"
        role="user"
        message={message}
        streaming={false}
        contextEdit={{ kind: 'hidden' }}
        contextActions={{ idle: false, edit }}
      />,
    );
    expect(busyHidden).toContain('data-context-edit="hidden"');
    expect(busyHidden).toContain('Hidden from the model');
    expect(busyHidden).toMatch(/<button[^>]*disabled=""[^>]*>Undo context edit<\/button>/);
    expect(busyHidden).not.toContain('>Hide from the model</button>');
  });

  it('folds a message of a million characters to its head, with the count, whole when opened', () => {
    const text = 'A'.repeat(1_000_000);
    const html = renderToStaticMarkup(
      <MessageView
        entryId="e1"
        role="user"
        message={{ role: 'user', content: text, timestamp: 0 }}
        streaming={false}
      />,
    );
    expect(html).toContain('Show all (1,000,000 characters)');
    expect(html).toContain('Copy all');
    expect(html).toContain(`<span class="long-run">${'A'.repeat(2_000)}…</span>`);
    expect(html.length).toBeLessThan(5_000);
  });

  it('draws a message under the fold limit whole, its long run in a span', () => {
    const run = 'A'.repeat(5_000);
    const html = renderToStaticMarkup(
      <MessageView
        entryId="e1"
        role="user"
        message={{ role: 'user', content: `see ${run}`, timestamp: 0 }}
        streaming={false}
      />,
    );
    expect(html).not.toContain('Show all');
    expect(html).toContain(`see <span class="long-run">${run}</span>`);
  });

  it('marks a !!command as kept from the model, and a cancelled one as cancelled', () => {
    const shell = (extra: object) =>
      renderToStaticMarkup(
        <MessageView
          entryId="b1"
          role="bashExecution"
          message={{
            role: 'bashExecution',
            command: 'ls',
            output: 'a.txt',
            cancelled: false,
            truncated: false,
            timestamp: 0,
            ...extra,
          }}
          streaming={false}
        />,
      );
    const sent = shell({ exitCode: 0 });
    expect(sent).not.toContain('not sent to the model');
    expect(sent).not.toContain('(cancelled)');
    expect(shell({ exitCode: 0, excludeFromContext: true })).toContain('not sent to the model');
    expect(shell({ cancelled: true })).toContain('(cancelled)');
  });

  it('shows a skill invocation by the skill’s name, never its markup or the server’s path', () => {
    const text = skillBlock({
      name: 'release-notes',
      filePath: '/srv/team/.pi/skills/release-notes/SKILL.md',
      baseDir: '/srv/team/.pi/skills/release-notes',
      body: 'Write the notes.',
      args: 'for version 2.0',
    });
    const html = renderToStaticMarkup(
      <MessageView
        entryId="u1"
        role="user"
        message={{ role: 'user', content: [{ type: 'text', text }], timestamp: 0 }}
        streaming={false}
      />,
    );
    expect(html).toContain('Skill <code>release-notes</code>');
    expect(html).toContain('Write the notes.');
    expect(html).toContain('for version 2.0');
    expect(html).not.toContain('/srv/team');
    expect(html).not.toContain('&lt;skill');
  });

  it('shows each tool call as one line: icon, name, main argument, status and duration', () => {
    const html = renderToStaticMarkup(
      <MessageView
        entryId="a1"
        role="assistant"
        message={{
          role: 'assistant',
          content: [
            { type: 'toolCall', id: 'c1', name: 'read', arguments: { path: 'src/app.ts' } },
            { type: 'toolCall', id: 'c2', name: 'bash', arguments: { command: 'npm   test' } },
            { type: 'toolCall', id: 'c3', name: 'mcp_thing', arguments: { q: 1 } },
          ],
          api: 'openai-completions',
          provider: 'arbor',
          model: 'arbor-demo',
          usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 },
          stopReason: 'toolUse',
          timestamp: 0,
        }}
        results={
          new Map([
            [
              'c1',
              {
                role: 'toolResult',
                toolCallId: 'c1',
                toolName: 'read',
                content: [{ type: 'text', text: 'export {}' }],
                isError: false,
                durationMs: 37,
                timestamp: 1,
              },
            ],
            [
              'c2',
              {
                role: 'toolResult',
                toolCallId: 'c2',
                toolName: 'bash',
                content: [{ type: 'text', text: 'exit 1' }],
                isError: true,
                durationMs: 12_345,
                timestamp: 2,
              },
            ],
          ])
        }
        streaming={false}
      />,
    );
    const lines = [
      ...html.matchAll(
        /<details class="tool-call"[^>]*data-status="(\w+)"><summary>(.*?)<\/summary>/g,
      ),
    ];
    expect(lines.map((line) => line[1])).toEqual(['done', 'failed', 'unanswered']);
    const text = lines.map((line) =>
      line[2]!
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    );
    expect(text).toEqual([
      'read src/app.ts done 37 ms',
      'bash npm test failed 12 s',
      'mcp_thing {&quot;q&quot;:1} not run',
    ]);
    expect(html).toContain('class="lucide lucide-file-text tool-icon"');
    expect(html).toContain('export {}');
  });
});
