/**
 * Lets at most one heavy step run per turn of the event loop, for all the requests of an app (one per
 * process). `take` resolves at once when
 * no heavy step ran in this turn, else in a later turn, one waiter per turn, first come first served.
 *
 * Why: the last piece of a large form makes its parser join and decode every field and file it holds
 * (busboy's field end, a recording's bytes): some milliseconds per 10 MB. Twenty uploads that end
 * together would do all of it in one turn, and every other request (a report, a probe) would wait for
 * the lot; one per turn, they wait for one.
 */
export interface HeavyTurns {
  take(): Promise<void>;
}

export function heavyTurns(): HeavyTurns {
  let takenThisTurn = false;
  const waiting: Array<() => void> = [];

  // An immediate queued from inside an immediate runs in the next turn, after its timers and I/O: the
  // turn is over when the second of these runs.
  function endTurnLater(): void {
    setImmediate(() => setImmediate(endTurn));
  }

  function endTurn(): void {
    const next = waiting.shift();
    takenThisTurn = next !== undefined;
    if (next === undefined) return;
    next();
    endTurnLater();
  }

  return {
    take() {
      if (!takenThisTurn) {
        takenThisTurn = true;
        endTurnLater();
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
  };
}
