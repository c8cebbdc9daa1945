/**
 * Credential generations: a password change or a revocation moves the account's generation on, and a
 * temporary credential works only under the generation it was issued in.
 */
export const credentialGenerations = `
ALTER TABLE accounts ADD COLUMN credential_generation integer NOT NULL DEFAULT 0;
ALTER TABLE temporary_credentials ADD COLUMN generation integer NOT NULL DEFAULT 0;
`;
