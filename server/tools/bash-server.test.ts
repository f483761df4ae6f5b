import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { removeToolOutputRoot } from './tool-output-dir.js';
import { tmpdirOutsideTmp } from './test-support/outside-tmp.js';
import { serverPerTest } from '../app/test-support/test-server.js';
import { bashInNewSession } from './test-support/bash-in-session.js';
import { requireSandbox } from './test-support/require-sandbox.js';

// Needs bubblewrap and user namespaces; says what to install when they are missing.
beforeAll(requireSandbox);

/*
 * The attack through a real server: a member's session runs bash that goes looking for the API
 * key in models.json, the other files of the data folder, another workspace's files and the
 * server's environment. The server's own wiring must hand the sandbox what to hide.
 */

// Worker threads end without an exit event: the logs of this file go with it.
afterAll(removeToolOutputRoot);

const tests = serverPerTest();
afterEach(() => {
  delete process.env.ARBOR_TEST_SERVER_SECRET;
});

it("a session's bash cannot read the data folder, another workspace or the server's secrets", async () => {
  const restoreTmpdir = tmpdirOutsideTmp();
  process.env.ARBOR_TEST_SERVER_SECRET = 'sk-server-environment-secret';
  const server = await tests.start({
    extraWorkspaces: 1,
    prepare: (dataDir) => {
      fs.writeFileSync(
        path.join(dataDir, 'models.json'),
        JSON.stringify({
          defaultModel: 'arbor-demo',
          models: [
            {
              id: 'team-model',
              baseUrl: 'http://127.0.0.1:9/v1',
              provider: 'team',
              contextWindow: 8192,
              maxOutputTokens: 1024,
              apiKey: 'sk-models-json-secret',
            },
          ],
        }),
      );
      fs.writeFileSync(path.join(dataDir, 'notes.txt'), 'data folder notes');
    },
  });
  const dataDir = server.dataDir;
  const other = server.app.arbor.config.workspaces[1]!.path;
  fs.writeFileSync(path.join(other, 'secret.txt'), 'other workspace secret');
  restoreTmpdir();

  const client = await tests.open();
  const command = [
    `echo "found: $(find ${dataDir} ${other} -mindepth 1 2>/dev/null | wc -l)"`,
    `cat ${dataDir}/models.json ${dataDir}/notes.txt ${other}/secret.txt 2>/dev/null`,
    'env',
  ].join('; ');
  const { result } = await bashInNewSession(client, server.workspaceId, command);
  expect(result).toBeDefined();
  const text = JSON.stringify(result);
  expect(text).toContain('found: 0');
  expect(text).toContain('PATH=');
  expect(text).not.toContain('sk-models-json-secret');
  expect(text).not.toContain('data folder notes');
  expect(text).not.toContain('other workspace secret');
  expect(text).not.toContain('sk-server-environment-secret');
}, 60_000);
