/** App services: the composition root that both shells (Electron and browser mode) call. */
export { createAppServices } from './services';
export type { AppEnvironment, AppServices, AppLog, AppLogLevel } from './environment';
export type { TokenVault, TokenStorageKind } from './token-vault';
export { memoryVault } from './token-vault';
export { createDispatcher, describeIssues } from './dispatcher';
export type { Dispatch } from './dispatcher';
export type { CallHandler, CallHandlers } from './handlers';
export { DEMO_PROFILE_ID } from './embedded-demo';
