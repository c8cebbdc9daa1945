import type { Account } from '../../accounts/account';
import { errors } from '../../errors/catalogue';
import type { PhoneScope } from '../../storage/store';
import { ALL_PHONES } from './params';

/** The number a report asks the store about its ownership: none for ALL. */
export const askedPhone = (phone: string): string | undefined => (phone === ALL_PHONES ? undefined : phone);

/**
 * The numbers a query reports on: ALL of the account's, which the store reads with the calls (so only
 * the owner's numbers, as they are then), or one it owns (`ownsPhone`, as the store's report basis
 * says); only the owner sees a number's data.
 */
export function phoneScope(account: Account, phone: string, ownsPhone: boolean): PhoneScope {
  if (phone === ALL_PHONES) return { ownedBy: account.id };
  if (!ownsPhone) throw errors.phoneNotOwned(phone);
  return [phone];
}
