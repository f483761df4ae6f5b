import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

/** A fresh temporary directory per call, removed after the test that made it. */
export function useTempDirs(): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-store-'));
    made.push(dir);
    return dir;
  };
}

export const PI_FIXTURES = '/work/shared/fixtures/pi';

/** Copies a pi fixture (read-only dir) into `dir`, writable. */
export function copyFixture(name: string, dir: string): string {
  const target = path.join(dir, name);
  fs.copyFileSync(path.join(PI_FIXTURES, name), target);
  fs.chmodSync(target, 0o644);
  return target;
}
