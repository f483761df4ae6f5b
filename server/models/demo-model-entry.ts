/*
 * The demo model as the catalog lists it: its id and the context window it has unless settings
 * say otherwise. The demo server (server/demo-model/) serves this id; the catalog names it without
 * importing the server.
 */

export const DEMO_MODEL_ID = 'arbor-demo';

/** The provider the catalog lists the demo model under. */
export const DEMO_PROVIDER = 'arbor';

export const DEFAULT_DEMO_CONTEXT_WINDOW = 128_000;
