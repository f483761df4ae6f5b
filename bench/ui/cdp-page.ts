import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';

/*
 * One Chromium page driven over the DevTools protocol with nothing but the Runtime domain on, as a
 * user's browser runs. Playwright turns the Network domain on for every page it drives, and with it
 * Chromium copies every WebSocket frame into the protocol: for the multi-megabyte snapshot of a big
 * session that holds the page's main thread for half a second that no user ever waits.
 */

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

export interface CdpPage {
  /** Loads `url` and resolves once the new document is the page's. */
  navigate(url: string): Promise<void>;
  /** Evaluates an expression in the page (awaiting a promise it returns) and gives its value. */
  evaluate<T>(expression: string): Promise<T>;
  /** Sends a DevTools protocol command to the page. */
  send<T>(method: string, params?: object): Promise<T>;
  /** Uncaught exceptions and console errors of every document the page showed. */
  errors: string[];
  close(): Promise<void>;
}

function devToolsUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`Chromium did not start: ${output}`)), 30_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`Chromium exited (${code}): ${output}`)));
  });
}

export async function openCdpPage(viewport: { width: number; height: number }): Promise<CdpPage> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-bench-chromium-'));
  const child = spawn(
    process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    // Its own process group, so that closing ends Chromium's helper processes too.
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  const socket = new WebSocket(await devToolsUrl(child), { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });

  let nextId = 1;
  const pending = new Map<number, Pending>();
  const errors: string[] = [];
  /** The page's protocol session, once attached (the browser's own commands go without one). */
  const target: { sessionId?: string } = {};
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as {
      id?: number;
      result?: unknown;
      error?: { message: string };
      method?: string;
      params?: Record<string, unknown>;
    };
    if (message.id !== undefined) {
      const request = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) request?.reject(new Error(message.error.message));
      else request?.resolve(message.result);
      return;
    }
    if (message.method === 'Runtime.exceptionThrown')
      errors.push(JSON.stringify(message.params?.exceptionDetails));
    if (message.method === 'Runtime.consoleAPICalled' && message.params?.type === 'error')
      errors.push(JSON.stringify(message.params.args));
  });
  const send = <T>(method: string, params: object = {}, session = target.sessionId): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      socket.send(
        JSON.stringify({ id, method, params, ...(session ? { sessionId: session } : {}) }),
      );
    });

  const { targetId } = await send<{ targetId: string }>('Target.createTarget', {
    url: 'about:blank',
  });
  const attached = await send<{ sessionId: string }>('Target.attachToTarget', {
    targetId,
    flatten: true,
  });
  target.sessionId = attached.sessionId;
  await send('Runtime.enable');
  await send('Emulation.setDeviceMetricsOverride', {
    ...viewport,
    deviceScaleFactor: 1,
    mobile: false,
  });

  const evaluate = async <T>(expression: string): Promise<T> => {
    const reply = await send<{
      result: { value?: unknown };
      exceptionDetails?: { exception?: { description?: string }; text: string };
    }>('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (reply.exceptionDetails)
      throw new Error(reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text);
    return reply.result.value as T;
  };

  return {
    errors,
    evaluate,
    send: (method, params) => send(method, params),
    async navigate(url) {
      // Marks the old document so that the wait below only ends in the new one.
      await evaluate('window.__benchOldDocument = true').catch(() => undefined);
      await send('Page.navigate', { url });
      for (;;) {
        const fresh = await evaluate<boolean>(
          `!window.__benchOldDocument && document.readyState !== 'loading'`,
        ).catch(() => false);
        if (fresh) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async close() {
      socket.close();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      await exited;
      // Chromium's helper processes can outlive it by a moment: a profile left behind is harmless.
      try {
        fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      } catch {
        console.warn(`could not remove ${profile}`);
      }
    },
  };
}
