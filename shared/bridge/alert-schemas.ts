/**
 * Alerts over the bridge (issue 12 §3): rules per profile, the alerts they raised (stored with start,
 * end and acknowledgement), the calls that list, acknowledge and edit them, and the `alert` event.
 */
import { z } from 'zod';
import { ENDPOINT_IDS } from '../endpoints';

export const alertKindSchema = z.enum(['use-above', 'throttled', 'foreign', 'down', 'download-failed']);
export type AlertKind = z.output<typeof alertKindSchema>;

/** Kinds that watch endpoints (a rule for one endpoint, or null: each endpoint on its own). */
export const ENDPOINT_KINDS: ReadonlySet<AlertKind> = new Set<AlertKind>(['use-above', 'throttled', 'foreign']);

export const alertRuleSchema = z.object({
  id: z.number().int().positive(),
  profileId: z.string().min(1).max(200),
  kind: alertKindSchema,
  /** One endpoint, or null for all (each endpoint fires on its own). Ignored by down / download-failed. */
  endpoint: z.enum(ENDPOINT_IDS).nullable(),
  /** use-above: percent of the limit (1..100). Null for the other kinds. */
  thresholdPct: z.number().min(1).max(100).nullable(),
  /**
   * use-above / down: how long the condition must hold before it fires. throttled / foreign: how long
   * without a new occurrence before it clears. download-failed: unused.
   */
  minutes: z
    .number()
    .min(0)
    .max(24 * 60),
  enabled: z.boolean(),
});
export type AlertRule = z.output<typeof alertRuleSchema>;

/** A rule as edited: no id for a new one. */
export const alertRuleInputSchema = alertRuleSchema.extend({ id: z.number().int().positive().optional() });
export type AlertRuleInput = z.output<typeof alertRuleInputSchema>;

export const alertViewSchema = z.object({
  id: z.number().int(),
  ruleId: z.number().int(),
  profileId: z.string(),
  vendor: z.string(),
  kind: alertKindSchema,
  endpoint: z.string().nullable(),
  /** What happened, in words ("/assets/list above 80% of the limit for 1 min"). */
  message: z.string(),
  startedAt: z.number(),
  /** null while it fires. */
  endedAt: z.number().nullable(),
  acknowledgedAt: z.number().nullable(),
});
export type AlertView = z.output<typeof alertViewSchema>;

export const alertSettingsSchema = z.object({
  /** Quiet mode: alerts are still recorded and shown, but no notification is raised. */
  quiet: z.boolean().optional(),
});
export type AlertSettings = z.output<typeof alertSettingsSchema>;

export const alertEventSchema = z.object({
  change: z.enum(['fired', 'cleared', 'acknowledged']),
  alert: alertViewSchema,
  /** Show a notification for it (a firing alert, the rule's first in 10 minutes, not in quiet mode). */
  notify: z.boolean(),
});
export type AlertEvent = z.output<typeof alertEventSchema>;

const profileRef = z.object({ profileId: z.string().min(1).max(200).optional() });

export const alertCalls = {
  /** Firing alerts first (newest first), then the history, newest first. Default: every profile. */
  alertsList: {
    request: profileRef.extend({ limit: z.number().int().min(1).max(5000).optional() }),
    response: z.object({ items: z.array(alertViewSchema), problem: z.string().nullable() }),
  },
  alertAcknowledge: { request: z.object({ id: z.number().int().positive() }), response: alertViewSchema },
  /** A profile's rules (default: the connected profile); the defaults are offered when it has none yet. */
  alertRules: { request: profileRef, response: z.object({ profileId: z.string().nullable(), rules: z.array(alertRuleSchema) }) },
  alertRuleSave: { request: alertRuleInputSchema, response: alertRuleSchema },
} as const;

export const alertEvents = {
  /** An alert fired, cleared or was acknowledged. */
  alert: alertEventSchema,
} as const;
