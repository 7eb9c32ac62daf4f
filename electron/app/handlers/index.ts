/** Every call's handler, by concern. The CallHandlers type refuses a missing or misspelt one. */
import { alertHandlers } from './alerts';
import { catalogHandlers } from './catalog';
import type { AppContext } from './context';
import { curlHandlers } from './curl';
import { downloadHandlers } from './download';
import { fileHandlers } from './files';
import { fleetHandlers } from './fleet';
import { harHandlers } from './har';
import { ledgerHandlers } from './ledger';
import { profileHandlers } from './profiles';
import { purchaseHandlers } from './purchases';
import { serviceMapHandlers } from './service-map';
import { simulatorHandlers } from './simulator';
import { telemetryHandlers } from './telemetry';
import { usageHandlers } from './usage';
import { reportHandlers } from './report';
import { sessionHandlers } from './sessions';
import type { CallHandlers } from './types';

export function createHandlers(ctx: AppContext): CallHandlers {
  return {
    ...catalogHandlers(ctx),
    ...downloadHandlers(ctx),
    ...fileHandlers(ctx),
    ...purchaseHandlers(ctx),
    ...ledgerHandlers(ctx),
    ...profileHandlers(ctx),
    ...serviceMapHandlers(ctx),
    ...simulatorHandlers(ctx),
    ...telemetryHandlers(ctx),
    ...curlHandlers(ctx),
    ...usageHandlers(ctx),
    ...reportHandlers(ctx),
    ...alertHandlers(ctx),
    ...sessionHandlers(ctx),
    ...fleetHandlers(ctx),
    ...harHandlers(ctx),
  };
}

export type { AppContext } from './context';
export type { CallHandler, CallHandlers, HandlerGroup, ParsedRequest } from './types';
