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

/** An http or https URL given by `option`, without its trailing slashes; a CliError that says what to give (`wanted`) otherwise. */
export function checkedUrl(url: string, option = '--url', wanted = "the server's base URL, e.g. http://127.0.0.1:3000"): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`${option} ${url}: not a URL; give ${wanted}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new CliError(`${option} ${url}: must be an http or https URL`);
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
