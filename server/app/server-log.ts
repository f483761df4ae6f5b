import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pretty from 'pino-pretty';
import type { ArborConfig } from '../config/load-config.js';

/*
 * The server's console (decision 071): what a person running `npm start` reads. Warnings, errors
 * and the start-up line at `info`; one line per HTTP request only at `debug`. On a terminal the
 * lines are pino-pretty's; piped to a file or a log collector they stay JSON lines, one object
 * each, unless the `logFormat` setting says otherwise.
 */

export type LogFormat = 'pretty' | 'json';

/** The format in force: the setting's, else pretty exactly when stdout is a terminal. */
export function logFormatFor(setting: ArborConfig['logFormat'], stdoutIsTTY: boolean): LogFormat {
  if (setting === 'pretty' || setting === 'json') return setting;
  return stdoutIsTTY ? 'pretty' : 'json';
}

/**
 * Fastify's own lines about each request, one level down: arriving and completing requests and
 * unknown routes at `debug`. A request that failed is still logged at `error`.
 */
export class RequestsAtDebug extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, `${request.method} ${request.url}`);
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const summary = `${request.method} ${request.url} ${reply.statusCode} in ${Math.round(reply.elapsedTime)} ms`;
    if (error) {
      reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, summary);
    } else {
      reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, summary);
    }
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.debug(`${request.method} ${request.url}: no such route`);
  }
}

/** Fastify's `logger` option for `config`: pino at its level, pretty or JSON lines on stdout. */
export function serverLoggerOptions(
  config: Pick<ArborConfig, 'logLevel' | 'logFormat'>,
  stdoutIsTTY: boolean = process.stdout.isTTY === true,
) {
  if (logFormatFor(config.logFormat, stdoutIsTTY) === 'json') return { level: config.logLevel };
  return {
    level: config.logLevel,
    // In this process and synchronous, so the last lines before an exit are never lost. The
    // request's fields are in the message already; errors keep their stack.
    stream: pretty({
      sync: true,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname,reqId,req,res,responseTime',
    }),
  };
}
