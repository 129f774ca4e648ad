import { describe, expect, it } from 'vitest';
import { createFormatters } from '../../../renderer/src/features/preferences/format';
import { DEFAULT_PREFS, parsePrefs, resolveTheme } from '../../../renderer/src/features/preferences/prefs';
import { dayStartInZone, isoInZone, offsetLabel, wallClock } from '../../../shared/domain/zones';

describe('display preferences', () => {
  it('read leniently, field by field', () => {
    expect(parsePrefs('garbage')).toEqual(DEFAULT_PREFS);
    expect(parsePrefs({ theme: 'dark', zone: 'nowhere' })).toEqual(DEFAULT_PREFS);
    expect(parsePrefs({ theme: 'dark', locale: 'xx-YY' })).toEqual({ ...DEFAULT_PREFS, theme: 'dark' });
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('light', true)).toBe('light');
  });

  it('format every time in the chosen zone and date format, and money in the chosen locale', () => {
    const at = '2025-03-01T16:05:09.000Z';
    const f = (over: Partial<typeof DEFAULT_PREFS>) => createFormatters({ ...DEFAULT_PREFS, ...over });
    expect(f({ zone: 'utc', dateFormat: 'iso' }).dateTime(at)).toBe('2025-03-01 16:05');
    expect(f({ zone: 'service', dateFormat: 'iso' }).dateTimeSeconds(at)).toBe('2025-03-02 00:05:09');
    expect(f({ zone: 'service', dateFormat: 'dmy' }).dateTime(at)).toBe('02/03/2025 00:05');
    expect(f({ zone: 'service', dateFormat: 'mdy' }).dateTime(at)).toBe('03/02/2025 00:05');
    expect(f({ zone: 'service' }).zoneLabel).toBe('UTC+8');
    expect(f({ locale: 'de-DE' }).amount(123456, 'USD')).toBe('1.234,56');
    expect(f({ locale: 'en-US' }).amount(6798000, 'IDR')).toBe('6,798,000');
    expect(f({ locale: 'en-US' }).money(123456, 'USD')).toBe('$1,234.56');
    expect(f({}).dateTime(undefined)).toBe('');
  });
});

describe('zones', () => {
  it('give wall clocks, offsets and day starts, daylight saving included', () => {
    expect(wallClock(Date.parse('2025-07-01T12:00:00Z'), 'Europe/Berlin')).toMatchObject({
      hour: 14,
      offsetMinutes: 120,
    });
    expect(isoInZone('2025-01-01T12:00:00Z', 'Europe/Berlin')).toBe('2025-01-01T13:00:00+01:00');
    expect(isoInZone('2025-01-01T12:00:00Z', 'America/St_Johns')).toBe('2025-01-01T08:30:00-03:30');
    expect(offsetLabel(-210)).toBe('UTC−3:30');
    expect(new Date(dayStartInZone('2025-03-30', 'Europe/Berlin')!).toISOString()).toBe(
      '2025-03-29T23:00:00.000Z',
    );
    expect(new Date(dayStartInZone('2025-03-30', 'Europe/Berlin', 1)!).toISOString()).toBe(
      '2025-03-30T22:00:00.000Z',
    );
    expect(dayStartInZone('2025-02-30', 'UTC')).toBeUndefined();
  });
});
