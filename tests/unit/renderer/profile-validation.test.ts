import { describe, expect, it } from 'vitest';
import { validateProfile } from '../../../renderer/src/views/settings/profile-validation';
import type { ProfileDraft } from '../../../renderer/src/views/settings/profile-validation';

const good: ProfileDraft = { id: null, name: 'Acme', vendor: 'acme', baseUrl: 'https://p.example.com/api', header: 'Authorization', pageSizeParam: 'per-page', idField: 'id', tokenCount: 1 };

describe('validateProfile', () => {
  it('accepts a complete profile', () => {
    expect(validateProfile(good, [{ id: 'p1', name: 'Other' }])).toEqual({});
  });

  it('an empty form gets a message for each field it concerns', () => {
    const problems = validateProfile({ ...good, name: ' ', vendor: '', baseUrl: 'https://', tokenCount: 0 }, []);
    expect(Object.keys(problems).sort()).toEqual(['baseUrl', 'name', 'tokens', 'vendor']);
    expect(problems.baseUrl).toMatch(/base URL/);
  });

  it('refuses a second profile with the same name (case and spaces aside), but not the profile itself', () => {
    expect(validateProfile({ ...good, name: '  acme   Prod ' }, [{ id: 'p1', name: 'Acme Prod' }]).name).toMatch(/exists already/);
    expect(validateProfile({ ...good, id: 'p1', name: 'Acme Prod' }, [{ id: 'p1', name: 'Acme Prod' }]).name).toBeUndefined();
  });

  it('says what is wrong with an address or a header name', () => {
    expect(validateProfile({ ...good, baseUrl: 'ftp://x' }, []).baseUrl).toMatch(/http\(s\)/);
    expect(validateProfile({ ...good, baseUrl: 'not a url' }, []).baseUrl).toMatch(/http\(s\)/);
    expect(validateProfile({ ...good, header: 'X Token' }, []).header).toMatch(/letters, digits and dashes/);
  });
});
