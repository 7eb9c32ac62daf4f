/**
 * Runs an endpoint's action in a dialect: the request read into the canonical one, the one action,
 * the 200 answer written in the dialect. Errors (400, 404, 409) keep the service's one error shape;
 * a 400's message names the dialect's own parameters.
 */
import { runAction } from '../actions';
import type { ActionContext, ActionResult, BodyInput } from '../actions';
import type { ErrorBody } from '../http-io';
import { inDialectNames } from './messages';
import { canonicalRequest } from './request';
import type { AnswerTable, CanonicalAnswers, Dialect } from './types';

/** The body as a JSON object; {} when there is none; null when it is not one (the action then says 400). */
function bodyObject(body: BodyInput): Record<string, unknown> | null {
  if (body.kind === 'none') return {};
  if (body.kind === 'too-large') return null;
  if (body.text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(body.text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function answerIn<E extends keyof CanonicalAnswers>(answers: AnswerTable, endpoint: E, body: unknown, query: URLSearchParams): unknown {
  return answers[endpoint](body as CanonicalAnswers[E], query);
}

export function runInDialect(dialect: Dialect, ctx: ActionContext): ActionResult {
  if (!dialect.names || !dialect.answers) return runAction(ctx);
  const source = bodyObject(ctx.body);
  const req = canonicalRequest(dialect.names, ctx.endpoint, ctx.query, source ?? {}, { vendor: ctx.vendor, purchases: ctx.purchases });
  if ('status' in req) return req;
  let body: BodyInput = ctx.body;
  if (source !== null && req.body !== null) body = { kind: 'text', text: JSON.stringify(req.body) };
  const result = runAction({ ...ctx, query: req.query, body });
  if (result.status === 400) {
    const error = result.body as ErrorBody;
    return { status: 400, body: { ...error, message: inDialectNames(error.message, dialect.names, ctx.endpoint) } };
  }
  if (result.status !== 200) return result;
  return { status: 200, body: answerIn(dialect.answers, ctx.endpoint, result.body, ctx.query) };
}
