import type { PathStep, PathStepCounters } from '../../domain/call-record';
import { AGENT_QUEUE, JOURNEY_LIST, type FormItem, type FormItemBehaviour, type Journey } from './ivr-application';
import { between, pickWeighted, type Random } from './random';

/** Share of calls that hang up during the greeting, before any form item. */
const HANG_UP_SHARE = 0.12;
/** Failed answers in a row after which the application stops asking and puts the caller through. */
const MAX_ATTEMPTS = 3;
/** Chance that the caller hangs up during any one visit of a form item. */
const DISCONNECT_SHARE = 0.02;
const NOINPUT_TIMEOUT_SECONDS = 5;
/** Share of transferred calls that the agent passes on to a colleague, a second transfer. */
const PASSED_ON_SHARE = 0.12;

/** Counted up as the caller walks through an item. */
type StepCounters = { -readonly [Counter in keyof PathStepCounters]: number };

/** One call as it goes through the application; `steps` keeps the order it first reached each form item. */
export interface CallWalk {
  readonly random: Random;
  readonly steps: Map<FormItem, StepCounters>;
  seconds: number;
  logEvents: number;
  transfers: number;
  transferSeconds: number;
}

function countersOf(walk: CallWalk, item: FormItem): StepCounters {
  const known = walk.steps.get(item);
  if (known !== undefined) return known;
  const counters = { visits: 0, filled: 0, nomatch: 0, noinput: 0, transfer: 0, disconnect: 0 };
  walk.steps.set(item, counters);
  return counters;
}

type VisitResult = 'filled' | 'nomatch' | 'noinput' | 'disconnect';

function visitResult(random: Random, { nomatchShare, noinputShare }: FormItemBehaviour): VisitResult {
  const chance = random();
  if (chance < DISCONNECT_SHARE) return 'disconnect';
  if (chance < DISCONNECT_SHARE + nomatchShare) return 'nomatch';
  return chance < DISCONNECT_SHARE + nomatchShare + noinputShare ? 'noinput' : 'filled';
}

function visitSeconds(random: Random, { promptSeconds }: FormItemBehaviour, result: VisitResult): number {
  if (result === 'disconnect') return promptSeconds * random();
  return promptSeconds + (result === 'noinput' ? NOINPUT_TIMEOUT_SECONDS : between(random, 1.5, 6));
}

/** Each visit logs its prompt and its result; an answer not understood or not given brings the item round again. */
function visitUntilDone(walk: CallWalk, item: FormItem): VisitResult {
  const counters = countersOf(walk, item);
  for (let attempt = 1; ; attempt += 1) {
    const result = visitResult(walk.random, item.behaviour);
    counters.visits += 1;
    counters[result] += 1;
    walk.seconds += visitSeconds(walk.random, item.behaviour, result);
    walk.logEvents += 2;
    if (result === 'filled' || result === 'disconnect' || attempt === MAX_ATTEMPTS) return result;
  }
}

/** Time on hold and with the agent: a few minutes, now and then much longer. */
function agentSeconds(random: Random): number {
  return between(random, 30, 120) + 60 + 480 * random() * random();
}

function transfer(walk: CallWalk): void {
  const seconds = agentSeconds(walk.random);
  walk.transfers += 1;
  walk.transferSeconds += seconds;
  walk.seconds += seconds;
  walk.logEvents += 1;
}

/** The transfer item is filled by the transfer it makes. */
function putThroughToAgent(walk: CallWalk): void {
  const counters = countersOf(walk, AGENT_QUEUE);
  counters.visits += 1;
  counters.filled += 1;
  counters.transfer += 1;
  walk.seconds += AGENT_QUEUE.behaviour.promptSeconds;
  walk.logEvents += 2;
  transfer(walk);
  // The agent's own transfer happens outside the application, so the path does not count it.
  if (walk.random() < PASSED_ON_SHARE) transfer(walk);
}

function followJourney(walk: CallWalk, journey: Journey): void {
  for (const item of journey.items) {
    const result = visitUntilDone(walk, item);
    if (result === 'disconnect') return;
    if (result !== 'filled') {
      putThroughToAgent(walk);
      return;
    }
  }
  if (walk.random() < journey.agentShare) putThroughToAgent(walk);
  else walk.seconds += between(walk.random, ...journey.informationSeconds);
}

function hungUpCall(random: Random): CallWalk {
  return {
    random,
    steps: new Map(),
    seconds: between(random, 2, 12),
    logEvents: 1 + Math.floor(random() * 2),
    transfers: 0,
    transferSeconds: 0,
  };
}

/** The greeting, then the journey; its two log events are the call's start and end. */
function answeredCall(random: Random, journeyWeights: readonly number[]): CallWalk {
  const walk: CallWalk = { random, steps: new Map(), seconds: between(random, 5, 9), logEvents: 2, transfers: 0, transferSeconds: 0 };
  const journey = JOURNEY_LIST[pickWeighted(random, journeyWeights)];
  if (journey === undefined) throw new RangeError('there are journeys');
  followJourney(walk, journey);
  return walk;
}

/** `journeyWeights` follows JOURNEY_LIST: each phone has its own mix. */
export function walkCall(random: Random, journeyWeights: readonly number[]): CallWalk {
  return random() < HANG_UP_SHARE ? hungUpCall(random) : answeredCall(random, journeyWeights);
}

export function pathOf(walk: CallWalk): PathStep[] {
  const path: PathStep[] = [];
  for (const [{ application, page, form, item }, counters] of walk.steps) {
    const { visits, filled, nomatch, noinput, transfer, disconnect } = counters;
    path.push({ application, page, form, item, visits, filled, nomatch, noinput, transfer, disconnect });
  }
  return path;
}

export function visitsOf(walk: CallWalk): number {
  let visits = 0;
  for (const counters of walk.steps.values()) visits += counters.visits;
  return visits;
}
