import { Command } from 'commander';
import type { Tool } from '../../domain/tool';
import { adminClient, withServerOptions, type ServerOptions } from '../server-options';
import { toolArgument } from './account-key';

function phoneCommand(name: string, description: string): Command {
  return withServerOptions(
    new Command(name)
      .description(description)
      .addArgument(toolArgument())
      .argument('<login>', 'the account login')
      .argument('<phone...>', 'one or more numbers, 1-15 digits, an optional leading +'),
  );
}

export function phonesCommand(env: NodeJS.ProcessEnv): Command {
  const phones = new Command('phones').summary('assign or release numbers of an account').description("assign numbers to an account or release them; a number's calls go with it");

  phones.addCommand(
    phoneCommand('add', 'assign numbers to an account (a number on another account is refused)').action(
      async (tool: Tool, login: string, numbers: string[], options: ServerOptions) => {
        const client = adminClient(options, env);
        for (const phone of numbers) {
          const { assigned, account } = await client.assignPhone(tool, login, phone);
          process.stdout.write(`${phone} ${assigned ? 'assigned to' : 'was already on'} ${account.tool}/${account.login}\n`);
        }
      },
    ),
  );

  phones.addCommand(
    phoneCommand('remove', 'release numbers from an account').action(
      async (tool: Tool, login: string, numbers: string[], options: ServerOptions) => {
        const client = adminClient(options, env);
        for (const phone of numbers) {
          const account = await client.releasePhone(tool, login, phone);
          process.stdout.write(`${phone} released from ${account.tool}/${account.login}\n`);
        }
      },
    ),
  );

  return phones;
}
