import type { FastifyError, FastifyInstance } from 'fastify';
import type { HttpError } from '../../shared/rest-shapes.js';
import { ArborError, ERROR_CATALOG, toErrorBody } from '../errors/error-catalog.js';

/**
 * Every failed HTTP request answers `{ error: { code, message } }` with the catalog's status.
 * Fastify's own request errors (bad JSON, body too large, wrong media type) keep their message;
 * anything else is logged in full and reported as `internal`.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ArborError, request, reply) => {
    if (error instanceof ArborError) {
      const body: HttpError = { error: { code: error.code, message: error.message } };
      return reply.code(error.status).send(body);
    }
    const status = (error as FastifyError).statusCode;
    if (status === 413) {
      return reply
        .code(413)
        .send({ error: { code: 'payload_too_large', message: 'The request body is too large.' } });
    }
    if (status === 429) {
      return reply.code(429).send({
        error: { code: 'rate_limited', message: ERROR_CATALOG.rate_limited.message },
      });
    }
    if (status !== undefined && status >= 400 && status < 500) {
      return reply
        .code(status)
        .send({ error: { code: 'invalid_argument', message: error.message } });
    }
    request.log.error({ err: error }, 'request failed');
    const body: HttpError = { error: toErrorBody(error) };
    return reply.code(ERROR_CATALOG[body.error.code].status).send(body);
  });
}
