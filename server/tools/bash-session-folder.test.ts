import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { removeToolOutputRoot } from './tool-output-dir.js';
import { OUTSIDE_TMP, tmpdirOutsideTmp } from './test-support/outside-tmp.js';
import { serverPerTest } from '../app/test-support/test-server.js';
import { bashInNewSession } from './test-support/bash-in-session.js';
import { requireSandbox } from './test-support/require-sandbox.js';

// Needs bubblewrap and user namespaces; says what to install when they are missing.
beforeAll(requireSandbox);

/*
 * A relocated session folder holds every user's and every working directory's sessions: a
 * session's bash must see none of them, the session's own file included (else the model could
 * rewrite what it was told, or read another user's session), just as it sees nothing of the data
 * folder.
 */

afterAll(removeToolOutputRoot);

const tests = serverPerTest();

it("a session's bash cannot list, read or change the relocated session folder", async () => {
  const restoreTmpdir = tmpdirOutsideTmp();
  const outside = OUTSIDE_TMP;
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(outside, 'arbor-sessions-')));
  tests.removeAfter(folder);
  const other = path.join(folder, '2026-01-01T00-00-00-000Z_other-users-session.jsonl');
  fs.writeFileSync(
    other,
    `${JSON.stringify({ type: 'session', version: 3, id: 'other-users-session', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/elsewhere' })}\n` +
      `${JSON.stringify({ type: 'message', id: 'aaaa1111', parentId: null, timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: 'a secret prompt of another user', timestamp: 1 } })}\n`,
  );
  const server = await tests.start({
    prepare: (dataDir) =>
      fs.writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify({ sessionDir: folder })),
  });
  restoreTmpdir();
  expect(server.app.arbor.config.sessionDir).toBe(folder);

  const client = await tests.open();
  const command = [
    `echo "found: $(find ${folder} -mindepth 1 2>/dev/null | wc -l)"`,
    `cat ${other} 2>/dev/null`,
    `echo forged > ${folder}/forged.jsonl 2>/dev/null || echo "write refused"`,
  ].join('; ');
  const { sessionId, result } = await bashInNewSession(client, server.workspaceId, command);
  const text = JSON.stringify(result);
  expect(text).toContain('found: 0');
  expect(text).toContain('write refused');
  expect(text).not.toContain('a secret prompt of another user');
  expect(fs.existsSync(path.join(folder, 'forged.jsonl'))).toBe(false);
  // The session itself was written there, out of the sandbox's sight.
  const names = fs.readdirSync(folder).filter((name) => name.endsWith(`_${sessionId}.jsonl`));
  expect(names).toHaveLength(1);
}, 60_000);
