import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { runServe } from './serve-command.js';

let dir: string | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function captureStderr(): () => string {
  let err = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err += String(chunk);
    return true;
  });
  return () => err;
}

it('arbor serve on a non-loopback host without users exits 2 and says why', async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-serve-'));
  fs.mkdirSync(path.join(dir, 'ws'));
  const stderr = captureStderr();
  const code = await runServe([
    '--host',
    '0.0.0.0',
    '--port',
    '0',
    '--data',
    path.join(dir, 'data'),
    '--workspace',
    path.join(dir, 'ws'),
  ]);
  expect(code).toBe(2);
  expect(stderr()).toMatch(/listen on 0\.0\.0\.0.*no users exist.*arbor user add/s);
});

it('arbor serve with a bad flag exits 2 with the usage', async () => {
  const stderr = captureStderr();
  expect(await runServe(['--prot', '1'])).toBe(2);
  expect(stderr()).toMatch(/Unknown option "--prot".*Usage: arbor serve/s);
});
