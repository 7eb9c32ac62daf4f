/**
 * The scheme word before a token in its header ("Bearer", "Partner.v1"): an HTTP token (RFC 9110
 * tchar). The same pattern as the profile check's SCHEME_CHARS (electron/profiles/profile-store.ts),
 * so that every scheme a profile may have is kept, readable, in the masked request log.
 */
export const TOKEN_SCHEME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
