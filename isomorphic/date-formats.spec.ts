import { formatInZone, zoneName } from './date-formats';

const instant = new Date('2026-11-22T20:04:00Z'); // 03:04 on the 23rd in GMT+7

describe('named date formats', () => {
  it('writes each format in the given zone, naming the zone after a time of day, with plain spaces', () => {
    const zone = 'Asia/Ho_Chi_Minh';
    expect(formatInZone('shortDate', instant, zone)).toBe('Nov 23, 2026');
    expect(formatInZone('shortDateTime', instant, zone)).toBe('Nov 23, 2026, 3:04 AM GMT+7');
    expect(formatInZone('longDate', instant, zone)).toBe('November 23, 2026');
    expect(formatInZone('longDateTime', instant, zone)).toMatch(/^November 23, 2026(,| at) 3:04 AM GMT\+7$/);
    expect(formatInZone('time', instant, zone)).toBe('3:04 AM GMT+7');
    expect(formatInZone('viDate', instant, zone)).toBe('23/11/2026');
    expect(formatInZone('viDateTime', instant, zone)).toBe('03:04 23/11/2026 GMT+7');
    expect(formatInZone('viLongDate', instant, zone)).toBe('23 tháng 11, 2026');
    for (const name of ['shortDateTime', 'longDateTime', 'time'] as const)
      expect(formatInZone(name, instant, zone)).not.toMatch(/[\u00a0\u202f]/);
  });

  it('follows the zone it is given, except a format with its own (the UTC day)', () => {
    expect(formatInZone('viDateTime', instant, 'Europe/Berlin')).toBe('21:04 22/11/2026 GMT+1');
    expect(zoneName(instant, 'Europe/Berlin')).toBe('GMT+1');
    expect(formatInZone('utcDay', new Date('2026-11-22T00:00:00Z'), 'Asia/Ho_Chi_Minh')).toBe('Nov 22');
    expect(formatInZone('utcDay', new Date('2026-11-22T00:00:00Z'), 'America/Los_Angeles')).toBe('Nov 22');
  });
});
