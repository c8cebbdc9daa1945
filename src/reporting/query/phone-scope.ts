import type { Account } from '../../accounts/account';
import { errors } from '../../errors/catalogue';
import type { PhoneScope, Store } from '../../storage/store';
import { ALL_PHONES } from './params';

/**
 * The numbers a query reports on: ALL of the account's, which the store reads with the calls (so only
 * the owner's numbers, as they are then), or one it owns, checked here; only the owner sees a number's data.
 */
export async function phoneScope(store: Store, account: Account, phone: string): Promise<PhoneScope> {
  if (phone === ALL_PHONES) return { ownedBy: account.id };
  const owned = await store.phones.ownedBy(account.id);
  if (!owned.includes(phone)) throw errors.phoneNotOwned(phone);
  return [phone];
}
