import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { resolveWorkspaces } from '../config/workspaces.js';
import { removeToolOutputRoot } from './tool-output-dir.js';
import { serverPerTest } from '../app/test-support/test-server.js';
import type { WsTestClient } from '../app/test-support/ws-test-client.js';
import { requireSandbox } from './test-support/require-sandbox.js';

// Needs bubblewrap and user namespaces; says what to install when they are missing.
beforeAll(requireSandbox);

/*
 * The attack through a real server with one workspace inside another: bash in the outer one
 * swaps a folder above the inner workspace for a link to outside, where a folder of the inner
 * workspace's name waits (`src`, `lib` and `bin` are everywhere). Neither a session of the inner
 * workspace that was open before the swap nor one made after it may then write where the link
 * leads, with the file tools or with bash.
 */

afterAll(removeToolOutputRoot);

const tests = serverPerTest();
let base: string;
let client: WsTestClient | undefined;
beforeEach(() => {
  // Outside /tmp: the sandbox's /tmp is its own.
  const parent = fs.existsSync('/var/tmp') ? '/var/tmp' : process.env.HOME!;
  base = fs.realpathSync(fs.mkdtempSync(path.join(parent, 'arbor-swap-')));
  fs.chmodSync(base, 0o755);
  tests.removeAfter(base);
});

async function newSession(workspaceId: string): Promise<string> {
  return client!.newSession(workspaceId);
}

/** Runs one tool call in the session; answers the tool's result as JSON text. */
async function runTool(sessionId: string, tool: string, args: object): Promise<string> {
  const before = client!.events(sessionId).length;
  const ended = client!.next(
    (m) => m.type === 'event' && m.sessionId === sessionId && m.event.type === 'agent_end',
    30_000,
  );
  await client!.ok({
    type: 'prompt',
    sessionId,
    text: `go\n/tool ${tool} ${JSON.stringify(args)}`,
  });
  await ended;
  const result = client!
    .events(sessionId)
    .slice(before)
    .map((frame) => frame.event)
    .find((event) => event.type === 'tool_execution_end');
  return JSON.stringify(result);
}

it('a nested workspace swapped for a link to outside is not followed by its tools', async () => {
  const outer = path.join(base, 'outer');
  const inner = path.join(outer, 'mid', 'inner');
  const outside = path.join(base, 'elsewhere', 'inner');
  fs.mkdirSync(inner, { recursive: true });
  fs.mkdirSync(outside, { recursive: true });
  const workspaces = resolveWorkspaces([outer, inner], base, 'the test');
  await tests.start({ config: { workspaces } });
  const [outerWs, innerWs] = workspaces;
  client = await tests.open();

  const before = await newSession(innerWs!.id);
  expect(await runTool(before, 'write', { path: 'first.txt', content: 'x' })).toContain(
    'Successfully wrote',
  );

  const attacker = await newSession(outerWs!.id);
  const swap = await runTool(attacker, 'bash', {
    command: 'mv mid mid.old && ln -s ../elsewhere mid && echo swapped',
  });
  expect(swap).toContain('swapped');

  // The session open before the swap, and one made after it.
  const writes = [
    await runTool(before, 'write', { path: 'pwned-old.txt', content: 'outside' }),
    await runTool(before, 'bash', { command: 'echo outside > pwned-old-bash.txt' }),
  ];
  const after = await newSession(innerWs!.id).catch((error: Error) => error);
  if (typeof after === 'string') {
    writes.push(await runTool(after, 'write', { path: 'pwned-new.txt', content: 'outside' }));
    writes.push(await runTool(after, 'bash', { command: 'echo outside > pwned-new-bash.txt' }));
  } else expect(after.message).toMatch(/no longer the folder Arbor started with/);

  expect(fs.readdirSync(outside)).toEqual([]);
  expect(writes[0]).toMatch(/moved or replaced by a link/);
  expect(writes[1]).toMatch(/moved or replaced by a link/);
  expect(fs.readFileSync(path.join(outer, 'mid.old', 'inner', 'first.txt'), 'utf8')).toBe('x');
}, 90_000);
