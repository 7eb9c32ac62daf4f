/** The client's options, checked once at construction (a bad one is a BAD_REQUEST), and its defaults. */
import { DEFAULT_GIVE_UP_AFTER_MINUTES } from '../../shared/background-work';
import { normalizeBaseUrl } from '../../shared/base-url';
import type { EndpointId } from '../../shared/endpoints';
import { PartnerError } from '../../shared/errors';
import type { ClientOptions, TokenPresentation } from './types';
import { DEFAULT_TOKEN_PRESENTATION } from './types';

export const DEFAULT_TIMEOUT_MS = 15_000;
/** A background call gives up only after nothing of its budget went through for anyone this long. */
export const DEFAULT_STALL_LIMIT_MS = DEFAULT_GIVE_UP_AFTER_MINUTES * 60_000;
export const DEFAULT_MAX_QUEUE_MS = 60_000;
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Visible ASCII only: no spaces, no control characters (a newline would split the header).
const TOKEN_CHARS = /^[\x21-\x7e]+$/;

/** The options that need checking, checked (the rest are taken as given). */
export interface CheckedOptions {
  baseUrl: string;
  vendor: string;
  tokens: string[];
  presentation: TokenPresentation;
  timeoutMs: number | (() => number);
  stallLimitMs: number | (() => number);
  maxQueueMs: number;
}

export function badRequest(message: string, endpoint?: EndpointId): PartnerError {
  return new PartnerError({ code: 'BAD_REQUEST', message, endpoint, retryable: false });
}

function validTimeout(ms: unknown): ms is number {
  return typeof ms === 'number' && Number.isFinite(ms) && ms > 0;
}

/** Throws BAD_REQUEST for the first option that cannot work. */
export function checkClientOptions(options: ClientOptions): CheckedOptions {
  if (options === null || typeof options !== 'object') throw badRequest('PartnerClient needs options');
  try {
    const url = new URL(options.baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw badRequest(`baseUrl must be an http(s) URL, got ${JSON.stringify(String(options.baseUrl).slice(0, 100))}`);
  }
  if (typeof options.vendor !== 'string' || options.vendor.trim() === '') throw badRequest('vendor must be a non-empty string');
  if (!Array.isArray(options.tokens)) throw badRequest('tokens must be a list of strings');
  options.tokens.forEach((t, i) => {
    if (typeof t !== 'string' || !TOKEN_CHARS.test(t))
      throw badRequest(`token #${i + 1} of vendor ${options.vendor} is empty or has characters an HTTP header cannot carry`);
  });
  const presentation = options.tokenPresentation ?? DEFAULT_TOKEN_PRESENTATION;
  if (!HEADER_NAME.test(presentation.header) || (presentation.scheme !== null && !HEADER_NAME.test(presentation.scheme))) {
    throw badRequest('tokenPresentation needs a header name and a scheme (or null) made of token characters');
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const stallLimitMs = options.stallLimitMs ?? DEFAULT_STALL_LIMIT_MS;
  if (typeof stallLimitMs !== 'function' && !validTimeout(stallLimitMs)) throw badRequest('stallLimitMs must be a positive number');
  const maxQueueMs = options.maxQueueMs ?? DEFAULT_MAX_QUEUE_MS;
  if (!validTimeout(maxQueueMs)) throw badRequest('maxQueueMs must be a positive number');
  if (typeof timeoutMs !== 'function' && !validTimeout(timeoutMs)) throw badRequest('timeoutMs must be a positive number');
  return {
    baseUrl: normalizeBaseUrl(options.baseUrl),
    vendor: options.vendor,
    tokens: [...options.tokens],
    presentation: { ...presentation },
    timeoutMs,
    stallLimitMs,
    maxQueueMs,
  };
}

/** A duration given as a number or read from a function each time; a bad or throwing one gives the default. */
export function readSetting(setting: number | (() => number), fallback: number): number {
  if (typeof setting === 'number') return setting;
  let value: unknown;
  try {
    value = setting();
  } catch {
    return fallback;
  }
  return validTimeout(value) ? value : fallback;
}
