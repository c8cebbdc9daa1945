import proxyAddr from 'proxy-addr';
import { z } from 'zod';
import { integer, oneOf, optionalText, publicUrl } from '../config/variables';

/** Express's own reading of `trust proxy`, checked here with the library it uses, so a typo stops the start by name. */
const trustProxy = z
  .string()
  .trim()
  .transform((value, context): boolean | number | string => {
    if (value === 'true') return true;
    if (value === 'false' || value === '') return false;
    if (/^\d+$/.test(value)) return Number(value);
    try {
      proxyAddr.compile(value.split(',').map((entry) => entry.trim()));
    } catch {
      context.addIssue({
        code: 'custom',
        message:
          'must be true, false, a number of proxy hops, or a comma-separated list of addresses, subnets, loopback, linklocal or uniquelocal',
      });
      return z.NEVER;
    }
    return value;
  });

/** Whether TRUST_PROXY says a proxy stands in front: then every connection comes from it. */
function behindProxy(trusted: boolean | number | string): boolean {
  return trusted !== false && trusted !== 0;
}

/** Kestrel's MinRequestBodyDataRate: 240 bytes/s, measured over 5-second windows. */
const DEFAULT_MINIMUM_BODY_RATE = { bytesPerSecond: 240, windowSeconds: 5 } as const;
/** Per client address, when the server is not behind a proxy (TRUST_PROXY=false). */
const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 100;

/** The HTTP server: where it listens, what it is called, who stands in front of it, and how it treats connections. */
export const serverSettings = z
  .object({
    PORT: integer(0, 65535).default(3000),
    HOST: z.string().trim().min(1).default('127.0.0.1'),
    LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    NODE_ENV: optionalText,
    PUBLIC_URL: publicUrl,
    TRUST_PROXY: trustProxy.default(false),
    REQUEST_IDLE_TIMEOUT_SECONDS: integer(1, 3600).default(30),
    MIN_BODY_RATE_BYTES_PER_SECOND: integer(0, 1_000_000_000).default(DEFAULT_MINIMUM_BODY_RATE.bytesPerSecond),
    MIN_BODY_RATE_WINDOW_SECONDS: integer(1, 3600).default(DEFAULT_MINIMUM_BODY_RATE.windowSeconds),
    MAX_CONNECTIONS_PER_ADDRESS: integer(0, 1_000_000).optional(),
  })
  .transform((variables) => ({
    port: variables.PORT,
    host: variables.HOST,
    logLevel: variables.LOG_LEVEL,
    /** NODE_ENV=production: a deployment, where settings left to their development defaults are warned of. */
    production: variables.NODE_ENV === 'production',
    /** The address clients reach the server at (the WSDL's soap:address, the document's server); unset: each request's own. */
    publicUrl: variables.PUBLIC_URL,
    trustProxy: variables.TRUST_PROXY,
    /**
     * How long a connection may send nothing while its request's headers or body are still arriving;
     * then it gets a 400 and is closed. A long upload that keeps sending is never cut.
     */
    requestIdleTimeoutSeconds: variables.REQUEST_IDLE_TIMEOUT_SECONDS,
    /**
     * The least rate of a request body, on average over each window: a body that brings less in a window
     * is answered 408 (400 on the reporting API) and its connection closed. 0 bytes/s: no least rate.
     */
    minimumBodyRate: { bytesPerSecond: variables.MIN_BODY_RATE_BYTES_PER_SECOND, windowSeconds: variables.MIN_BODY_RATE_WINDOW_SECONDS },
    /**
     * Connections open at once from one client address; past it a new one gets a 429 and is closed. 0: no
     * cap. Unset: 100, or no cap behind a proxy (TRUST_PROXY set), where every connection is the proxy's.
     */
    maxConnectionsPerAddress:
      variables.MAX_CONNECTIONS_PER_ADDRESS ?? (behindProxy(variables.TRUST_PROXY) ? 0 : DEFAULT_MAX_CONNECTIONS_PER_ADDRESS),
  }));

export type ServerSettings = z.output<typeof serverSettings>;
