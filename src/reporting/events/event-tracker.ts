import { errors } from '../../errors/catalogue';
import type { Account } from '../../domain/account';
import type { Store } from '../../storage/store';
import type { EventQuery } from './params';
import { ALL_PHONES } from './params';
import { periodsOverlapping, type WeekStart } from './periods';
import { buildEventReport, type EventReport } from './report';

export type EventTracker = (account: Account, query: EventQuery) => Promise<EventReport>;

/** The event tracker of section 4.2: only the owner of a number sees its data. */
export function eventTracker(store: Store, weekStart: WeekStart): EventTracker {
  return async (account, query) => {
    const owned = await store.phones.ownedBy(account.id);
    if (query.phone !== ALL_PHONES && !owned.includes(query.phone)) {
      throw errors.badRequest(`phone ${query.phone} is not on this account`);
    }
    const phones = query.phone === ALL_PHONES ? owned : [query.phone];
    const spans = periodsOverlapping(query.from, query.to, query.period, weekStart);
    const days = await store.calls.dailyTotals(phones, query.from, query.to);
    return buildEventReport(spans, account.timeZone, days);
  };
}
