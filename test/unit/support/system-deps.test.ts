import { describe, expect, it } from 'vitest';
import { type MachineFacts, planSystemDeps } from '../../support/system-deps';

const debianRoot: MachineFacts = {
  nodeMajor: 24,
  platform: 'linux',
  osIds: ['debian'],
  isRoot: true,
  hasChromium: true,
  hasPostgres: true,
};

describe('npm test finds what it needs or gets it (issue 31)', () => {
  it('is ready when Node 24, chromium and PostgreSQL are there', () => {
    expect(planSystemDeps(debianRoot)).toEqual({ kind: 'ready' });
  });

  it('installs the missing Debian packages itself as root on Debian and Ubuntu', () => {
    expect(planSystemDeps({ ...debianRoot, hasChromium: false, hasPostgres: false })).toEqual({
      kind: 'install',
      packages: ['chromium', 'postgresql'],
      command: 'apt-get update && apt-get install -y chromium postgresql',
    });
    expect(
      planSystemDeps({ ...debianRoot, osIds: ['linuxmint', 'ubuntu'], hasPostgres: false }),
    ).toMatchObject({
      kind: 'install',
      packages: ['postgresql'],
    });
  });

  it('stops at once with the one command when it may not install (not root, another system)', () => {
    const notRoot = planSystemDeps({ ...debianRoot, isRoot: false, hasChromium: false });
    expect(notRoot).toEqual({
      kind: 'stop',
      message: expect.stringContaining('Run: sudo apt-get update && sudo apt-get install -y chromium'),
    });
    const mac = planSystemDeps({ ...debianRoot, platform: 'darwin', osIds: [], hasPostgres: false });
    expect(mac).toEqual({ kind: 'stop', message: expect.stringContaining('brew install postgresql@16') });
    const other = planSystemDeps({ ...debianRoot, osIds: ['fedora'], hasChromium: false });
    expect(other).toEqual({ kind: 'stop', message: expect.stringContaining('CHROMIUM_PATH') });
  });

  it('names a CHROMIUM_PATH that points nowhere instead of installing a browser it would not use', () => {
    const plan = planSystemDeps({ ...debianRoot, hasChromium: false, chromiumPath: '/opt/none/chrome' });
    expect(plan).toEqual({
      kind: 'stop',
      message: expect.stringContaining('CHROMIUM_PATH is /opt/none/chrome'),
    });
  });

  it('asks for Node 24 first, with the command, before anything else', () => {
    const old = planSystemDeps({ ...debianRoot, nodeMajor: 20, hasChromium: false });
    expect(old).toEqual({
      kind: 'stop',
      message: expect.stringContaining('npm i -g --prefix ~/.node24 node@24'),
    });
  });
});
