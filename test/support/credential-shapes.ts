// The shapes tests check credentials against: an API key and a client secret as issued, a hash as
// stored. Production never asks (a presented key is looked up by its hash, whatever it looks like), so
// these checks live with the tests.
import { apiKeyPrefix, clientSecretPrefix } from '../../services/clients/credentials.ts';

/** The prefix and 256 random bits in unpadded base64url (43 characters). */
const issued = (prefix: string) => new RegExp(`^${prefix}[A-Za-z0-9_-]{43}$`);

export const looksLikeApiKey = (value: string): boolean => issued(apiKeyPrefix).test(value);
export const looksLikeClientSecret = (value: string): boolean => issued(clientSecretPrefix).test(value);

/** A hash in the stored form, "sha256$<64 hex>": what may be written where a credential is kept. */
export const isStoredHash = (value: string): boolean => /^sha256\$[0-9a-f]{64}$/.test(value);
