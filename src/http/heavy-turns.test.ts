import { heavyTurns } from './heavy-turns';

describe('heavyTurns', () => {
  test('lets the first heavy step of a turn go at once, and the others one per later turn, in the order they asked', async () => {
    const turns = heavyTurns();
    const order: string[] = [];
    await turns.take();
    const second = turns.take().then(() => {
      order.push('second');
      // Queued in the turn the second step ran in: it runs before the turn of the third ends.
      setImmediate(() => order.push('after the second'));
    });
    const third = turns.take().then(() => order.push('third'));
    setImmediate(() => order.push('the rest of the first turn'));
    await Promise.all([second, third]);
    expect(order).toEqual(['the rest of the first turn', 'second', 'after the second', 'third']);
  });

  test('lets a heavy step go at once again once a turn has passed without one', async () => {
    const turns = heavyTurns();
    await turns.take();
    await turns.take();
    await new Promise<void>((resolve) => setImmediate(() => setImmediate(() => setImmediate(resolve))));
    let resolved = false;
    const next = turns.take().then(() => (resolved = true));
    await Promise.resolve();
    expect(resolved).toBe(true);
    await next;
  });
});
