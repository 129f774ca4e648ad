import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Fuses are set at packaging (electron-builder.yml `electronFuses`). The packaging configuration is
 * read the way electron-builder reads it (its own loader and schema validation), turned into the fuse
 * wire it would flip (its own generateFuseConfig), and flipped with the @electron/fuses it ships into a
 * stand-in binary, because the real Electron binary cannot be downloaded here.
 */
const root = resolve(import.meta.dirname, '../../..');
const builderRequire = createRequire(
  createRequire(join(root, 'package.json')).resolve('app-builder-lib/package.json'),
);

interface BuilderConfig {
  asar?: boolean;
  electronFuses?: Record<string, boolean>;
  files?: unknown;
}
const { getConfig, validateConfiguration } = builderRequire('./out/util/config/config.js') as {
  getConfig(dir: string, path: null, extra: null): Promise<BuilderConfig>;
  validateConfiguration(c: BuilderConfig, logger: unknown): Promise<void>;
};
const { DebugLogger } = builderRequire('builder-util') as { DebugLogger: new (on: boolean) => unknown };
const { PlatformPackager } = builderRequire('./out/index.js') as {
  PlatformPackager: { prototype: { generateFuseConfig(f: unknown): Promise<Record<string, unknown>> } };
};
const fuses = builderRequire('@electron/fuses') as {
  FuseV1Options: Record<string, number>;
  FuseVersion: { V1: string };
  flipFuses(path: string, config: Record<string, unknown>): Promise<number>;
  getCurrentFuseWire(path: string): Promise<Record<string, unknown>>;
};
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const [OFF, ON] = [0x30, 0x31];

async function packagingConfig(): Promise<BuilderConfig> {
  const quietLog = console.log;
  console.log = () => {}; // electron-builder announces the file it loaded
  try {
    const config = await getConfig(root, null, null);
    await validateConfiguration(config, new DebugLogger(false));
    return config;
  } finally {
    console.log = quietLog;
  }
}

describe('Electron fuses at packaging', () => {
  it('electron-builder loads a valid configuration with the fuses and asar on', async () => {
    const config = await packagingConfig();
    expect(config.asar).toBe(true);
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('is turned into the fuse wire we intend, and flips a binary to it', async () => {
    const config = await packagingConfig();
    const wire = await PlatformPackager.prototype.generateFuseConfig(config.electronFuses);
    const O = fuses.FuseV1Options;
    expect(wire).toMatchObject({
      version: fuses.FuseVersion.V1,
      [O['RunAsNode']!]: false,
      [O['EnableNodeOptionsEnvironmentVariable']!]: false,
      [O['EnableNodeCliInspectArguments']!]: false,
      [O['EnableCookieEncryption']!]: true,
      [O['EnableEmbeddedAsarIntegrityValidation']!]: true,
      [O['OnlyLoadAppFromAsar']!]: true,
      [O['GrantFileProtocolExtraPrivileges']!]: false,
    });

    // A stand-in binary with Electron's defaults: RunAsNode, NODE_OPTIONS, inspect and file privileges
    // on; cookie encryption, asar integrity and asar-only off; one newer fuse we do not set.
    const defaults = [ON, OFF, ON, ON, OFF, OFF, OFF, ON, ON];
    const binary = join(mkdtempSync(join(tmpdir(), 'rd-fuses-')), 'refund-desk');
    writeFileSync(
      binary,
      Buffer.concat([
        Buffer.from('ELF-code-'),
        Buffer.from(SENTINEL),
        Buffer.from([1, defaults.length, ...defaults]),
        Buffer.from('-more-code-'),
      ]),
    );
    await fuses.flipFuses(binary, wire);
    const flipped = await fuses.getCurrentFuseWire(binary);
    expect(flipped).toMatchObject({
      [O['RunAsNode']!]: OFF,
      [O['EnableCookieEncryption']!]: ON,
      [O['EnableNodeOptionsEnvironmentVariable']!]: OFF,
      [O['EnableNodeCliInspectArguments']!]: OFF,
      [O['EnableEmbeddedAsarIntegrityValidation']!]: ON,
      [O['OnlyLoadAppFromAsar']!]: ON,
      [O['GrantFileProtocolExtraPrivileges']!]: OFF,
      8: ON, // untouched
    });
    expect(readFileSync(binary).toString('latin1')).toContain('-more-code-');
  });

  it('nothing in main needs RunAsNode: no child process is forked from the app', () => {
    // process.fork relies on ELECTRON_RUN_AS_NODE, which the fuse disables (the sandbox runs in-process).
    const mainSources = ['electron/app/main.ts', 'electron/core/compose.ts', 'electron/app/window.ts'];
    for (const f of mainSources) {
      expect(readFileSync(join(root, f), 'utf8'), f).not.toMatch(/child_process|\bfork\(|utilityProcess/);
    }
  });
});
