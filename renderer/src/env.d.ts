/// <reference types="vite/client" />
// The type of window.partner is the bridge type generated from the contract (never written twice).
import type { PartnerBridge } from '../../shared/bridge/api';

declare global {
  interface Window {
    /** Present in the desktop app (exposed by the preload); absent in browser mode. */
    partner?: PartnerBridge;
  }
}

export {};
