import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { trackUnrequestedConnections } from './unrequested-connections.ts';

let server: Server | undefined;
const sockets: Socket[] = [];

afterEach(() => {
  for (const socket of sockets) socket.destroy();
  sockets.length = 0;
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

const closed = (socket: Socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()));

describe('trackUnrequestedConnections', () => {
  it("closes a connection that never sent a request, so the server's close does not wait for it", async () => {
    // A slow answer, to keep a request in flight while the server closes.
    server = createServer((_req, res) => setTimeout(() => res.end('answered'), 300));
    const unrequested = trackUnrequestedConnections(server);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    const silent = connect(port, '127.0.0.1');
    sockets.push(silent);
    await new Promise((resolve) => silent.once('connect', resolve));
    const answer = new Promise<string>((resolve, reject) => {
      request({ port, host: '127.0.0.1', path: '/' }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(body));
      })
        .on('error', reject)
        .end();
    });
    await new Promise((resolve) => server!.once('request', resolve));

    const serverClosed = new Promise<void>((resolve) => server!.close(() => resolve()));
    server.closeIdleConnections();
    unrequested.close();
    await closed(silent);
    // The request in flight still gets its answer, and then the server has closed.
    expect(await answer).toBe('answered');
    await serverClosed;
  });

  it('leaves alone a connection that has carried a request', async () => {
    server = createServer((_req, res) => res.end('ok'));
    const unrequested = trackUnrequestedConnections(server);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    const replied = new Promise((resolve) => socket.once('data', resolve));
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await replied;

    unrequested.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(socket.destroyed).toBe(false);
  });
});
