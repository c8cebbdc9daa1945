import { createMemorySurveySessions } from './survey-sessions';

const session = (id: string, expiresAt: number) => ({ id, stateJson: `{"for":"${id}"}`, expiresAt });

describe('the in-memory survey sessions', () => {
  test('forgets expired sessions on save, so sessions of callers that drop the cookie do not pile up', async () => {
    const sessions = createMemorySurveySessions();
    await sessions.save(session('old', 2000), 1000, 10);
    await sessions.save(session('kept', 4000), 1500, 10);
    await sessions.save(session('new', 6000), 3000, 10);
    // Asked with a time before either expired, only what the save at 3000 dropped is gone.
    expect(await sessions.get('old', 0)).toBeUndefined();
    expect(await sessions.get('kept', 0)).toEqual(session('kept', 4000));
  });
});
