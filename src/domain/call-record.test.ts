import { callRecordSchema, parseCallRecord } from './call-record';

const valid = { call_id: 'c-1', phone: '+18005550100', started_at: '2025-03-04T10:15:00-05:00', log_events: 3, loops: 1, form_items: 2 };
const step = { application: 'app', page: 'main', form: 'menu', item: 'choice', visits: 1 };

describe('call record parse for imports', () => {
  it.each([
    ['a version-1 record', valid],
    ['a version-2 record', { ...valid, caller: '6175550123', duration_seconds: 61.5, transfers: 1, page_loads: 2, path: [step] }],
    ['an empty path', { ...valid, path: [] }],
  ])('reads %s exactly as callRecordSchema does', (_name, value) => {
    const parsed = callRecordSchema.safeParse(value);
    expect(parsed.success).toBe(true);
    expect(parseCallRecord(value)).toEqual({ record: parsed.data });
  });

  it.each([
    ['a bad phone and caller', { ...valid, phone: 'x', caller: '+' }],
    ['an unknown field', { ...valid, extra: 1 }],
    ['an impossible date', { ...valid, started_at: '2025-02-30T10:15:00Z' }],
    ['not an object', 'c-1'],
  ])('refuses %s with the issues callRecordSchema gives', (_name, value) => {
    const parsed = callRecordSchema.safeParse(value);
    expect(parsed.success).toBe(false);
    expect(parseCallRecord(value)).toEqual({ issues: parsed.error?.issues });
  });

  it('normalises the phone and the caller', () => {
    expect(parseCallRecord({ ...valid, caller: '6175550123' })).toMatchObject({ record: { phone: '18005550100', caller: '16175550123' } });
  });
});
