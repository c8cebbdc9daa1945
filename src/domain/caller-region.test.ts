import { regionOfCaller, UNKNOWN_REGION, US_STATES, US_TOLL_FREE, usStateOf } from './caller-region';

/** One area code in service for each state and DC, by code. */
const AREA_CODE_OF_STATE: Readonly<Record<string, string>> = {
  AK: '907', AL: '205', AR: '501', AZ: '602', CA: '213', CO: '303', CT: '860', DC: '202', DE: '302',
  FL: '305', GA: '404', HI: '808', IA: '515', ID: '208', IL: '312', IN: '317', KS: '316', KY: '502',
  LA: '504', MA: '617', MD: '410', ME: '207', MI: '313', MN: '612', MO: '314', MS: '601', MT: '406',
  NC: '919', ND: '701', NE: '402', NH: '603', NJ: '973', NM: '505', NV: '702', NY: '212', OH: '614',
  OK: '405', OR: '503', PA: '215', RI: '401', SC: '803', SD: '605', TN: '615', TX: '512', UT: '801',
  VA: '804', VT: '802', WA: '206', WI: '414', WV: '304', WY: '307',
};

describe('US_STATES', () => {
  test("lists the 50 states and DC once each, in the reference's order: by state name, DC after CT", () => {
    expect(US_STATES.join(' ')).toBe(
      'AL AK AZ AR CA CO CT DC DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA ' +
        'RI SC SD TN TX UT VT VA WA WV WI WY',
    );
    expect(new Set(US_STATES).size).toBe(51);
    expect([...US_STATES].sort()).toEqual(Object.keys(AREA_CODE_OF_STATE));
  });
});

describe('a US number', () => {
  test.each(Object.entries(AREA_CODE_OF_STATE))('is placed in %s by its area code %s', (state, areaCode) => {
    expect(regionOfCaller(`1${areaCode}5550123`)).toBe(`US-${state}`);
  });

  test.each([
    ['203', 'CT'],
    ['310', 'CA'],
    ['713', 'TX'],
    ['718', 'NY'],
  ])('is placed by area code %s, which the data describe only by longer prefixes, in %s', (areaCode, state) => {
    expect(regionOfCaller(`1${areaCode}5550123`)).toBe(`US-${state}`);
  });

  test("is placed in New Jersey by area code 201 despite the data's one New York entry under it", () => {
    expect(regionOfCaller('12015550123')).toBe('US-NJ');
    expect(regionOfCaller('12016310123')).toBe('US-NJ');
  });

  test.each([
    ['917', 'NY'],
    ['929', 'NY'],
    ['424', 'CA'],
    ['771', 'DC'],
  ])('is placed by overlay area code %s, which the data describe only by its state, in %s', (areaCode, state) => {
    expect(regionOfCaller(`1${areaCode}5550123`)).toBe(`US-${state}`);
  });

  test('is placed by an area code the geocoding data know before the numbering metadata do (353, Wisconsin)', () => {
    expect(regionOfCaller('13535550123')).toBe('US-WI');
  });

  test('is placed by its area code even when its exchange makes it invalid', () => {
    expect(regionOfCaller('16171234567')).toBe('US-MA');
  });

  test.each(['800', '833', '844', '855', '866', '877', '888'])('is US toll-free under area code %s', (areaCode) => {
    expect(regionOfCaller(`1${areaCode}5550123`)).toBe(US_TOLL_FREE);
  });

  test.each([
    ['premium-rate 900', '19005550123'],
    ['personal 500', '15005550123'],
    ['personal 533', '15335550123'],
  ])('is unknown under the %s area code, which serves no state', (_kind, caller) => {
    expect(regionOfCaller(caller)).toBe(UNKNOWN_REGION);
  });

  test.each([
    ['555', '15555550123'],
    ['123', '11235550123'],
  ])('is unknown under %s, which is no area code, rather than counted as the country US', (_areaCode, caller) => {
    expect(regionOfCaller(caller)).toBe(UNKNOWN_REGION);
  });

  test('is unknown under a toll-free code when its exchange makes it invalid, not the DO its first digits suggest', () => {
    expect(regionOfCaller('18001234567')).toBe(UNKNOWN_REGION);
  });
});

describe('a North American number outside the US', () => {
  test.each([
    ['Toronto', '14165550123', 'CA'],
    ['Vancouver', '16045550123', 'CA'],
    ['Puerto Rico', '17875550123', 'PR'],
    ['Guam', '16715550123', 'GU'],
    ['Jamaica', '18765550123', 'JM'],
  ])('from %s is its own country', (_place, caller, country) => {
    expect(regionOfCaller(caller)).toBe(country);
  });
});

describe('a number of another country', () => {
  test.each([
    ['a London landline', '442083661177', 'GB'],
    ['a Paris landline', '33142685300', 'FR'],
    ['a Berlin landline', '4930123456', 'DE'],
    ['a Tokyo landline', '81312345678', 'JP'],
    ['a Sydney landline', '61212345678', 'AU'],
    ['a Mexico City number', '525512345678', 'MX'],
    ['a São Paulo mobile', '5511912345678', 'BR'],
    ['an Indian mobile', '919876543210', 'IN'],
  ])('is placed in its country: %s', (_kind, caller, country) => {
    expect(regionOfCaller(caller)).toBe(country);
  });

  test("is placed in its calling code's main country when valid nowhere but of a possible length (Ofcom's drama range)", () => {
    expect(regionOfCaller('447700900123')).toBe('GB');
  });
});

describe('a number nothing can place', () => {
  test.each([
    ['an unassigned calling code', '99912345678'],
    ['a too-short number', '1617555'],
    ['a lone calling code', '44'],
    ['an international freephone number, which belongs to no country', '80012345678'],
  ])('is unknown: %s', (_kind, caller) => {
    expect(regionOfCaller(caller)).toBe(UNKNOWN_REGION);
  });
});

test('answers a repeated caller alike, from memory the second time', () => {
  expect(regionOfCaller('16175550187')).toBe('US-MA');
  expect(regionOfCaller('16175550187')).toBe('US-MA');
});

test('names the state of a state region and nothing for toll-free numbers, countries or ZZ', () => {
  expect(usStateOf('US-MA')).toBe('MA');
  expect(usStateOf('US-DC')).toBe('DC');
  expect([US_TOLL_FREE, 'CA', 'PR', UNKNOWN_REGION].map(usStateOf)).toEqual([undefined, undefined, undefined, undefined]);
});
