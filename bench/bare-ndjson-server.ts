/**
 * The baseline of the admin import: a bare node:http server that receives an NDJSON body and
 * JSON.parses each line, and nothing more (no validation, no store). What a body of records costs
 * before the import does anything of its own.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

async function parseEachLine(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  let received = 0;
  for (const line of Buffer.concat(chunks).toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    JSON.parse(line);
    received += 1;
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received }));
}

/** Listens on loopback; resolves with the URL records are posted to and a way to stop listening. */
export async function startBareNdjsonServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    parseEachLine(req, res).catch((error: unknown) => res.writeHead(400).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/calls`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
