export { ProfileStore, toView, normalizeBaseUrl, DEFAULT_TIMEOUT_MS, DEFAULT_MAX_RESPONSE_MIB } from './profile-store';
export type { ProfileStoreOptions } from './profile-store';
export type { ProfileInput, ProfileInputDraft, ProfileRecord, ProfileView, Settings, StoredProfile, StoredToken, TokenPresentation } from './profile-types';
export { sameConnection } from './profile-types';
export { SETTINGS_FILE_NAME } from './settings-file';
export { maskToken, redactText } from './mask-token';
