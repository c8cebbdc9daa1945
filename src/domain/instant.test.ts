import { DateTime } from 'luxon';
import { parseInstantWithOffset } from './instant';

describe('ISO-8601 date and time with an offset', () => {
  test.each([
    ['2018-02-07T10:15:00-05:00', '2018-02-07T15:15:00.000Z'],
    ['2018-02-07T10:15-05:00', '2018-02-07T15:15:00.000Z'],
    ['2018-02-07T10:15:00-0500', '2018-02-07T15:15:00.000Z'],
    ['2018-02-07T15:15:00Z', '2018-02-07T15:15:00.000Z'],
    ['2018-02-07t15:15:00z', '2018-02-07T15:15:00.000Z'],
    ['2018-02-07T15:15:00.25Z', '2018-02-07T15:15:00.250Z'],
    ['2018-02-07T15:15:00.123456789+05:45', '2018-02-07T09:30:00.123Z'],
    ['2020-02-29T00:00:00+14:00', '2020-02-28T10:00:00.000Z'],
  ])('reads %s as %s', (text, iso) => {
    expect(new Date(parseInstantWithOffset(text)!).toISOString()).toBe(iso);
  });

  test.each([
    ['no offset', '2018-02-07T10:15:00'],
    ['a date only', '2018-02-07'],
    ['February 30', '2018-02-30T00:00:00Z'],
    ['February 29 of a common year', '2019-02-29T00:00:00Z'],
    ['month 13', '2018-13-01T00:00:00Z'],
    ['hour 24', '2018-02-07T24:00:00Z'],
    ['second 60', '2018-02-07T10:15:60Z'],
    ['an offset of 19 hours', '2018-02-07T10:15:00+19:00'],
    ['a year before 1970', '1969-12-31T23:59:59Z'],
    ['words', 'yesterday'],
    ['a space instead of T', '2018-02-07 10:15:00Z'],
    ['a fraction of ten digits', '2018-02-07T15:15:00.1234567890Z'],
    ['a dot without a fraction', '2018-02-07T15:15:00.Z'],
    ['a fraction without seconds', '2018-02-07T15:15.5Z'],
    ['an offset of one digit', '2018-02-07T15:15:00+5:00'],
    ['an offset of minutes 60', '2018-02-07T15:15:00+05:60'],
    ['anything after the offset', '2018-02-07T15:15:00Z '],
    ['digits beyond ASCII', '２018-02-07T15:15:00Z'],
    ['an empty text', ''],
  ])('refuses %s', (_case, text) => {
    expect(parseInstantWithOffset(text)).toBeUndefined();
  });

  /** What the reader must accept, written as a regular expression, with the same calendar checks. */
  function byPattern(text: string): number | undefined {
    const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):?(\d{2}))$/i.exec(text);
    if (match === null) return undefined;
    const [year, month, day, hour, minute, second, , , , offsetHours, offsetMinutes] = match.slice(1).map((group) => Number(group ?? 0));
    const local = DateTime.fromObject({ year, month, day, hour, minute, second }, { zone: 'UTC' });
    if (!local.isValid || year! < 1970 || offsetHours! > 18 || offsetMinutes! > 59 || local.day !== day) return undefined;
    const fraction = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
    const offset = (match[9] === '-' ? -1 : 1) * (offsetHours! * 60 + offsetMinutes!);
    return local.toMillis() + fraction - offset * 60_000;
  }

  test('agrees with the pattern on 20,000 texts made by changing one character of a valid one', () => {
    let state = 11;
    const random = (limit: number) => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state % limit;
    };
    const seeds = ['2018-02-07T10:15:00-05:00', '2020-02-29T23:59:59.999999999+14:00', '1970-01-01t00:00z', '2024-12-31T12:30:45.5-0930'];
    const replacements = '0123456789-+:.TtZz x';
    for (let sample = 0; sample < 20_000; sample += 1) {
      const seed = seeds[random(seeds.length)]!;
      const at = random(seed.length + 1);
      const change = random(3);
      const character = replacements[random(replacements.length)]!;
      const text =
        change === 0 ? seed.slice(0, at) + character + seed.slice(at + 1) : change === 1 ? seed.slice(0, at) + character + seed.slice(at) : seed.slice(0, at) + seed.slice(at + 1);
      expect([text, parseInstantWithOffset(text)]).toEqual([text, byPattern(text)]);
    }
  });

  test('agrees with luxon on 2,000 generated date-times', () => {
    let state = 7;
    const random = (limit: number) => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state % limit;
    };
    for (let sample = 0; sample < 2_000; sample += 1) {
      const offset = (random(2) === 0 ? -1 : 1) * (random(15) * 60 + [0, 15, 30, 45][random(4)]!);
      const local = DateTime.fromMillis(random(2_000_000_000) * 1000 + random(1000), { zone: `UTC${offset >= 0 ? '+' : '-'}${Math.floor(Math.abs(offset) / 60)}:${String(Math.abs(offset) % 60).padStart(2, '0')}` });
      const text = local.toISO()!;
      expect([text, parseInstantWithOffset(text)]).toEqual([text, local.toMillis()]);
    }
  });
});
