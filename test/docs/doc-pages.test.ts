import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = `${ROOT}docs/`;

/** The pages about the project rather than one capability of the service: they have no code of their own. */
const PROJECT_PAGES = new Set(['architecture.md', 'decisions.md', 'development.md', 'performance.md', 'testing.md']);

/** The folders of the repository a page may name a path in. */
const REPO_PATH = /^(?:lib|functions|infra|console|test|bench|docs|patches|\.ci)\//;

/** A path with a placeholder (`lib/<capability>/`, `lib/ports/*-need.ts`) stands for many; only real ones are checked. */
const PLACEHOLDER = /[<>*…{}\s]/;

const pages = readdirSync(DOCS)
  .filter((name) => name.endsWith('.md'))
  .map((name) => ({ name, text: readFileSync(`${DOCS}${name}`, 'utf8') }));

const repoPaths = (text: string): string[] =>
  [...text.matchAll(/`([^`\n]+)`/g)]
    .map(([, span]) => (span ?? '').trim())
    .filter((span) => REPO_PATH.test(span) && !PLACEHOLDER.test(span));

/** What a page says before its first section: its title and opening paragraphs. */
const openingOf = (text: string): string => text.split(/\n## /)[0] ?? '';

describe('the docs a newcomer reads', () => {
  it('name only files and folders the repository has', () => {
    const missing = pages.flatMap(({ name, text }) =>
      repoPaths(text)
        .filter((path) => !existsSync(`${ROOT}${path}`))
        .map((path) => `${name}: ${path}`),
    );
    expect(missing).toEqual([]);
  });

  it('open every capability page with a Code: line naming where it is implemented', () => {
    const capabilityPages = pages.filter(({ name }) => !PROJECT_PAGES.has(name));
    expect(capabilityPages.length).toBeGreaterThan(15);
    const withoutCode = capabilityPages
      .filter(({ text }) => {
        const code = /Code:([\s\S]*)/.exec(openingOf(text))?.[1] ?? '';
        return !repoPaths(code).some((path) => /^(?:lib|functions|infra|console)\//.test(path));
      })
      .map(({ name }) => name);
    expect(withoutCode).toEqual([]);
  });
});
