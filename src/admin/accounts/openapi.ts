import { JSON_TYPE, jsonOnly } from '../../http/openapi/components';
import type { AdminAnswers, AdminOperation } from '../../http/openapi/admin-operation';
import type { ExampleExchange, ExampleSession } from '../../http/openapi/examples';
import { ISSUED_LOGIN_EXAMPLE } from '../../reporting/auth/openapi';
import { accountViewSchema, expiredCredentialsSchema } from './account-admin';
import { accountChangesSchema, accountPathSchema, accountPhonePathSchema } from './params';
import { accountListSchema } from './routes';

/** /admin/accounts: the accounts, their numbers and their temporary credentials. */
export function accountOperations({ limited, json, failure }: AdminAnswers): AdminOperation[] {
  const account = (description: string) => json(description, accountViewSchema);
  return [
    {
      method: 'get',
      path: '/admin/accounts',
      operationId: 'listAccounts',
      summary: 'Every account',
      description: 'Ordered by tool, then login; never a password, a hash or a credential.',
      responses: { 200: json('The accounts', accountListSchema) },
    },
    {
      method: 'get',
      path: '/admin/accounts/{tool}/{login}',
      operationId: 'getAccount',
      summary: 'One account',
      request: { params: accountPathSchema },
      responses: { 200: account('The account'), 400: failure('An invalid tool or login'), 404: failure('No such account') },
    },
    {
      method: 'put',
      path: '/admin/accounts/{tool}/{login}',
      operationId: 'putAccount',
      summary: 'Create or change an account',
      description:
        'Creates the account (a password is required) or changes the fields given. Deactivating takes effect at once; a new password ' +
        "ends every temporary credential issued under the old one; a new time zone re-buckets the account's calls before the answer.",
      request: { params: accountPathSchema, body: { required: false, content: jsonOnly(accountChangesSchema) } },
      responses: {
        200: account('Changed (an empty body changes nothing)'),
        201: {
          description: 'Created',
          headers: {
            ...limited,
            Location: { description: 'The account: /admin/accounts/{tool}/{login}', required: true, schema: { type: 'string' } },
          },
          content: jsonOnly(accountViewSchema),
        },
        400: failure('An invalid field (named), an unknown field, a time zone the server does not know (an IANA name such as America/New_York), a body that is not a JSON object, or no password to create'),
        415: failure('A body in another type than application/json'),
      },
    },
    {
      method: 'delete',
      path: '/admin/accounts/{tool}/{login}',
      operationId: 'deleteAccount',
      summary: 'Delete an account',
      description:
        'Deletes the account and, in the same step, what is its own: its numbers are released (free for another account), the calls ' +
        'of those numbers go with their daily totals, and its temporary credentials get 401 at once, as POST /api/auth does its login. ' +
        'The ids of its calls stay known: the same calls imported again are counted as duplicates. Deleting it again answers 404.',
      request: { params: accountPathSchema },
      responses: {
        204: { description: 'Deleted', headers: { ...limited } },
        400: failure('An invalid tool or login'),
        404: failure('No such account'),
      },
    },
    {
      method: 'delete',
      path: '/admin/accounts/{tool}/{login}/credentials',
      operationId: 'revokeCredentials',
      summary: "Revoke the account's temporary credentials",
      description: 'Every pair issued so far gets 401 at once, for good; POST /api/auth issues new ones. Nothing else changes.',
      request: { params: accountPathSchema },
      responses: { 200: account('Revoked'), 400: failure('An invalid tool or login'), 404: failure('No such account') },
    },
    {
      method: 'post',
      path: '/admin/accounts/{tool}/{login}/credentials/expire',
      operationId: 'expireCredentials',
      summary: "Expire the account's temporary credentials now",
      description:
        'For testing a client: the next data request with any pair issued so far gets the 401 of credentials unused for ' +
        'CREDENTIAL_TTL_SECONDS, and the client must authenticate again. The same step as DELETE on the credentials, ' +
        'answered with the credentials that worked until now: the login of each and when it would have expired, never a password.',
      request: { params: accountPathSchema },
      responses: {
        200: json('Expired: the credentials ended (none: 0 and an empty list)', expiredCredentialsSchema),
        400: failure('An invalid tool or login'),
        404: failure('No such account'),
      },
    },
    {
      method: 'put',
      path: '/admin/accounts/{tool}/{login}/phones/{phone}',
      operationId: 'assignPhone',
      summary: 'Assign a number to an account',
      description: "The number's calls go with it: they are reported to the account, in its time zone.",
      request: { params: accountPhonePathSchema },
      responses: {
        200: account('The account had the number already'),
        201: account('Assigned'),
        400: failure('An invalid tool, login or phone number'),
        404: failure('No such account'),
        409: failure('The number is on another account: release it there first'),
      },
    },
    {
      method: 'delete',
      path: '/admin/accounts/{tool}/{login}/phones/{phone}',
      operationId: 'releasePhone',
      summary: 'Release a number',
      description: 'While a number is on no account, calls for it are refused.',
      request: { params: accountPhonePathSchema },
      responses: {
        200: account('Released'),
        400: failure('An invalid tool, login or phone number'),
        404: failure('No such account, or the number is not on it'),
      },
    },
  ];
}

/** The session's account in the admin API: made and given its number first, looked at once its calls are in, and undone and deleted at the end. */
export interface AccountExamples {
  readonly setUp: ExampleExchange[];
  readonly shown: ExampleExchange[];
  readonly undone: ExampleExchange[];
}

export function accountExamples({ account: { tool, login, password, timeZone, phone }, days }: ExampleSession): AccountExamples {
  const account = { tool, login };
  return {
    setUp: [
      {
        name: 'create',
        summary: 'Create the account',
        operationId: 'putAccount',
        params: account,
        body: { mediaType: JSON_TYPE, value: { password, timezone: timeZone } },
        response: {
          status: 201,
          mediaType: JSON_TYPE,
          headers: { Location: `/admin/accounts/${tool}/${login}` },
          body: { tool, login, active: true, timezone: timeZone, phones: [] },
        },
      },
      {
        name: 'assign',
        summary: 'Assign a number',
        operationId: 'assignPhone',
        params: { ...account, phone },
        response: { status: 201, mediaType: JSON_TYPE, body: { tool, login, active: true, timezone: timeZone, phones: [phone] } },
      },
    ],
    shown: [
      {
        name: 'show',
        summary: 'The account',
        operationId: 'getAccount',
        params: account,
        response: { status: 200, mediaType: JSON_TYPE, body: { tool, login, active: true, timezone: timeZone, phones: [phone] } },
      },
      {
        name: 'list',
        summary: 'Every account',
        operationId: 'listAccounts',
        response: { status: 200, mediaType: JSON_TYPE, body: { accounts: [{ tool, login, active: true, timezone: timeZone, phones: [phone] }] } },
      },
      {
        name: 'unknownAccount',
        summary: 'An account that does not exist',
        operationId: 'getAccount',
        params: { tool, login: 'nobody' },
        response: { status: 404, mediaType: JSON_TYPE, body: { error: `no account ${tool}/nobody` } },
      },
      {
        name: 'withoutToken',
        summary: 'No admin token',
        operationId: 'listAccounts',
        withoutCredentials: true,
        response: {
          status: 401,
          mediaType: JSON_TYPE,
          headers: { 'WWW-Authenticate': 'Bearer realm="ivr-reporting admin"' },
          body: { error: 'missing or wrong admin token; send Authorization: Bearer <ADMIN_TOKEN>' },
        },
      },
    ],
    undone: [
      {
        name: 'expire',
        summary: "Expire the account's temporary credentials: the session's pair",
        operationId: 'expireCredentials',
        params: account,
        response: {
          status: 200,
          mediaType: JSON_TYPE,
          drawnAtRandom: true,
          // The session's pair, issued the day after the second and so expiring the day after that.
          body: {
            expired: 1,
            credentials: [{ login: ISSUED_LOGIN_EXAMPLE, expires_at: new Date(days.second.plus({ days: 2 }).toMillis()).toISOString() }],
          },
        },
      },
      {
        name: 'revoke',
        summary: "Revoke the account's temporary credentials",
        operationId: 'revokeCredentials',
        params: account,
        response: { status: 200, mediaType: JSON_TYPE, body: { tool, login, active: true, timezone: timeZone, phones: [phone] } },
      },
      {
        name: 'release',
        summary: 'Release the number',
        operationId: 'releasePhone',
        params: { ...account, phone },
        response: { status: 200, mediaType: JSON_TYPE, body: { tool, login, active: true, timezone: timeZone, phones: [] } },
      },
      {
        name: 'notOnAccount',
        summary: 'A number the account does not have',
        operationId: 'releasePhone',
        params: { ...account, phone },
        response: { status: 404, mediaType: JSON_TYPE, body: { error: `phone ${phone} is not on account ${tool}/${login}` } },
      },
      {
        name: 'deactivate',
        summary: 'Deactivate the account',
        operationId: 'putAccount',
        params: account,
        body: { mediaType: JSON_TYPE, value: { active: false } },
        response: { status: 200, mediaType: JSON_TYPE, body: { tool, login, active: false, timezone: timeZone, phones: [] } },
      },
      { name: 'delete', summary: 'Delete the account', operationId: 'deleteAccount', params: account, response: { status: 204 } },
      {
        name: 'deleteAgain',
        summary: 'Delete it again',
        operationId: 'deleteAccount',
        params: account,
        response: { status: 404, mediaType: JSON_TYPE, body: { error: `no account ${tool}/${login}` } },
      },
    ],
  };
}
