import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  downloadFailureMessage,
  explainInstallerOutput,
  FETCH_FAILED_MARK,
  isElectronInstalled,
  rerunCommand,
} from '../../../electron/launcher/ensure-electron';

const ZIP = 'https://github.com/electron/electron/releases/download/v45.4.1/electron-v45.4.1-linux-x64.zip';
const mark = (o: object) => `${FETCH_FAILED_MARK}${JSON.stringify(o)}`;

describe('explainInstallerOutput', () => {
  it('names the address and the cause of a connection failure, not just "fetch failed"', () => {
    const stderr = `${mark({ url: ZIP, code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND github.com' })}\nTypeError: fetch failed\n`;
    expect(explainInstallerOutput(stderr)).toBe(
      `downloading ${ZIP} failed: the host name could not be resolved (ENOTFOUND).`,
    );
  });

  it('falls back to the cause text for codes it has no words for', () => {
    const stderr = `${mark({ url: ZIP, code: 'EWEIRD', message: 'something odd' })}\nTypeError: fetch failed\n`;
    expect(explainInstallerOutput(stderr)).toBe(`downloading ${ZIP} failed: something odd (EWEIRD).`);
  });

  it('turns an HTTP error into the status and the address, without the stack', () => {
    const stderr = [
      `HTTPError: Response code 404 (Not Found) for ${ZIP}`,
      '    at FetchDownloader.download (file:///x/node_modules/@electron/get/dist/FetchDownloader.js:48:23)',
      '',
    ].join('\n');
    expect(explainInstallerOutput(stderr)).toBe(
      `downloading ${ZIP} failed: the server answered HTTP 404 (Not Found).`,
    );
  });

  it('says a checksum mismatch was refused', () => {
    const stderr =
      'Error: Generated checksum for "electron-v45.4.1-linux-x64.zip" did not match expected checksum.\n    at Hash.<anonymous> (x)\n';
    expect(explainInstallerOutput(stderr)).toMatch(/^the download did not match its published checksum/);
  });

  it('keeps any other first error line and drops the frames', () => {
    expect(explainInstallerOutput('Error: EACCES: permission denied, mkdir\n    at x\n')).toBe(
      'the installer stopped with: Error: EACCES: permission denied, mkdir',
    );
    expect(explainInstallerOutput('')).toBe('the installer stopped without saying why.');
  });

  it('never repeats credentials from a mirror address', () => {
    const stderr = mark({ url: 'https://me:s3cret@mirror.example/v45.4.1/x.zip', code: 'ECONNREFUSED' });
    const text = explainInstallerOutput(stderr);
    expect(text).not.toContain('s3cret');
    expect(text).toContain('https://mirror.example/v45.4.1/x.zip');
  });
});

describe('the failure message', () => {
  it('says what failed, offers the browser host and repeats the command that was typed', () => {
    const text = downloadFailureMessage({
      version: '45.4.1',
      target: 'linux-x64',
      why: 'downloading X failed: the connection was refused (ECONNREFUSED).',
      rerun: rerunCommand({ npm_lifecycle_event: 'dev' }),
    });
    expect(text.split('\n')[0]).toBe(
      'Refund Desk could not start: Electron 45.4.1 (linux-x64) is not installed yet, and downloading X failed: the connection was refused (ECONNREFUSED).',
    );
    expect(text).toContain('npm run start:web');
    expect(text).toContain('run npm run dev again');
    expect(rerunCommand({ npm_lifecycle_event: 'start' })).toBe('npm start');
    expect(rerunCommand({})).toBe('npm start');
  });
});

describe('isElectronInstalled', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const pkg = () => ({ dir, version: '45.4.1' });
  const install = (version: string, binary = 'electron') => {
    mkdirSync(join(dir, 'dist'), { recursive: true });
    writeFileSync(join(dir, 'path.txt'), binary);
    writeFileSync(join(dir, 'dist', 'version'), version);
    writeFileSync(join(dir, 'dist', 'electron'), '');
  };

  it('needs path.txt, the matching dist/version and the executable it names', () => {
    dir = mkdtempSync(join(tmpdir(), 'rd-electron-'));
    expect(isElectronInstalled(pkg(), {})).toBe(false);
    install('45.4.1');
    expect(isElectronInstalled(pkg(), {})).toBe(true);
    install('v45.4.1');
    expect(isElectronInstalled(pkg(), {})).toBe(true);
    install('44.0.0');
    expect(isElectronInstalled(pkg(), {})).toBe(false);
    install('45.4.1', 'missing-binary');
    expect(isElectronInstalled(pkg(), {})).toBe(false);
  });

  it('trusts ELECTRON_EXEC_PATH, which electron-vite launches instead', () => {
    dir = mkdtempSync(join(tmpdir(), 'rd-electron-'));
    expect(isElectronInstalled(pkg(), { ELECTRON_EXEC_PATH: '/opt/electron/electron' })).toBe(true);
  });
});
