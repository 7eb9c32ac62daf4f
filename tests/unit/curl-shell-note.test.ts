/**
 * "Copy as curl" writes a POSIX shell command (single quotes, "$PARTNER_TOKEN"), and the app ships
 * for Windows, where cmd.exe and PowerShell read both otherwise: the note shown on copying says
 * which shell it is for, and what to use on Windows.
 */
import { describe, expect, it } from 'vitest';
import { CURL_SHELL_NOTE, curlCopiedNote, TOKEN_VARIABLE_NOTE } from '../../shared/curl';

describe('the note on a copied curl command', () => {
  it('names the shell it is for, and Git Bash or WSL on Windows', () => {
    expect(CURL_SHELL_NOTE).toMatch(/POSIX shell \(bash, zsh\)/);
    expect(CURL_SHELL_NOTE).toMatch(/Windows.*Git Bash or WSL/);
    expect(curlCopiedNote(false)).toBe(`Copied. ${CURL_SHELL_NOTE}`);
  });

  it('adds the token variable to set when the command reads one', () => {
    expect(curlCopiedNote(true)).toBe(`Copied. ${CURL_SHELL_NOTE} ${TOKEN_VARIABLE_NOTE}`);
  });
});
