import type { Account } from '../../accounts/account';
import { rebuildFrom } from '../rebuild-from';
import { regionOfCaller, type Region } from '../../domain/caller-region';
import { isAccountPhones, type PhoneScope, type TemporaryCredential } from '../store';
import { CallIdSet } from './call-id-set';
import { CallerTable } from './caller-table';
import { CallHistory } from './call-history';
import { CallRollups } from './call-rollups';
import { FormItemTable } from './form-item-table';

/**
 * The parts of the memory store's calls that a benchmark puts a stand-in of in place of, one at a time, to
 * measure what each costs an import (bench/import-pieces.ts); a store is made of the defaults.
 */
export interface MemoryStoreParts {
  /** Where a new caller is placed; regionOfCaller. */
  readonly placeCaller?: (caller: string) => Region;
  /** The form items' ids; a FormItemTable. */
  readonly formItems?: FormItemTable;
  /** The rollups kept as calls arrive, over the store's callers, form items and history; CallRollups. */
  readonly rollups?: (callers: CallerTable, formItems: FormItemTable, history: CallHistory) => CallRollups;
}

/**
 * What the memory store's accounts, phones and calls share, as the PostgreSQL repositories share their
 * database: an account's time-zone change or a number's assignment rebuilds rollups from the calls, and
 * each of those changes, like calls added, moves the account's data version.
 */
export class MemoryData {
  readonly accounts = new Map<string, Account>();
  readonly phoneOwner = new Map<string, string>();
  readonly phonesByAccount = new Map<string, Set<string>>();
  /** Temporary credentials by login. */
  readonly credentials = new Map<string, TemporaryCredential>();
  readonly callIds = new CallIdSet();
  readonly callers: CallerTable;
  readonly formItems: FormItemTable;
  readonly history = new CallHistory();
  readonly rollups: CallRollups;
  private readonly phoneIndexes = new Map<string, number>();
  private readonly dataVersions = new Map<string, number>();
  /** The instant before which retention dropped calls; undefined while it dropped none. */
  private retentionHorizon: number | undefined;

  constructor({ placeCaller = regionOfCaller, formItems = new FormItemTable(), rollups }: MemoryStoreParts = {}) {
    this.callers = new CallerTable(placeCaller);
    this.formItems = formItems;
    this.rollups = rollups === undefined ? new CallRollups(this.callers, formItems, this.history) : rollups(this.callers, formItems, this.history);
  }

  phoneIndexOf(phone: string): number {
    let index = this.phoneIndexes.get(phone);
    if (index === undefined) {
      index = this.phoneIndexes.size;
      this.phoneIndexes.set(phone, index);
    }
    return index;
  }

  /** The indexes of the numbers in scope that have calls. */
  scopeIndexes(scope: PhoneScope): number[] {
    return this.knownPhoneIndexes(isAccountPhones(scope) ? (this.phonesByAccount.get(scope.ownedBy) ?? []) : scope);
  }

  /**
   * One pass over the call history, however many of the phones it rebuilds; once retention dropped calls,
   * only the days from the first whole local day of the calls kept (rebuild-from.ts).
   */
  rebuildRollups(phones: Iterable<string>, timeZone: string): void {
    const indexes = new Set(this.knownPhoneIndexes(phones));
    if (indexes.size === 0) return;
    const from = rebuildFrom(this.retentionHorizon, timeZone);
    for (const index of indexes) this.rollups.forget(index, from?.day);
    const firstMs = from?.startMs ?? Number.NEGATIVE_INFINITY;
    this.history.forEachCallOf(indexes, (call) => {
      if (call.startedAt >= firstMs) this.rollups.add(call, timeZone);
    });
  }

  /** Retention: the calls that started before `cutoffMs` go unless `dryRun` (their ids stay in callIds), counted by month. */
  dropCallsBefore(cutoffMs: number, dryRun: boolean): Map<number, number> {
    const dropped = this.history.dropBefore(cutoffMs, dryRun);
    if (!dryRun && dropped.size > 0) this.retentionHorizon = Math.max(this.retentionHorizon ?? cutoffMs, cutoffMs);
    return dropped;
  }

  /** CallRepository.capRetentionHorizon. */
  capRetentionHorizon(latestMs: number): number | undefined {
    const horizon = this.retentionHorizon;
    if (horizon === undefined || horizon <= latestMs) return undefined;
    this.retentionHorizon = latestMs;
    return horizon;
  }

  /**
   * AccountRepository.remove: the account, its numbers, their calls and rollups, and its credentials go;
   * its data version moves on and stays; the calls' ids stay in callIds. Returns whether it existed.
   */
  removeAccount(accountId: string): boolean {
    if (!this.accounts.delete(accountId)) return false;
    const phones = this.phonesByAccount.get(accountId) ?? new Set<string>();
    this.phonesByAccount.delete(accountId);
    for (const phone of phones) this.phoneOwner.delete(phone);
    const indexes = new Set(this.knownPhoneIndexes(phones));
    this.history.dropPhones(indexes);
    for (const index of indexes) this.rollups.forget(index);
    for (const [login, credential] of this.credentials) {
      if (credential.accountId === accountId) this.credentials.delete(login);
    }
    this.dataChanged(accountId);
    return true;
  }

  dataVersion(accountId: string): number {
    return this.dataVersions.get(accountId) ?? 0;
  }

  dataChanged(accountId: string): void {
    this.dataVersions.set(accountId, this.dataVersion(accountId) + 1);
  }

  /** The indexes of those phones that have calls. */
  private knownPhoneIndexes(phones: Iterable<string>): number[] {
    const indexes: number[] = [];
    for (const phone of phones) {
      const index = this.phoneIndexes.get(phone);
      if (index !== undefined) indexes.push(index);
    }
    return indexes;
  }
}
