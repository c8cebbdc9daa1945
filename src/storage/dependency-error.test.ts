import { DatabaseError } from 'pg';
import { markingFailures, unavailableDependency } from './dependency-error';

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

function databaseError(code: string): DatabaseError {
  const error = new DatabaseError('refused', 0, 'error');
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
