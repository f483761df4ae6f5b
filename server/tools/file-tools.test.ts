import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnyAgentTool, ToolResultValue } from './tool-types.js';
import { createTools } from './create-tools.js';

let base: string;
let workspace: string;
let outside: string;
let tools: Map<string, AnyAgentTool>;

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-tools-'));
  workspace = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  fs.mkdirSync(workspace);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'top secret\n');
  tools = createTools(workspace, { bash: 'off' });
});
afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

async function call(name: string, args: unknown): Promise<ToolResultValue> {
  const tool = tools.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  const parsed: unknown = tool.parse(args);
  return tool.execute(parsed, { signal: new AbortController().signal, onUpdate: () => {} });
}

function text(result: ToolResultValue): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '[image]')).join('');
}

describe('read', () => {
  it('reads a line range and says how to continue', async () => {
    fs.writeFileSync(path.join(workspace, 'f.txt'), 'one\ntwo\nthree\nfour');
    const result = await call('read', { path: 'f.txt', offset: 2, limit: 2 });
    expect(text(result)).toBe('two\nthree\n\n[1 more lines in file. Use offset=4 to continue.]');
  });

  it('truncates at 2000 lines with a notice', async () => {
    const lines = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`);
    fs.writeFileSync(path.join(workspace, 'big.txt'), lines.join('\n'));
    const out = text(await call('read', { path: 'big.txt' }));
    expect(out).toContain(
      'line 2000\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]',
    );
    expect(out).not.toContain('line 2001');
  });

  it('truncates at 50 KB with a notice', async () => {
    const lines = Array.from({ length: 1000 }, () => 'x'.repeat(100));
    fs.writeFileSync(path.join(workspace, 'wide.txt'), lines.join('\n'));
    const out = text(await call('read', { path: 'wide.txt' }));
    expect(out).toMatch(
      /\[Showing lines 1-\d+ of 1000 \(50\.0KB limit\)\. Use offset=\d+ to continue\.\]/,
    );
  });

  it('returns images as image content', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    fs.writeFileSync(path.join(workspace, 'pic.png'), png);
    const result = await call('read', { path: 'pic.png' });
    const image = result.content.find((block) => block.type === 'image');
    expect(image).toMatchObject({
      type: 'image',
      mimeType: 'image/png',
      data: png.toString('base64'),
    });
  });

  it('reads lines of a 600 MiB file without holding it whole, and bounds images', async () => {
    // `truncate -s` makes such files in an instant and on no disk; read whole, each held the
    // server's memory twice over and could not be read at all past 512 MB of text.
    const huge = path.join(workspace, 'huge.log');
    fs.writeFileSync(huge, 'first\nsecond\nthird\n');
    fs.truncateSync(huge, 600 * 1024 * 1024);
    expect(text(await call('read', { path: 'huge.log', offset: 2, limit: 1 }))).toBe(
      'second\n\n[2 more lines in file. Use offset=3 to continue.]',
    );
    expect(text(await call('read', { path: 'huge.log' }))).toBe(
      'first\nsecond\nthird\n\n[Showing lines 1-3 of 4 (50.0KB limit). Use offset=4 to continue.]',
    );
    expect(text(await call('read', { path: 'huge.log', offset: 4 }))).toMatch(
      /^\[Line 4 is 600\.0MB, exceeds 50\.0KB limit\. Use bash: sed -n '4p' huge\.log/,
    );
    fs.truncateSync(huge, 0);
    const picture = path.join(workspace, 'huge.png');
    fs.writeFileSync(picture, '');
    fs.truncateSync(picture, 600 * 1024 * 1024);
    await expect(call('read', { path: 'huge.png' })).rejects.toThrow(
      'huge.png is 600.0MB, too large to send as an image (at most 20.0MB)',
    );
  }, 60_000);

  it('tells the size of a first line over the limit', async () => {
    fs.writeFileSync(path.join(workspace, 'one.txt'), `${'é'.repeat(40 * 1024)}\nnext`);
    expect(text(await call('read', { path: 'one.txt' }))).toBe(
      "[Line 1 is 80.0KB, exceeds 50.0KB limit. Use bash: sed -n '1p' one.txt | head -c 51200]",
    );
    expect(text(await call('read', { path: 'one.txt', offset: 2 }))).toBe('next');
  });

  it('says clearly when a file is missing or the offset is past the end', async () => {
    await expect(call('read', { path: 'nope.txt' })).rejects.toThrow('File not found: nope.txt');
    fs.writeFileSync(path.join(workspace, 'short.txt'), 'a\nb');
    await expect(call('read', { path: 'short.txt', offset: 10 })).rejects.toThrow(
      'Offset 10 is beyond end of file (2 lines total)',
    );
  });
});

describe('write and edit', () => {
  it('writes a file, creating parent directories', async () => {
    const result = await call('write', { path: 'a/b/c.txt', content: 'hello' });
    expect(text(result)).toBe('Successfully wrote 5 bytes to a/b/c.txt');
    expect(fs.readFileSync(path.join(workspace, 'a/b/c.txt'), 'utf8')).toBe('hello');
  });

  it('replaces exact unique text', async () => {
    fs.writeFileSync(path.join(workspace, 'e.txt'), 'alpha beta gamma');
    await call('edit', { path: 'e.txt', edits: [{ oldText: 'beta', newText: 'BETA' }] });
    expect(fs.readFileSync(path.join(workspace, 'e.txt'), 'utf8')).toBe('alpha BETA gamma');
  });

  it('accepts the single-edit shape too', async () => {
    fs.writeFileSync(path.join(workspace, 'e.txt'), 'alpha beta');
    await call('edit', { path: 'e.txt', oldText: 'alpha', newText: 'omega' });
    expect(fs.readFileSync(path.join(workspace, 'e.txt'), 'utf8')).toBe('omega beta');
  });

  it('refuses missing and ambiguous text without touching the file', async () => {
    fs.writeFileSync(path.join(workspace, 'e.txt'), 'dup dup');
    await expect(
      call('edit', { path: 'e.txt', edits: [{ oldText: 'absent', newText: 'x' }] }),
    ).rejects.toThrow(/Could not find the text in e\.txt/);
    await expect(
      call('edit', { path: 'e.txt', edits: [{ oldText: 'dup', newText: 'x' }] }),
    ).rejects.toThrow(/Found 2 occurrences of the text in e\.txt/);
    expect(fs.readFileSync(path.join(workspace, 'e.txt'), 'utf8')).toBe('dup dup');
  });
});

describe('ls, grep, find', () => {
  beforeEach(() => {
    fs.mkdirSync(path.join(workspace, 'src/deep'), { recursive: true });
    fs.writeFileSync(path.join(workspace, 'src/a.ts'), 'export const a = 1;\n// TODO fix\n');
    fs.writeFileSync(path.join(workspace, 'src/deep/b.ts'), 'const todo = 2;\n');
    fs.writeFileSync(path.join(workspace, 'readme.md'), '# Title\nTODO later\n');
    fs.mkdirSync(path.join(workspace, 'node_modules/x'), { recursive: true });
    fs.writeFileSync(path.join(workspace, 'node_modules/x/i.ts'), 'TODO hidden\n');
  });

  it('ls lists sorted entries with directories marked', async () => {
    expect(text(await call('ls', {}))).toBe('node_modules/\nreadme.md\nsrc/');
  });

  it('grep finds matching lines with file and line number', async () => {
    const out = text(await call('grep', { pattern: 'TODO' }));
    expect(out.split('\n').sort()).toEqual(['readme.md:2: TODO later', 'src/a.ts:2: // TODO fix']);
    const ci = text(await call('grep', { pattern: 'todo', ignoreCase: true, glob: '*.ts' }));
    expect(ci.split('\n').sort()).toEqual([
      'src/a.ts:2: // TODO fix',
      'src/deep/b.ts:1: const todo = 2;',
    ]);
    await expect(call('grep', { pattern: '(' })).rejects.toThrow(/Invalid regular expression/);
  });

  it('find matches globs by base name or path', async () => {
    expect(text(await call('find', { pattern: '*.ts' })).split('\n')).toEqual([
      'src/a.ts',
      'src/deep/b.ts',
    ]);
    expect(text(await call('find', { pattern: 'src/**/b.ts' }))).toBe('src/deep/b.ts');
    expect(text(await call('find', { pattern: '*.{md,txt}' }))).toBe('readme.md');
    expect(text(await call('find', { pattern: 'READ[l-n]E.?d' }))).toBe(
      'No files found matching pattern',
    );
    expect(text(await call('find', { pattern: '[p-s]ea[!x]me.(md)' }))).toBe(
      'No files found matching pattern',
    );
    expect(text(await call('find', { pattern: '[p-s]ea[!x]me.md' }))).toBe('readme.md');
  });

  it('matches a backtracking glob in linear time, and refuses a broken or huge one', async () => {
    // V8's regular expressions took 16.6 s on two such names; the test's time limit is 5 s.
    fs.writeFileSync(path.join(workspace, 'a'.repeat(200)), '');
    fs.writeFileSync(path.join(workspace, `${'a'.repeat(199)}c`), '');
    const hostile = `${'*a'.repeat(12)}*b`;
    expect(text(await call('find', { pattern: hostile }))).toBe('No files found matching pattern');
    expect(text(await call('grep', { pattern: 'x', glob: hostile }))).toBe('No matches found');
    expect(text(await call('find', { pattern: `${'*a'.repeat(12)}*` })).split('\n')).toHaveLength(
      2,
    );
    await expect(call('find', { pattern: '[z-a]' })).rejects.toThrow(/Invalid glob pattern/);
    await expect(call('find', { pattern: '{a,b' })).rejects.toThrow(/Invalid glob pattern/);
    await expect(call('find', { pattern: '*'.repeat(600) })).rejects.toThrow(/longer than 512/);
  });
});

describe('confinement to the workspace', () => {
  const escapes = () => [
    { label: '..', path: '../outside/secret.txt', dir: '../outside' },
    { label: 'absolute', path: path.join(outside, 'secret.txt'), dir: outside },
    { label: 'symlink', path: 'link/secret.txt', dir: 'link' },
  ];
  beforeEach(() => {
    fs.symlinkSync(outside, path.join(workspace, 'link'));
  });

  it.each(['..', 'absolute', 'symlink'])(
    'read, write and edit cannot escape through %s',
    async (label) => {
      const escape = escapes().find((e) => e.label === label)!;
      await expect(call('read', { path: escape.path })).rejects.toThrow(/outside the workspace/);
      await expect(call('write', { path: escape.path, content: 'pwned' })).rejects.toThrow(
        /outside the workspace/,
      );
      await expect(
        call('edit', { path: escape.path, edits: [{ oldText: 'top', newText: 'pwned' }] }),
      ).rejects.toThrow(/outside the workspace/);
      await expect(call('write', { path: `${escape.dir}/new.txt`, content: 'x' })).rejects.toThrow(
        /outside the workspace/,
      );
      expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
      expect(fs.existsSync(path.join(outside, 'new.txt'))).toBe(false);
    },
  );

  it.each(['..', 'absolute', 'symlink'])(
    'ls, grep and find cannot escape through %s',
    async (label) => {
      const escape = escapes().find((e) => e.label === label)!;
      await expect(call('ls', { path: escape.dir })).rejects.toThrow(/outside the workspace/);
      await expect(call('grep', { pattern: 'secret', path: escape.dir })).rejects.toThrow(
        /outside the workspace/,
      );
      await expect(call('find', { pattern: '*.txt', path: escape.dir })).rejects.toThrow(
        /outside the workspace/,
      );
    },
  );

  it('a search of the workspace does not follow a link outside', async () => {
    expect(text(await call('grep', { pattern: 'secret' }))).toBe('No matches found');
    expect(text(await call('find', { pattern: '*.txt' }))).toBe('No files found matching pattern');
  });

  it('a dangling link cannot be written through', async () => {
    fs.symlinkSync(path.join(outside, 'created-by-link.txt'), path.join(workspace, 'dangling'));
    await expect(call('write', { path: 'dangling', content: 'x' })).rejects.toThrow();
    expect(fs.existsSync(path.join(outside, 'created-by-link.txt'))).toBe(false);
  });

  it('an absolute path inside the workspace is allowed', async () => {
    fs.writeFileSync(path.join(workspace, 'in.txt'), 'inside');
    expect(text(await call('read', { path: path.join(workspace, 'in.txt') }))).toBe('inside');
  });

  it('invalid arguments become a readable validation error', () => {
    expect(() => tools.get('read')!.parse({ path: 5 })).toThrow(
      /Validation failed for tool "read":\n {2}- path:/,
    );
    expect(() => tools.get('write')!.parse({ path: 'x' })).toThrow(/content/);
  });
});
