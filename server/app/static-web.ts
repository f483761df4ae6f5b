import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { markRoutesPublic } from './auth-hooks.js';
import { ArborError } from '../errors/error-catalog.js';

/**
 * Serves the built page from `webRoot` (normally `dist/web`), with every other GET outside `/api/`
 * and `/demo/` answered by `index.html` so client-side routes survive a reload. Without a build, `/`
 * says how to make one.
 */
export async function staticWeb(app: FastifyInstance, webRoot: string | null): Promise<void> {
  const hasBuild = webRoot !== null && fs.existsSync(path.join(webRoot, 'index.html'));
  // The page's files are public: the login form is part of the page. The not-found handler is set in
  // the same scope, so that it can send index.html; having no prefix, it answers for the whole app.
  await app.register(async (scope) => {
    markRoutesPublic(scope);
    if (hasBuild) {
      await scope.register(fastifyStatic, {
        root: webRoot,
        wildcard: false,
        index: ['index.html'],
      });
    }
    scope.setNotFoundHandler((request, reply) => {
      const pathname = request.url.split('?', 1)[0] ?? '';
      const isPage =
        request.method === 'GET' && !pathname.startsWith('/api/') && !pathname.startsWith('/demo/');
      if (isPage && hasBuild) return reply.type('text/html').sendFile('index.html');
      if (isPage) {
        return reply
          .type('text/plain')
          .send('The web page is not built. Run `npm run build:web` and reload.\n');
      }
      throw new ArborError('not_found', `No route ${request.method} ${pathname}.`);
    });
  });
}
