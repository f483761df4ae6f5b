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

/**
 * True when a Host header names this machine's loopback interface: `localhost`, `*.localhost`,
 * `127.0.0.0/8` or `[::1]`, with any port. A DNS-rebinding page sends its own name here (the
 * browser keeps the name it resolved), so a server without login answers only these names.
 */
export function isLoopbackHostHeader(host: string): boolean {
  // A Host header is `name[:port]` or `[v6]:port`, nothing more: user info, a path, spaces, a
  // trailing dot are refused before the name is normalised (`127.1` → `127.0.0.1`).
  const name = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i.exec(host)?.[1];
  if (name === undefined || name.endsWith('.')) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${name}`).hostname;
  } catch {
    return false;
  }
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/**
 * True when a server without login may answer a request sent to `host`: a loopback name, or the
 * host of one of the configured `allowedOrigins` (a reverse proxy on this machine, say).
 */
export function hostAllowedWithoutLogin(
  host: string | undefined,
  allowedOrigins: string[],
): boolean {
  if (host === undefined || host === '') return false;
  if (isLoopbackHostHeader(host)) return true;
  const lower = host.toLowerCase();
  return allowedOrigins.some((origin) => new URL(origin).host === lower);
}

/** Why a request to `host` was refused, and how to allow it; for the 421 answer. */
export function refusedHostMessage(host: string | undefined): string {
  const shown = host === undefined || host === '' ? '(no Host header)' : host;
  return (
    `This Arbor server runs without login, so it answers only when opened by a loopback name ` +
    `(localhost, 127.0.0.1, [::1]); it was asked for "${shown}". A web page that makes its own ` +
    `name resolve to this machine (DNS rebinding) would otherwise act as you here. Open Arbor at ` +
    `http://127.0.0.1:PORT/ instead. To reach it by another name (a reverse proxy, say), add that ` +
    `origin to "allowedOrigins" in the config file, e.g. "allowedOrigins": ["https://${shown}"], ` +
    `or add users (\`arbor user add NAME --role admin\`) so that everyone logs in.`
  );
}
