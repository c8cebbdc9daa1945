import { passwordHasher } from './password-hasher';
import { hashPassword } from './password-hash';
import { AppError } from '../errors/catalogue';

describe('passwordHasher', () => {
  test('checks passwords with at most `concurrency` hashes at once and refuses one past the line with a 503 that says when to retry', async () => {
    const stored = await hashPassword('right password');
    const hasher = passwordHasher({ concurrency: 1, mostWaiting: 1 });
    const running = hasher.verify('right password', stored);
    const waiting = hasher.verify('wrong password', stored);
    const refused = hasher.verify('right password', stored).catch((error: unknown) => error);
    const error = (await refused) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect({ code: error.code, statusCode: error.statusCode, message: error.message, headers: error.headers }).toEqual({
      code: 'IVR_PASSWORD_HASH_LINE_FULL',
      statusCode: 503,
      message: 'too many logins are waiting (PASSWORD_HASH_QUEUE, 1); retry later',
      headers: { 'Retry-After': '1' },
    });
    expect([await running, await waiting]).toEqual([true, false]);
    expect(await hasher.verify('right password', stored)).toBe(true);
  });

  test("drops the check of a client that has gone while it waited, freeing its place, and hashes for the others", async () => {
    const stored = await hashPassword('right password');
    const hasher = passwordHasher({ concurrency: 1, mostWaiting: 1 });
    const gone = new AbortController();
    const running = hasher.hash('a new password');
    const abandoned = hasher.verify('right password', stored, gone.signal);
    gone.abort(new Error('the client closed the connection before the answer'));
    await expect(abandoned).rejects.toThrow('the client closed the connection before the answer');
    const next = hasher.verify('right password', stored);
    expect(await running).toMatch(/^scrypt\$/);
    expect(await next).toBe(true);
  });
});
