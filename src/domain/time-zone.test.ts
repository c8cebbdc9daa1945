import { isTimeZone, TIME_ZONE_RULE, timeZoneSchema } from './time-zone';

test.each(['UTC', 'America/New_York', 'Asia/Kolkata', 'Etc/GMT+5'])('takes the IANA zone %s', (zone) => {
  expect(isTimeZone(zone)).toBe(true);
  expect(timeZoneSchema.parse(zone)).toBe(zone);
});

test.each(['Mars/Base', '', 'EST5EDT6', 'america/new york'])('refuses %j with the one rule every edge states', (zone) => {
  expect(isTimeZone(zone)).toBe(false);
  expect(timeZoneSchema.safeParse(zone).error?.issues.map((issue) => issue.message)).toEqual([TIME_ZONE_RULE]);
});

test('refuses a value that is not text with the same rule', () => {
  expect(timeZoneSchema.safeParse(5).error?.issues.map((issue) => issue.message)).toEqual([TIME_ZONE_RULE]);
});
