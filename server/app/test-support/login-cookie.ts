import type { FastifyInstance } from 'fastify';
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

/** The same login through `app.inject`, for a server that does not listen. */
export async function injectLoginCookie(app: FastifyInstance, token: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/login', payload: { token } });
  expect(res.statusCode).toBe(200);
  return `arbor_login=${res.cookies.find((c) => c.name === 'arbor_login')?.value ?? ''}`;
}
