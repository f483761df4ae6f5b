import { expect } from 'vitest';
import type { TestServer } from './test-server.js';

/** Imports `body` (a session's JSONL) into the test server's workspace, as the page's import does. */
export async function importSession(s: TestServer, body: string): Promise<void> {
  const res = await fetch(`${s.url}/api/workspaces/${s.workspaceId}/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body,
  });
  expect(res.status, await res.clone().text()).toBe(201);
}
