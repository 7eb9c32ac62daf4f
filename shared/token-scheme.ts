/**
 * The scheme word before a token in its header ("Bearer", "Partner.v1"): an HTTP token (RFC 9110
 * tchar). One pattern for the profile check (electron/profiles/profile-store.ts) and the masked request
 * log, so that every scheme a profile may have is kept, readable, in the log.
 */
export const TOKEN_SCHEME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
