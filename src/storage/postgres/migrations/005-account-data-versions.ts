/**
 * A version per account that moves on in the same transaction as any change to what its reports show
 * (calls added, a time-zone change, a number assigned or released), so that every instance can tell a
 * kept report is stale. A row of its own, not a column of accounts: an import holds its accounts FOR
 * SHARE, and two imports raising a column there would each wait for the other's share lock.
 */
export const accountDataVersions = `
CREATE TABLE account_data_versions (
  account_id text PRIMARY KEY,
  version bigint NOT NULL
);
`;
