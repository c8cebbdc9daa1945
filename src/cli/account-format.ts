import type { AccountView } from '../admin/accounts/account-admin';

/** One account on one line, as `accounts` and `phones` print it. */
export function describeAccount(account: AccountView): string {
  const numbers = account.phones.length === 0 ? 'no numbers' : `numbers ${account.phones.join(', ')}`;
  return `${account.tool}/${account.login}  ${account.active ? 'active' : 'inactive'}  ${account.timezone}  ${numbers}`;
}

const HEADER = ['TOOL', 'LOGIN', 'ACTIVE', 'TIMEZONE', 'NUMBERS'] as const;

/** Accounts as a table with a header row, columns padded to their widest cell. */
export function accountTable(accounts: readonly AccountView[]): string {
  const rows: string[][] = [
    [...HEADER],
    ...accounts.map((account) => [account.tool, account.login, account.active ? 'yes' : 'no', account.timezone, account.phones.join(',')]),
  ];
  const widths = HEADER.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const lines = rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd());
  return `${lines.join('\n')}\n`;
}
