import { expect } from 'vitest';

/** Logs in with `token` at the server and returns the session cookie (`name=value`). */
export async function loginCookie(serverUrl: string, token: string): Promise<string> {
  const res = await fetch(`${serverUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  expect(res.status).toBe(200);
  return (res.headers.get('set-cookie') ?? '').split(';', 1)[0] as string;
}
