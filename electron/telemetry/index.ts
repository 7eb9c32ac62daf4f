export { createTelemetry } from './telemetry';
export type { Telemetry, TelemetryOptions, BudgetEventPayload, RequestLogEventPayload } from './telemetry';
export type { BudgetAggregate } from './aggregate';
export type { ExportedEntry, LogDetail, LogEntry, LogFilter } from './request-log';
export type { MaskContext, RecordedExchange } from './exchange';
export type { RefillModelHint } from './foreign-use';
export { ForeignUseDetector } from './foreign-use';
/** Kept for importers of the old name: the shared clock interface. */
export type { Clock as TimerClock } from '../../shared/clock';
