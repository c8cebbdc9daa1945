import { Command, Option } from 'commander';
import { text } from 'node:stream/consumers';
import type { AccountFields } from '../admin-client';
import { accountTable, describeAccount } from '../account-format';
import { CliError } from '../cli-error';
import { adminClient, withServerOptions, type ServerOptions } from '../server-options';
import { toolArgument } from './account-key';
import type { Tool } from '../../domain/tool';

interface PasswordOptions {
  readonly password?: string;
  readonly passwordStdin?: boolean;
}

interface AccountOptions extends ServerOptions, PasswordOptions {
  readonly timezone?: string;
  readonly active?: boolean;
  readonly inactive?: boolean;
}

function withAccountOptions(command: Command): Command {
  return withServerOptions(
    command
      .addArgument(toolArgument())
      .argument('<login>', 'the account login')
      .option('--password <password>', 'the account password (visible in your shell history: prefer --password-stdin)')
      .addOption(new Option('--password-stdin', 'read the password from the first line of standard input').conflicts('password'))
      .option('--timezone <zone>', 'IANA time zone of its dates and periods, e.g. America/New_York'),
  );
}

/** The password from --password or the first line of standard input; undefined when neither is given. */
async function passwordOf(options: PasswordOptions): Promise<string | undefined> {
  if (options.passwordStdin !== true) return options.password;
  const password = (await text(process.stdin)).split(/\r?\n/)[0] ?? '';
  if (password === '') throw new CliError('--password-stdin: standard input has no password on its first line');
  return password;
}

async function fieldsOf(options: AccountOptions): Promise<AccountFields> {
  const active = options.active === true ? true : options.inactive === true ? false : undefined;
  return { password: await passwordOf(options), timezone: options.timezone, active };
}

export function accountsCommand(env: NodeJS.ProcessEnv): Command {
  const accounts = new Command('accounts').description('create, change, list and delete tool accounts on a running server');

  withAccountOptions(accounts.command('add').description('create an account (fails if it exists; see "accounts set")'))
    .option('--inactive', 'create it deactivated')
    .action(async (tool: Tool, login: string, options: AccountOptions) => {
      const client = adminClient(options, env);
      const fields = await fieldsOf(options);
      if (fields.password === undefined) throw new CliError('a new account needs --password or --password-stdin');
      if ((await client.getAccount(tool, login)) !== undefined) {
        throw new CliError(`account ${tool}/${login} exists already; change it with "accounts set"`);
      }
      process.stdout.write(`created ${describeAccount(await client.putAccount(tool, login, fields))}\n`);
    });

  withAccountOptions(accounts.command('set').description('change the password, time zone or state of an existing account'))
    .option('--active', 'activate it')
    .addOption(new Option('--inactive', 'deactivate it: its temporary credentials stop working at once').conflicts('active'))
    .addHelpText('after', '\nA new password also ends the temporary credentials issued under the old one.')
    .action(async (tool: Tool, login: string, options: AccountOptions) => {
      const client = adminClient(options, env);
      const fields = await fieldsOf(options);
      if ((await client.getAccount(tool, login)) === undefined) {
        throw new CliError(`no account ${tool}/${login}; create it with "accounts add"`);
      }
      process.stdout.write(`updated ${describeAccount(await client.putAccount(tool, login, fields))}\n`);
    });

  withServerOptions(
    accounts
      .command('revoke')
      .description('end every temporary credential of an account at once, changing nothing else (a new password does it too)')
      .addArgument(toolArgument())
      .argument('<login>', 'the account login'),
  ).action(async (tool: Tool, login: string, options: ServerOptions) => {
    const account = await adminClient(options, env).revokeCredentials(tool, login);
    process.stdout.write(`revoked the temporary credentials of ${describeAccount(account)}\n`);
  });

  withServerOptions(
    accounts
      .command('delete')
      .description('delete an account: its numbers are released, their calls and its temporary credentials go with it')
      .addArgument(toolArgument())
      .argument('<login>', 'the account login')
      .addHelpText('after', '\nThe calls cannot be brought back; the same calls imported again count as duplicates.'),
  ).action(async (tool: Tool, login: string, options: ServerOptions) => {
    const client = adminClient(options, env);
    const account = await client.getAccount(tool, login);
    if (account === undefined) throw new CliError(`no account ${tool}/${login}`);
    await client.deleteAccount(tool, login);
    const numbers = account.phones.length === 0 ? 'no numbers' : `numbers ${account.phones.join(', ')} released, their calls deleted`;
    process.stdout.write(`deleted ${tool}/${login} (${numbers})\n`);
  });

  withServerOptions(accounts.command('list').description('list every account with its numbers'))
    .option('--json', 'print the admin API answer as JSON')
    .action(async (options: ServerOptions & { json?: boolean }) => {
      const list = await adminClient(options, env).listAccounts();
      process.stdout.write(options.json === true ? `${JSON.stringify({ accounts: list })}\n` : accountTable(list));
    });

  return accounts;
}
