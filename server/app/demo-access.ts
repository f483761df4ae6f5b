import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/*
 * Who may call the demo model mounted at `/demo/v1`. Its route is public so that the server's own
 * sessions reach it without a cookie, but in team mode that made it a free, unauthenticated
 * endpoint: anyone who could reach the port could make it work. Now a request is admitted when
 * the auth hook found a user (every request when no login is needed) or when it carries the key
 * this server's catalog sends its demo model, a random one per server start.
 */

function sameKey(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The admission rule, reading the expected key when asked (the catalog may be reloaded). */
export function demoAdmission(expectedKey: () => string | undefined) {
  return (request: FastifyRequest): boolean => {
    if (request.user) return true;
    const key = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const expected = expectedKey();
    return key !== undefined && expected !== undefined && sameKey(key, expected);
  };
}
