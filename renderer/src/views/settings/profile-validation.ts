/**
 * The profile form's checks, field by field, in words (instead of the browser's one "Please fill
 * out this field"): what is missing or wrong, next to the field it concerns.
 */
import { budgetStoreProblem } from '../../../../shared/budget-store-url';

export interface ProfileDraft {
  id: string | null;
  name: string;
  vendor: string;
  baseUrl: string;
  header: string;
  pageSizeParam: string;
  idField: string;
  /** The fleet's budget store URL as typed ('' for none; the masked stored one when unchanged). */
  budgetStore: string;
  /** Tokens the profile keeps (not removed, not lost) plus the new ones typed. */
  tokenCount: number;
}

export type ProfileField = 'name' | 'vendor' | 'baseUrl' | 'tokens' | 'header' | 'pageSizeParam' | 'idField' | 'budgetStore';
export type FieldProblems = Partial<Record<ProfileField, string>>;

/** Other profiles' names, to refuse a second profile with the same name (case and spaces aside). */
export interface OtherProfile {
  id: string;
  name: string;
}

const sameName = (a: string, b: string) => a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

export function validateProfile(d: ProfileDraft, others: readonly OtherProfile[]): FieldProblems {
  const problems: FieldProblems = {};
  if (d.name.trim() === '') problems.name = 'Give the profile a name, e.g. "Acme production".';
  else if (others.some((o) => o.id !== d.id && sameName(o.name, d.name)))
    problems.name = `A profile named "${d.name.trim()}" exists already: choose another name.`;
  if (d.vendor.trim() === '') problems.vendor = "Give the vendor's name: all tokens of one vendor share one budget.";
  const url = d.baseUrl.trim();
  if (url === '' || url === 'https://' || url === 'http://') problems.baseUrl = "Give the service's base URL, e.g. https://partner.example.com/api.";
  else {
    let protocol = '';
    try {
      protocol = new URL(url).protocol;
    } catch {
      protocol = '';
    }
    if (protocol !== 'http:' && protocol !== 'https:') problems.baseUrl = 'The base URL must be an http(s) address, e.g. https://partner.example.com/api.';
  }
  if (d.tokenCount === 0) problems.tokens = 'Add at least one token: the service answers nothing without one.';
  if (!/^[A-Za-z0-9-]+$/.test(d.header.trim())) problems.header = 'A header name: letters, digits and dashes (e.g. Authorization).';
  if (d.pageSizeParam.trim() === '') problems.pageSizeParam = 'Name the page-size parameter (per-page by default).';
  if (d.idField.trim() === '') problems.idField = 'Name the field that holds an asset id (id by default).';
  const store = d.budgetStore.trim();
  const storeProblem = store === '' ? null : budgetStoreProblem(store);
  if (storeProblem) problems.budgetStore = `The budget store ${storeProblem}, e.g. redis://redis.internal:6379/0 (or leave it empty).`;
  return problems;
}
