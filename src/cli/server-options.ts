import type { Command } from 'commander';
import { loadCliConfig } from '../configuration';
import { ConfigError } from '../config/config-error';
import { AdminClient } from './admin-client';
import { CliError } from './cli-error';

export interface ServerOptions {
  readonly url?: string;
  readonly token?: string;
}

/** The options every command that talks to a running server takes. */
export function withServerOptions(command: Command): Command {
  return command
    .option('--url <url>', 'base URL of the running server (default: PUBLIC_URL, else http://127.0.0.1:3000)')
    .option('--token <token>', 'the admin token the server was started with (default: ADMIN_TOKEN)');
}

function checkedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`--url ${url}: not a URL; give the server's base URL, e.g. http://127.0.0.1:3000`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new CliError(`--url ${url}: must be an http or https URL`);
  return url.replace(/\/+$/, '');
}

export function adminClient(options: ServerOptions, env: NodeJS.ProcessEnv): AdminClient {
  let defaults;
  try {
    defaults = loadCliConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message);
    throw error;
  }
  const token = options.token ?? defaults.adminToken;
  if (token === undefined) {
    throw new CliError('no admin token: pass --token or set ADMIN_TOKEN to the value the server was started with');
  }
  return new AdminClient(checkedUrl(options.url ?? defaults.serverUrl), token);
}
