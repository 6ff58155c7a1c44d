/** A plain HTTP server on 127.0.0.1:0 for tests of peers that misbehave; closed after the test. */
import http from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import type { TestContext } from 'node:test';

/** Starts `handler` and returns its base URL. Open sockets (hung requests) are destroyed at the end. */
export async function startTestServer(t: TestContext, handler: http.RequestListener): Promise<string> {
  const sockets = new Set<Socket>();
  const server = http.createServer(handler);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => {
    for (const s of sockets) s.destroy();
    return new Promise<void>((r) => server.close(() => r()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port free on 127.0.0.1 at the moment of asking (for a server the test starts itself). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Answers `text` one character every `everyMs`: never silent for long enough to trip an idle timeout. */
export function trickle(res: http.ServerResponse, text: string, everyMs: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (i >= text.length || res.destroyed) {
      clearInterval(timer);
      if (!res.destroyed) res.end();
      return;
    }
    res.write(text[i]!);
    i += 1;
  }, everyMs);
  res.on('close', () => clearInterval(timer));
}
