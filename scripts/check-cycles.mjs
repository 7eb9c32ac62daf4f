#!/usr/bin/env node
/**
 * Fails (exit 1) on import cycles among the source files of shared/, electron/ and renderer/.
 * A small resolver of relative imports (extension-less, as the repo writes them: .ts, .tsx, .mts,
 * /index.*) and Tarjan's strongly connected components; package imports are not followed.
 * Type-only imports count too: the team rule is "no import cycles", and a type cycle is still a
 * knot in the module structure. `--runtime-only` ignores `import type` / `export type`.
 *
 *   node scripts/check-cycles.mjs [--runtime-only] [folders…]   (default: shared electron renderer)
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const runtimeOnly = args.includes('--runtime-only');
const folders = args.filter((a) => !a.startsWith('--'));
const roots = (folders.length > 0 ? folders : ['shared', 'electron', 'renderer']).map((f) => path.resolve(root, f));
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

function listSources(dir) {
  if (!existsSync(dir)) return [];
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listSources(full));
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(full);
  }
  return files;
}

/** Removes comments (block, and line comments that start a line or follow code after whitespace), keeping strings intact enough for import specifiers. */
function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[\s;{}])\/\/.*$/gm, '$1');
}

/** Relative specifiers this file imports (static, re-exports, side-effect and dynamic imports). */
export function importsOf(text) {
  const source = stripComments(text);
  const found = [];
  const patterns = [
    // import x from '…', import { a } from '…', import type { T } from '…', export { a } from '…', export * from '…'
    /(?:^|[\s;])(import|export)\s+(type\s+)?[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    // import '…' (side effects)
    /(?:^|[\s;])import\s*['"]([^'"]+)['"]/g,
    // import('…')
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const match of source.matchAll(patterns[0])) found.push({ specifier: match[3], typeOnly: Boolean(match[2]) });
  for (const match of source.matchAll(patterns[1])) found.push({ specifier: match[1], typeOnly: false });
  for (const match of source.matchAll(patterns[2])) found.push({ specifier: match[1], typeOnly: false });
  return found.filter((i) => i.specifier.startsWith('./') || i.specifier.startsWith('../'));
}

function resolve(fromFile, specifier) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))];
  // `./x.js` written for a `./x.ts` source.
  if (/\.(m|c)?js$/.test(base)) candidates.push(...['.ts', '.tsx', '.mts', '.cts'].map((e) => base.replace(/\.(m|c)?js$/, e)));
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

function stronglyConnected(graph) {
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  // Iterative Tarjan: deep import chains must not overflow the call stack.
  for (const start of graph.keys()) {
    if (indices.has(start)) continue;
    const work = [[start, 0]];
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, next] = frame;
      if (next === 0) {
        indices.set(node, index);
        low.set(node, index);
        index += 1;
        stack.push(node);
        onStack.add(node);
      }
      const edges = graph.get(node) ?? [];
      if (next < edges.length) {
        frame[1] += 1;
        const target = edges[next];
        if (!indices.has(target)) work.push([target, 0]);
        else if (onStack.has(target)) low.set(node, Math.min(low.get(node), indices.get(target)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === indices.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        const selfLoop = component.length === 1 && (graph.get(node) ?? []).includes(node);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }
  return components;
}

/** One concrete cycle inside a component, for the message. */
function cycleIn(component, graph) {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at = node; at !== null && at !== start; at = previous.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [...component, start];
}

function main() {
  const files = roots.flatMap(listSources);
  const graph = new Map();
  const unresolved = [];
  for (const file of files) {
    const edges = [];
    for (const { specifier, typeOnly } of importsOf(readFileSync(file, 'utf8'))) {
      if (runtimeOnly && typeOnly) continue;
      const target = resolve(file, specifier);
      if (target === null) unresolved.push(`${path.relative(root, file)}: ${specifier}`);
      else if (files.includes(target) && !edges.includes(target)) edges.push(target);
    }
    graph.set(file, edges);
  }
  const components = stronglyConnected(graph);
  const edgeCount = [...graph.values()].reduce((sum, e) => sum + e.length, 0);
  if (unresolved.length > 0) {
    console.log(`Note: ${unresolved.length} relative import(s) did not resolve to a file (a file in progress?):`);
    for (const line of unresolved.slice(0, 20)) console.log(`  ${line}`);
  }
  if (components.length === 0) {
    console.log(`No import cycles: ${files.length} files, ${edgeCount} relative imports${runtimeOnly ? ' (runtime only)' : ''}.`);
    return 0;
  }
  console.log(`Import cycles found: ${components.length}`);
  for (const component of components) {
    const cycle = cycleIn(component, graph).map((f) => path.relative(root, f));
    console.log(`  ${cycle.join(' -> ')}${component.length > cycle.length - 1 ? ` (${component.length} files in this knot)` : ''}`);
  }
  return 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(main());
