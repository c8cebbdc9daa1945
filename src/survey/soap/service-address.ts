import type { Request } from 'express';

/** `host[:port]` as it must appear in a URL; IPv6 addresses go in brackets. */
function hostForUrl(address: string, port: number): string {
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
}

/**
 * Where the request was sent: its protocol and Host (or the forwarded ones, when TRUST_PROXY trusts
 * the proxy), else the socket's own address, for HTTP/1.0 callers without a Host or with a bad one.
 */
function requestOrigin(req: Request): string {
  const host = req.host as string | undefined;
  if (host !== undefined && host !== '') {
    try {
      return new URL(`${req.protocol}://${host}`).origin;
    } catch {
      // Not a host a URL can hold: fall through to the address the connection actually reached.
    }
  }
  return `${req.protocol}://${hostForUrl(req.socket.localAddress ?? '127.0.0.1', req.socket.localPort ?? 80)}`;
}

/** The address the WSDL advertises, to which clients then post: PUBLIC_URL when set, else this request's origin. */
export function serviceAddress(req: Request, publicUrl: string | undefined, path: string): string {
  return `${publicUrl ?? requestOrigin(req)}${path}`;
}
