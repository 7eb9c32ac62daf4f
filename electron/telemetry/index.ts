export { createTelemetry } from './telemetry';
export type { Telemetry, TelemetryOptions, BudgetEventPayload, RequestLogEventPayload } from './telemetry';
export type { BudgetAggregate } from './aggregate';
export type { LogDetail, LogEntry, LogFilter } from './request-log';
export type { MaskContext, RecordedExchange } from './exchange';
export type { RefillModelHint } from './foreign-use';
export { ForeignUseDetector } from './foreign-use';
export type { TimerClock } from './timer-clock';
export { systemClock } from './timer-clock';
