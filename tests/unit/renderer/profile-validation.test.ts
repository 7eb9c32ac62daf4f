import { describe, expect, it } from 'vitest';
import { validateProfile } from '../../../renderer/src/views/settings/profile-validation';
import type { ProfileDraft } from '../../../renderer/src/views/settings/profile-validation';

const good: ProfileDraft = {
  id: null,
  name: 'Acme',
  vendor: 'acme',
  baseUrl: 'https://p.example.com/api',
  header: 'Authorization',
  pageSizeParam: 'per-page',
  idField: 'id',
  budgetStore: '',
  tokenCount: 1,
};

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

  it('the budget store: empty, machine, redis:// or rediss:// (the masked stored form too); anything else in words, no password repeated', () => {
    for (const ok of ['', 'machine', 'redis://10.0.0.5:6379/0', 'rediss://cache.example.com:6380', 'redis://***@10.0.0.5:6379/2'])
      expect(validateProfile({ ...good, budgetStore: ok }, []).budgetStore, ok).toBeUndefined();
    expect(validateProfile({ ...good, budgetStore: 'http://10.0.0.5:6379' }, []).budgetStore).toMatch(/redis:\/\/host:port\/db URL or "machine", not http:/);
    const problem = validateProfile({ ...good, budgetStore: 'redis://ops:hunter2@10.0.0.5/db' }, []).budgetStore;
    expect(problem).toMatch(/not a number/);
    expect(problem).not.toContain('hunter2');
  });
});
