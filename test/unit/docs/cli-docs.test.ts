import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * docs/cli.md (with docs/cli-team.md, the team commands) is checked against the CLI itself, both ways: every command of the command table
 * (electron/hosts/cli/main.ts COMMANDS, team's subcommands from its usage) has a section and no section
 * names a command that does not exist; each section's flag table is exactly the set of flags the
 * command's parser accepts (captured from node:util parseArgs as the command runs) and holds every flag
 * of its usage line; each section's exit codes hold every code its usage line states and every code its
 * file returns, and name none it cannot return. The page's exit-code table is the help's.
 */
const parsed = vi.hoisted(() => ({ options: [] as Array<Record<string, unknown>> }));
vi.mock('node:util', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:util')>();
  return {
    ...actual,
    parseArgs: ((config: Parameters<typeof actual.parseArgs>[0]) => {
      parsed.options.push({ ...(config?.options ?? {}) });
      return actual.parseArgs(config);
    }) as typeof actual.parseArgs,
  };
});

const { COMMANDS, runCli } = await import('../../../electron/hosts/cli/main');
const { EXIT } = await import('../../../electron/hosts/cli/io');

const root = resolve(import.meta.dirname, '../../..');
const cliDir = join(root, 'electron/hosts/cli');
// The team database's commands have their own page; together they are the CLI's reference.
const doc = ['docs/cli.md', 'docs/cli-team.md'].map((p) => readFileSync(join(root, p), 'utf8')).join('\n');

const silentIo = (err: string[] = []) => ({ out: () => {}, err: (l: string) => void err.push(l), env: {} });

/** The page's sections by title: "## `refund`" → refund; "## Exit codes" → Exit codes. */
const sections = new Map(
  doc
    .split(/^## /m)
    .slice(1)
    .map((s) => {
      const title = s.slice(0, s.indexOf('\n'));
      return [/^`([^`]+)`$/.exec(title)?.[1] ?? title, s] as const;
    }),
);
const documentedFlags = (section: string) =>
  [...section.matchAll(/^\| `--([a-z][a-z-]*)/gm)].map((m) => m[1]!).sort();
const documentedCodes = (section: string) =>
  [...new Set([...section.matchAll(/^\| (\d) \|/gm)].map((m) => Number(m[1])))].sort();
const sorted = (xs: Iterable<number | string>) => [...new Set(xs)].sort() as Array<number | string>;

/** What a command line of the page is: a command, or team's subcommand with its own usage line. */
interface Invocation {
  name: string;
  args: string[];
  usage: string;
  file: string;
}

/** The file that declares a command (`name: 'reject'` lives in approvals.ts). */
function fileOf(name: string): string {
  const dir = join(cliDir, 'commands');
  const file = readdirSync(dir).find((f) => readFileSync(join(dir, f), 'utf8').includes(`name: '${name}'`));
  if (!file) throw new Error(`no file declares the command ${name}`);
  return join(dir, file);
}

const invocations: Invocation[] = COMMANDS.flatMap((c) => {
  const lines = c.usage.split('\n').map((l) => l.trim());
  const subs = lines.map((l) => new RegExp(`^${c.name} ([a-z][a-z-]*)\\b`).exec(l)?.[1]);
  if (lines.length > 1 && subs.every(Boolean))
    return lines.map((usage, i) => ({
      name: `${c.name} ${subs[i]!}`,
      args: [c.name, subs[i]!],
      usage,
      file: fileOf(c.name),
    }));
  return [{ name: c.name, args: [c.name], usage: c.usage, file: fileOf(c.name) }];
});

/** Exit codes a source file returns by name or number: EXIT.X, its own `const X = { a: 1 }`, `return 6`. */
function codesReturnedIn(file: string): number[] {
  const text = readFileSync(file, 'utf8');
  const objects = new Map<string, Record<string, number>>();
  if (/\bEXIT\b/.test(text)) objects.set('EXIT', { ...EXIT });
  for (const m of text.matchAll(/const (\w+) = \{([^}]*)\}\s*as const/g))
    objects.set(
      m[1]!,
      Object.fromEntries([...m[2]!.matchAll(/(\w+): (\d+)/g)].map((p) => [p[1]!, Number(p[2])])),
    );
  const numbers = new Map([...text.matchAll(/const (\w+) = (\d+);/g)].map((m) => [m[1]!, Number(m[2])]));
  const codes: number[] = [];
  for (const m of text.matchAll(/\b(\w+)\.(\w+)\b/g)) {
    const v = objects.get(m[1]!)?.[m[2]!];
    if (v !== undefined) codes.push(v);
  }
  for (const m of text.matchAll(/\breturn (\w+);/g)) {
    const v = /^\d+$/.test(m[1]!) ? Number(m[1]) : numbers.get(m[1]!);
    if (v !== undefined) codes.push(v);
  }
  return sorted(codes) as number[];
}

/** The CLI modules a command file imports (../core, ../database…): codes they return are its too. */
const helpersOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/from '\.\.\/([\w-]+)'/g)].map((m) => join(cliDir, `${m[1]}.ts`));

/** "(… exit 0 accepted, 4 rejected, 5 network)" in a usage line. */
const usageCodes = (usage: string) => {
  const m = /\bexit ([^)]*)/.exec(usage);
  return m ? [...m[1]!.matchAll(/(?:^|, )(\d)\b/g)].map((x) => Number(x[1])) : [];
};

describe('docs/cli.md against the CLI', () => {
  const flagsOf = new Map<string, string[]>();
  let helpCodes: number[] = [];

  beforeAll(async () => {
    for (const inv of invocations) {
      parsed.options.length = 0;
      // An unknown flag: the command's parser runs, refuses it (exit 2) and nothing else happens.
      const code = await runCli([...inv.args, '--zz-not-a-flag'], silentIo());
      expect(code, inv.name).toBe(EXIT.USAGE);
      flagsOf.set(inv.name, Object.keys(parsed.options.at(-1) ?? {}).sort());
    }
    const help: string[] = [];
    await runCli([], silentIo(help));
    const line = help.find((l) => l.startsWith('Exit codes:')) ?? '';
    helpCodes = sorted([...line.matchAll(/(?:: |, )(\d) /g)].map((m) => Number(m[1]))) as number[];
  });

  it('has a section for every command and subcommand, and none for a command that does not exist', () => {
    const documented = [...sections.keys()].filter((t) => sections.get(t)!.includes('```bash'));
    expect(documented.sort()).toEqual(invocations.map((i) => i.name).sort());
  });

  it("lists exactly the flags each command's parser accepts, and every flag of its usage line", () => {
    for (const inv of invocations) {
      const section = sections.get(inv.name) ?? '';
      expect(documentedFlags(section), `${inv.name}: flags`).toEqual(flagsOf.get(inv.name));
      const inUsage = sorted([...inv.usage.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]!));
      for (const flag of inUsage) expect(documentedFlags(section), `${inv.name}: --${flag}`).toContain(flag);
    }
  });

  it('the exit-code table is the help’s, and holds every exit constant of the CLI', () => {
    expect(helpCodes.length).toBeGreaterThan(5);
    expect(documentedCodes(sections.get('Exit codes') ?? '')).toEqual(helpCodes);
    const constants = invocations.flatMap((i) => [i.file, ...helpersOf(i.file)]).flatMap(codesReturnedIn);
    for (const c of constants) expect(helpCodes, `exit ${c}`).toContain(c);
    for (const c of Object.values(EXIT)) expect(helpCodes, `EXIT ${c}`).toContain(c);
  });

  it('gives each command the exit codes it returns and its usage states, and none it cannot return', () => {
    for (const inv of invocations) {
      const documented = documentedCodes(sections.get(inv.name) ?? '');
      const required = sorted([...usageCodes(inv.usage), ...codesReturnedIn(inv.file)]);
      for (const c of required) expect(documented, `${inv.name}: exit ${c}`).toContain(c);
      // Every command may end in bad usage (2) or an unexpected failure (1): main.ts runCli.
      const possible = sorted([
        ...required,
        ...helpersOf(inv.file).flatMap(codesReturnedIn),
        EXIT.FAILURE,
        EXIT.USAGE,
      ]);
      for (const c of documented) expect(possible, `${inv.name}: exit ${c} is never returned`).toContain(c);
    }
  });
});
