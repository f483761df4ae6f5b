import type { FastifyRequest } from 'fastify';

/**
 * True when the request may come from its Origin: no Origin header (not a browser, so not a
 * cross-site request), an Origin whose host is the Host the request was sent to, or one the operator
 * allowed. Guards the WebSocket upgrade, which browsers do not protect with CORS, and every
 * state-changing REST call.
 */
export function originAllowed(request: FastifyRequest, allowedOrigins: string[]): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (allowedOrigins.includes(url.origin)) return true;
  const host = request.headers.host;
  return host !== undefined && url.host === host.toLowerCase();
}
