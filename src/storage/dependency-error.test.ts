import { DatabaseError } from 'pg';
import { DependencyUnavailableError, markingFailures, unavailableDependency } from './dependency-error';

/** The error as a store's repository rethrows it: marked as a failure of `dependency`. */
async function failedThrough(dependency: string, error: unknown): Promise<unknown> {
  const repository = markingFailures(dependency, {
    call: () =>
      Promise.resolve().then(() => {
        throw error;
      }),
  });
  return repository.call().then(
    () => undefined,
    (rethrown: unknown) => rethrown,
  );
}

function databaseError(code: string, message = 'refused'): DatabaseError {
  const error = new DatabaseError(message, 0, 'error');
  error.code = code;
  return error;
}

function redisReply(message: string): Error {
  return Object.assign(new Error(message), { name: 'ReplyError' });
}

describe('unavailableDependency', () => {
  test.each([
    ['a refused connection', 'store', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ["pg's query timeout", 'store', new Error('Query read timeout')],
    ["the pool's connection timeout", 'store', new Error('timeout exceeded when trying to connect')],
    ['a connection the database dropped', 'store', new Error('Connection terminated unexpectedly')],
    ['a statement cancelled at statement_timeout (57014)', 'store', databaseError('57014')],
    ['a database shutting down (57P01)', 'store', databaseError('57P01')],
    ['a connection failure (08006)', 'store', databaseError('08006')],
    ['too many connections (53300)', 'store', databaseError('53300')],
    ["ioredis's closed connection", 'redis', new Error('Connection is closed.')],
    ['Redis loading its data', 'redis', redisReply('LOADING Redis is loading the dataset in memory')],
  ])('names the dependency for %s', async (_case, dependency, error) => {
    expect(unavailableDependency(await failedThrough(dependency, error))).toBe(dependency);
  });

  test.each([
    ['a unique violation (23505)', 'store', databaseError('23505')],
    ['a syntax error in a statement (42601)', 'store', databaseError('42601')],
    ['a Redis reply refusing a command', 'redis', redisReply('WRONGTYPE Operation against a key holding the wrong kind of value')],
    ['a TypeError in the repository', 'store', new TypeError('cannot read properties of undefined')],
    ['a value that is not an error', 'store', 'text'],
  ])('says nothing for %s: a bug, not an outage', async (_case, dependency, error) => {
    expect(unavailableDependency(await failedThrough(dependency, error))).toBeUndefined();
  });

  test('says nothing for an error no store marked', () => {
    expect(unavailableDependency(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBeUndefined();
  });
});

describe('DependencyUnavailableError, for a PostgreSQL that answered and refused the connection', () => {
  test.each([
    [
      // What PostgreSQL answers over password authentication both for a wrong password and for a role that does not exist.
      'a refused password (28P01)',
      databaseError('28P01', 'password authentication failed for user "ivr"'),
      'PostgreSQL (DATABASE_URL) answered but refused the connection: password authentication failed for user "ivr" ' +
        '(the role does not exist or its password is wrong; docs/deployment.md says how to set it up)',
    ],
    [
      'a role that does not exist (28000, over trust or peer authentication)',
      databaseError('28000', 'role "ivr" does not exist'),
      'PostgreSQL (DATABASE_URL) answered but refused the connection: role "ivr" does not exist (docs/deployment.md says how to set it up)',
    ],
    [
      'a database that does not exist (3D000)',
      databaseError('3D000', 'database "ivr" does not exist'),
      'PostgreSQL (DATABASE_URL) answered but refused the connection: database "ivr" does not exist (docs/deployment.md says how to set it up)',
    ],
  ])('names the set-up step to do for %s', (_case, cause, message) => {
    expect(new DependencyUnavailableError('PostgreSQL (DATABASE_URL)', cause).message).toBe(message);
  });
});
