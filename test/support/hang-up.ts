import type { IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import type { RunningServer } from '../../src/listen';

/**
 * Sends a request's head and the start of its body, waits until the server has started reading the
 * body (its request stream flows), then closes the connection: a client that hangs up mid-upload.
 */
export async function hangUpMidBody(server: RunningServer, headAndBodyStart: string): Promise<void> {
  const url = new URL(server.url);
  const reading = new Promise((resolve) => server.server.once('request', (req: IncomingMessage) => req.once('resume', resolve)));
  const socket = connect(Number(url.port), url.hostname);
  socket.write(headAndBodyStart);
  await reading;
  socket.destroy();
}
