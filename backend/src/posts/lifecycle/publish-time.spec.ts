import { BadRequestException } from '@nestjs/common';
import { latestPublishTime, parsePublishTime, parseZonedTime } from './publish-time';

describe('publish times', () => {
  const now = new Date('2026-11-26T08:00:00Z');
  const parse = (text: string) => parsePublishTime(text, now, 'publishAt', 'Publish time');
  const errorOf = (text: string) => {
    try {
      parse(text);
    } catch (error) {
      if (error instanceof BadRequestException) return error.getResponse();
      throw error;
    }
    throw new Error(`${text} was accepted`);
  };

  it('reads ISO 8601 times with a zone, in UTC', () => {
    expect(parseZonedTime('2026-12-01T09:00:00+07:00')?.toISOString()).toBe('2026-12-01T02:00:00.000Z');
    expect(parseZonedTime('2026-12-01T09:00Z')?.toISOString()).toBe('2026-12-01T09:00:00.000Z');
    expect(parseZonedTime('2026-12-01T09:00:00.123-0530')?.toISOString()).toBe('2026-12-01T14:30:00.123Z');
  });

  it('refuses times without a zone, days that do not exist and other text', () => {
    for (const text of [
      '2026-12-01T09:00:00',
      '2026-02-30T09:00:00Z',
      '2026-13-01T09:00:00Z',
      '2026-12-01T24:00:00Z',
      '2026-12-01',
      'tomorrow',
      '',
      '2026-12-01T09:00:00+25:00',
    ]) {
      expect(parseZonedTime(text)).toBeUndefined();
    }
  });

  it('takes a minute ahead up to a year ahead; names the field otherwise', () => {
    expect(parse('2026-11-26T08:01:00Z').toISOString()).toBe('2026-11-26T08:01:00.000Z');
    expect(parse('2027-11-26T08:00:00Z').toISOString()).toBe('2027-11-26T08:00:00.000Z');
    expect(errorOf('2026-11-26T08:00:59Z')).toEqual({
      message: 'Publish time must be at least 1 minute in the future.',
      errors: { publishAt: ['Publish time must be at least 1 minute in the future.'] },
    });
    expect(errorOf('2027-11-26T08:00:01Z')).toMatchObject({ message: 'Publish time must be at most 1 year ahead.' });
    expect(errorOf('soon')).toMatchObject({
      message: 'Publish time must be a date and time with its time zone, e.g. 2026-12-01T09:00:00+07:00.',
    });
  });

  it('a year after 29 February is 1 March', () => {
    expect(latestPublishTime(new Date('2028-02-29T10:00:00Z')).toISOString()).toBe('2029-03-01T10:00:00.000Z');
  });
});
