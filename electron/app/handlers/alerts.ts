/** Alerts: list (firing first), acknowledge, a profile's rules (defaults offered) and saving one. */
import { PartnerError } from '../../../shared/errors';
import type { AppContext } from './context';
import type { HandlerGroup } from './types';

export function alertHandlers(ctx: AppContext): HandlerGroup<'alertsList' | 'alertAcknowledge' | 'alertRules' | 'alertRuleSave'> {
  return {
    async alertsList({ profileId, limit }) {
      if (ctx.alerts.problem) return { items: [], problem: ctx.alerts.problem };
      return { items: ctx.alerts.list({ profileId, limit }), problem: null };
    },
    async alertAcknowledge({ id }) {
      return ctx.alerts.acknowledge(id);
    },
    async alertRules({ profileId }) {
      const id = profileId ?? ctx.connection.current().profileId;
      if (!id) return { profileId: null, rules: [] };
      if (!ctx.demo.isDemo(id) && !ctx.store.get(id)) {
        throw new PartnerError({ code: 'NOT_FOUND', message: `No profile with id "${id}".`, retryable: false });
      }
      return { profileId: id, rules: ctx.alerts.rulesOf(id, ctx.demo.isDemo(id)) };
    },
    async alertRuleSave(rule) {
      return ctx.alerts.saveRule(rule);
    },
  };
}
