import type { Account } from '../../domain/account';
import { errors } from '../../errors/catalogue';
import type { Store } from '../../storage/store';
import { ALL_PHONES } from './params';

/** The numbers a query reports on: ALL of the account's, or one it owns; only the owner sees a number's data. */
export async function phonesInScope(store: Store, account: Account, phone: string): Promise<readonly string[]> {
  const owned = await store.phones.ownedBy(account.id);
  if (phone === ALL_PHONES) return owned;
  if (!owned.includes(phone)) throw errors.badRequest(`phone ${phone} is not on this account`);
  return [phone];
}
