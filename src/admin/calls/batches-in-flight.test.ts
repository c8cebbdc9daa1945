import { BatchesInFlight } from './batches-in-flight';
import type { CallRecord } from '../../domain/call-record';
import type { AddCallsResult, CallRepository } from '../../storage/store';

interface PendingAdd {
  readonly callIds: string[];
  readonly resolve: (result: AddCallsResult) => void;
  readonly reject: (error: Error) => void;
}

/** Calls whose adds stay pending until the test settles them, in any order. */
function heldCalls(): { calls: CallRepository; pending: PendingAdd[] } {
  const pending: PendingAdd[] = [];
  const unused = () => Promise.reject(new Error('not used here'));
  const calls: CallRepository = {
    add: (records) =>
      new Promise((resolve, reject) => pending.push({ callIds: records.map((record) => record.callId), resolve, reject })),
    dailyTotals: unused,
    distinctCallers: unused,
    regionTotals: unused,
    formItemTotals: unused,
    prepareMonths: unused,
    dropRawCallsBefore: unused,
    capRetentionHorizon: unused,
  };
  return { calls, pending };
}

const batch = (...callIds: string[]): CallRecord[] =>
  callIds.map((callId) => ({ callId, phone: '15550001', startedAt: 0, logEvents: 0, loops: 0, formItems: 0 }));

const added = (inserted: number): AddCallsResult => ({ inserted, duplicates: 0, unknownPhone: [] });

/** Lets every settled promise run its reactions. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('batches of an import stored side by side', () => {
  test('stores up to the limit at once, and a further batch once one of them is stored', async () => {
    const { calls, pending } = heldCalls();
    const batches = new BatchesInFlight(calls, 2);
    await batches.send(batch('a'), () => undefined);
    await batches.send(batch('b'), () => undefined);
    let thirdSent = false;
    const third = batches.send(batch('c'), () => undefined).then(() => (thirdSent = true));
    await settle();
    expect(pending.map((add) => add.callIds)).toEqual([['a'], ['b']]);
    expect(thirdSent).toBe(false);
    pending[1]?.resolve(added(1));
    await third;
    expect(pending.map((add) => add.callIds)).toEqual([['a'], ['b'], ['c']]);
  });

  test('hands each result on in the order the batches were sent, whatever order they are stored in', async () => {
    const { calls, pending } = heldCalls();
    const batches = new BatchesInFlight(calls, 3);
    const handedOn: number[] = [];
    for (const callId of ['a', 'b', 'c']) await batches.send(batch(callId), (result) => handedOn.push(result.inserted));
    pending[2]?.resolve(added(3));
    pending[1]?.resolve(added(2));
    await settle();
    expect(handedOn).toEqual([]);
    pending[0]?.resolve(added(1));
    await batches.finish();
    expect(handedOn).toEqual([1, 2, 3]);
  });

  test('holds a batch back while one sharing a call id is being stored, so the earlier record is kept', async () => {
    const { calls, pending } = heldCalls();
    const batches = new BatchesInFlight(calls, 3);
    await batches.send(batch('a', 'b'), () => undefined);
    await batches.send(batch('c'), () => undefined);
    const sharing = batches.send(batch('d', 'b'), () => undefined);
    await settle();
    expect(pending.map((add) => add.callIds)).toEqual([['a', 'b'], ['c']]);
    pending[0]?.resolve(added(2));
    await sharing;
    expect(pending.map((add) => add.callIds)).toEqual([['a', 'b'], ['c'], ['d', 'b']]);
  });

  test('hands on a batch of no records in its turn without asking the store', async () => {
    const { calls, pending } = heldCalls();
    const batches = new BatchesInFlight(calls, 2);
    const handedOn: number[] = [];
    await batches.send(batch('a'), (result) => handedOn.push(result.inserted));
    await batches.send([], (result) => handedOn.push(result.inserted));
    expect(pending).toHaveLength(1);
    pending[0]?.resolve(added(1));
    await batches.finish();
    expect(handedOn).toEqual([1, 0]);
  });

  test('after a failure sends nothing more, and rejects once the batches still being stored are done', async () => {
    const { calls, pending } = heldCalls();
    const batches = new BatchesInFlight(calls, 2);
    const handedOn: number[] = [];
    await batches.send(batch('a'), (result) => handedOn.push(result.inserted));
    await batches.send(batch('b'), (result) => handedOn.push(result.inserted));
    pending[0]?.reject(new Error('database gone'));
    await settle();
    let refused = false;
    const next = batches.send(batch('c'), () => undefined).catch((error: Error) => {
      refused = true;
      return error.message;
    });
    await settle();
    expect(refused).toBe(false);
    pending[1]?.resolve(added(1));
    expect(await next).toBe('database gone');
    expect(pending.map((add) => add.callIds)).toEqual([['a'], ['b']]);
    expect(handedOn).toEqual([]);
    await expect(batches.finish()).rejects.toThrow('database gone');
  });
});
