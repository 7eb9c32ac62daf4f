/** Issue 11 item 9: the Requests view pretty-prints JSON bodies but never un-escapes one into text main did not mask. */
import { describe, expect, it } from 'vitest';
import { shownBody } from '../../../renderer/src/views/requests/RequestDetail';

describe('request body as shown', () => {
  it('keeps a body with escapes as sent', () => {
    const body = '{"echo":"tok\\/en\\u002Fsecret"}';
    expect(shownBody(body)).toBe(body);
  });
  it('pretty-prints plain JSON and shows anything else as sent', () => {
    expect(shownBody('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(shownBody('not json')).toBe('not json');
    // Escapes a round trip writes back the same way do not stop pretty-printing.
    expect(shownBody('{"t":"say \\"hi\\"\\n"}')).toBe('{\n  "t": "say \\"hi\\"\\n"\n}');
  });
  it('shows ids past 2^53 as sent (issue 21 item 6), and a body nested 6,000 deep', () => {
    expect(shownBody('{"id":1234567890123456789}')).toBe('{\n  "id": 1234567890123456789\n}');
    const deep = `${'['.repeat(6000)}1${']'.repeat(6000)}`;
    expect(shownBody(deep).replace(/\s/g, '')).toBe(deep);
  });
});
