/** A plain HTTP server on 127.0.0.1:0 for tests of peers that misbehave; closed after the test. */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
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
