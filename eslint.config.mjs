// Lint, and the layer table of ../shared/DESIGN.md as import rules (as VS Code does for common/).
import tseslint from 'typescript-eslint';

const nodeBuiltins = [
  'node:*',
  'fs',
  'fs/*',
  'path',
  'os',
  'http',
  'https',
  'net',
  'crypto',
  'child_process',
  'stream',
  'stream/*',
  'url',
  'util',
  'events',
  'worker_threads',
  'zlib',
  'readline',
  'tty',
  'dns',
  'timers',
  'timers/*',
];
const electronOnly = ['electron', 'electron/*'];

const restrict = (groups, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: groups, message }] }],
});

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '**/*.cjs', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: restrict(
      [...nodeBuiltins, ...electronOnly, '**/electron/**', '**/renderer/**', 'react', 'react-dom'],
      'shared/ runs in both processes: zod and other shared/ files only.',
    ),
    languageOptions: { globals: {} },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: restrict([...nodeBuiltins, ...electronOnly, '**/electron/**'], 'renderer/ is a sandboxed page: shared/, React and browser APIs only.'),
  },
  {
    // Inside electron/, only the shell imports electron; everything else is plain Node.
    files: ['electron/**/*.ts'],
    ignores: ['electron/main.ts', 'electron/preload.ts', 'electron/shell/**'],
    rules: restrict(
      [...electronOnly, '**/renderer/**'],
      'Only the Electron shell (main.ts, preload.ts, shell/) imports electron; nothing in electron/ imports renderer/.',
    ),
  },
  {
    files: ['electron/main.ts', 'electron/preload.ts', 'electron/shell/**/*.ts'],
    rules: restrict(['**/renderer/**'], 'electron/ never imports renderer/.'),
  },
);
