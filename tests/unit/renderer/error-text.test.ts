import { describe, expect, it } from 'vitest';
import { describeError, errorData, referenceOf } from '../../../renderer/src/lib/error-text';
import { ERROR_CODES, PartnerError } from '../../../shared/errors';
import type { ErrorData } from '../../../shared/errors';

const data = (over: Partial<ErrorData> & Pick<ErrorData, 'code'>): ErrorData => ({ message: 'Something specific happened.', retryable: true, ...over });

describe('describeError', () => {
  it.each(ERROR_CODES)('gives %s a title and detail in words, not the bare code', (code) => {
    const text = describeError(data({ code }));
    expect(text.code).toBe(code);
    expect(text.title.length).toBeGreaterThan(3);
    expect(text.title).not.toContain(code);
    expect(text.title).not.toMatch(/[A-Z]{2,}_[A-Z]/);
    expect(text.detail.trim().length).toBeGreaterThan(0);
    expect(text.detail).not.toBe(code);
  });

  it('gives every code its own title (only INTERNAL falls back to the generic one)', () => {
    const titles = ERROR_CODES.map((code) => describeError(data({ code })).title);
    expect(new Set(titles).size).toBe(ERROR_CODES.length);
  });

  it('UNKNOWN_OUTCOME of a registration says not to register again, and is never retryable', () => {
    const text = describeError(data({ code: 'UNKNOWN_OUTCOME', retryable: true }), 'registration');
    expect(text.title).toMatch(/registration/);
    expect(text.retry).toMatch(/do not register again/i);
    expect(text.retry).toMatch(/purchase info/i);
    expect(text.retryable).toBe(false);
  });

  it('UNKNOWN_OUTCOME names the client reference when main sent it', () => {
    const fromBody = describeError(data({ code: 'UNKNOWN_OUTCOME', body: { client_reference: 'ref-123456' } }), 'registration');
    expect(fromBody.retry).toContain('ref-123456');
    // The reference travels as data only; words are not parsed for it.
    const fromHint = describeError(data({ code: 'UNKNOWN_OUTCOME', hint: 'Look up client reference abcdef12 first.' }), 'registration');
    expect(fromHint.retry).not.toContain('abcdef12');
    const none = describeError(data({ code: 'UNKNOWN_OUTCOME' }), 'registration');
    expect(none.retry).not.toMatch(/reference/);
  });

  it('referenceOf reads body.client_reference (as main sends it, the service body under response) and nothing else', () => {
    const main = data({ code: 'UNKNOWN_OUTCOME', body: { client_reference: 'pc-1234', response: { message: 'x' } } });
    expect(referenceOf(main)).toBe('pc-1234');
    expect(referenceOf(data({ code: 'UNKNOWN_OUTCOME', body: { client_reference: 42 } }))).toBeNull();
    expect(referenceOf(data({ code: 'UNKNOWN_OUTCOME', body: 'pc-1234' }))).toBeNull();
    expect(referenceOf(data({ code: 'UNKNOWN_OUTCOME', message: 'Registration reference: pc-1234.' }))).toBeNull();
  });

  it('UNKNOWN_OUTCOME of another action says not to repeat it', () => {
    expect(describeError(data({ code: 'UNKNOWN_OUTCOME' }), 'cancellation').retry).toMatch(/do not repeat it again/i);
  });

  it("quotes the service's own message where it sent one", () => {
    const text = describeError(data({ code: 'CONFLICT', body: { message: 'Purchase already paid' } }));
    expect(text.detail).toContain('“Purchase already paid”');
  });

  it("words a conflict the app itself found by its message, not as the purchase's state", () => {
    const text = describeError(data({ code: 'CONFLICT', message: 'Registration #2 is still being sent: the service has not answered it yet.' }));
    expect(text.title).not.toMatch(/purchase's state/);
    expect(text.detail).toBe('Registration #2 is still being sent: the service has not answered it yet.');
    expect(text.retry).toBeNull();
    expect(describeError(data({ code: 'CONFLICT', status: 409, message: 'x' })).title).toMatch(/purchase's state/);
  });

  it('says whether retrying is safe according to the data', () => {
    expect(describeError(data({ code: 'RATE_LIMITED' })).retry).toMatch(/safe to try again/i);
    expect(describeError(data({ code: 'NETWORK', retryable: false })).retry).not.toMatch(/safe/i);
    expect(describeError(data({ code: 'NETWORK', retryable: true })).retry).toMatch(/safe/i);
    expect(describeError(data({ code: 'SERVER_ERROR', retryable: false })).retry).toBeNull();
  });

  it('keeps the hint', () => {
    expect(describeError(data({ code: 'UNAUTHORIZED', hint: 'Open Settings.' })).hint).toBe('Open Settings.');
    expect(describeError(data({ code: 'UNAUTHORIZED' })).hint).toBeNull();
  });
});

describe('errorData', () => {
  it("takes a PartnerError's data, passes ErrorData through, and wraps anything else", () => {
    const d = data({ code: 'NOT_FOUND' });
    expect(errorData(new PartnerError(d))).toBe(d);
    expect(errorData(d)).toBe(d);
    expect(errorData(new Error('boom'))).toMatchObject({ code: 'INTERNAL', retryable: false });
    expect(errorData('text')).toMatchObject({ code: 'INTERNAL' });
    expect(errorData(null)).toMatchObject({ code: 'INTERNAL' });
    const abort = new Error('aborted');
    abort.name = 'AbortError';
    expect(errorData(abort).code).toBe('CANCELLED');
  });

  it('describes a thrown value without crashing', () => {
    expect(describeError(undefined).title).toBe('Something went wrong');
  });
});
