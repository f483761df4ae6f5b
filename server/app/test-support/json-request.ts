/**
 * A request to a test server as a signed-in page sends it: the user's cookie, the server's own
 * origin (the origin check), and a JSON body when there is one.
 */
export function requestAs(
  server: { url: string },
  cookie: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<Response> {
  return fetch(`${server.url}${route}`, {
    method,
    headers: {
      cookie,
      origin: server.url,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}
