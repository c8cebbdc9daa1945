/**
 * Whether the server process is shutting down: set at SIGTERM or SIGINT (src/server-process.ts), read by GET
 * /readyz, which then answers 503. With SHUTDOWN_DRAIN_SECONDS the server keeps serving that long
 * first, so that a load balancer takes the instance out of rotation before it stops accepting.
 */
export interface ShutdownState {
  readonly shuttingDown: boolean;
  begin(): void;
}

export function shutdownState(): ShutdownState {
  let shuttingDown = false;
  return {
    get shuttingDown() {
      return shuttingDown;
    },
    begin: () => {
      shuttingDown = true;
    },
  };
}
