import fc from 'fast-check';
import { request as httpRequest } from 'node:http';
import { text as streamText } from 'node:stream/consumers';
import type { SurveyMessageLimits } from '../settings';
import type { ReceivedParts } from '../../domain/received-parts';
import { envelopeReader } from './envelope-reader';
import { readPlainEnvelope } from './plain-envelope';
import type { SurveyCall, SurveyEvaluation } from '../../domain/survey-handler';
import { startTestServer } from '../../../test/support/test-server';
import { envelope, post, SOAP_ACTION, svcEval } from '../../../test/survey-clients/support';

/*
 * A small body that arrives whole is first scanned as plain XML; whatever that scan does not read, sax
 * reads. The scan must never answer differently from sax: it gives sax's parts, or leaves the text to it.
 */

const DEFAULT_LIMITS: SurveyMessageLimits = { maxDepth: 32, maxElements: 10_000, maxItems: 1_000, maxAttributes: 32, maxTextLength: 10_485_760 };

type SaxReading = { parts: ReceivedParts } | { fault: string };

function readWithSax(text: string, limits: SurveyMessageLimits = DEFAULT_LIMITS): SaxReading {
  try {
    const reader = envelopeReader(limits);
    reader.write(text);
    return { parts: reader.end() };
  } catch (error) {
    return { fault: (error as Error).message };
  }
}

// As the clients of the interop tests sent them (PHP's &#13; is a carriage return in an answer).
const PHP =
  '<?xml version="1.0" encoding="UTF-8"?>\n<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/" ' +
  'xmlns:ns1="urn:SampleWebservice" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:SOAP-ENC="http://schemas.xmlsoap.org/soap/encoding/" ' +
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" SOAP-ENV:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">' +
  '<SOAP-ENV:Body><ns1:svcEval><question_texts SOAP-ENC:arrayType="xsd:string[2]" xsi:type="SOAP-ENC:Array">' +
  '<item xsi:type="xsd:string">Q1 &lt;&amp;&gt;"\'&#13;\n</item><item xsi:type="xsd:string">Grüße</item></question_texts>' +
  '<answers SOAP-ENC:arrayType="xsd:ur-type[2]" xsi:type="SOAP-ENC:Array"><item xsi:type="xsd:string">yes</item><item xsi:nil="true"/></answers>' +
  '<session_id xsi:type="xsd:string">s1</session_id></ns1:svcEval></SOAP-ENV:Body></SOAP-ENV:Envelope>\n';
const ZEEP_ITEM = '<item xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string">';
const ZEEP =
  '<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Body><ns0:svcEval xmlns:ns0="urn:SampleWebservice">' +
  `<question_texts>${ZEEP_ITEM}Q1 &lt;&amp;&gt;</item>${ZEEP_ITEM}Grüße</item></question_texts>` +
  `<answers>${ZEEP_ITEM}yes</item>${ZEEP_ITEM}</item></answers></ns0:svcEval></soap-env:Body></soap-env:Envelope>`;
const SOAP_PACKAGE =
  '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ' +
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"  xmlns:tns="urn:SampleWebservice"><soap:Body><tns:svcEval>' +
  '<question_texts><question_texts>Q1 &lt;&amp;&gt;</question_texts><question_texts>Grüße</question_texts></question_texts>' +
  '<answers><answers>yes</answers><answers></answers></answers></tns:svcEval></soap:Body></soap:Envelope>';

const WITH_HEADER =
  '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header><t:T xmlns:t="urn:t" s:mustUnderstand="0">1</t:T></s:Header>' +
  '<s:Body><svcEval><question_texts/><answers/></svcEval></s:Body></s:Envelope>';

describe('what clients send is read without sax, to the parts sax reads', () => {
  test.each([
    ["PHP's SoapClient", PHP],
    ['zeep', ZEEP],
    ['the soap package', SOAP_PACKAGE],
    ['the optional parts, nil and empty', svcEval(['Q'], [null], '<ani_ip>192.0.2.7</ani_ip><dnis xsi:nil="true"/><session_id>  r-42 </session_id>')],
    ['arrays of no item, as PHP writes them', envelope('<ns1:svcEval><question_texts SOAP-ENC:arrayType="xsd:string[0]"/><answers/></ns1:svcEval>')],
    ['white space between elements and in tags', envelope('\n <ns1:svcEval >\n <question_texts\n a = \'1\' ><item >&#x51;&#49;</item ></question_texts> <answers><item>&quot;</item></answers></ns1:svcEval>')],
    ['a header nobody must understand', WITH_HEADER],
  ])('%s', (_client, text) => {
    const parts = readPlainEnvelope(text, DEFAULT_LIMITS);
    expect(parts).toBeDefined();
    expect({ parts }).toEqual(readWithSax(text));
  });
});

const call = (inside: string) => envelope(`<ns1:svcEval>${inside}</ns1:svcEval>`);
const arrays = (item: string) => `<question_texts><item>${item}</item></question_texts><answers><item>yes</item></answers>`;

describe('anything beyond plain XML, and any message that breaks a rule, is left to sax', () => {
  test.each([
    ['a comment', call(`<!-- c -->${arrays('Q')}`)],
    ['CDATA', call(arrays('<![CDATA[<Q>]]>'))],
    ['an entity XML does not define', call(arrays('Q&nbsp;1'))],
    ['an entity in capitals, which sax reads as well', call(arrays('Q&AMP;1'))],
    ['a character reference with a leading zero', call(arrays('Q&#013;'))],
    ['a reference to a character XML cannot carry', call(arrays('Q&#xD800;'))],
    ['a reference to nothing', call(arrays('Q&#0;'))],
    ['an ampersand alone', call(arrays('Q & A'))],
    ['a document type', `<!DOCTYPE a [<!ENTITY e "x">]>${call(arrays('&e;'))}`],
    ['a processing instruction other than the declaration', call(`<?php echo 1; ?>${arrays('Q')}`)],
    ['a second XML declaration', `<?xml version="1.0"?>${call(arrays('Q'))}`],
    ['a repeated attribute, which sax drops', call(`<question_texts a="1" a="2"><item>Q</item></question_texts><answers/>`)],
    ['an entity in an attribute value', call(`<question_texts a="&amp;"><item>Q</item></question_texts><answers/>`)],
    ['an unquoted attribute value', call(`<question_texts a=1><item>Q</item></question_texts><answers/>`)],
    ['an attribute without white space before it', call(`<question_texts a="1"b="2"><item>Q</item></question_texts><answers/>`)],
    ['a name beyond ASCII', call(`<qüestion/>${arrays('Q')}`)],
    ['white space after <', call(`< question_texts><item>Q</item></question_texts><answers/>`)],
    ['white space after </', call(`<question_texts><item>Q</ item></question_texts><answers/>`)],
    ['an end tag that closes another element', call(`<question_texts><item>Q</question_texts></item><answers/>`)],
    ['a / not followed by >', call(`<question_texts/ ><answers/>`)],
    ['an unclosed root', call(arrays('Q')).replace('</SOAP-ENV:Envelope>\n', '')],
    ['text after the root', `${call(arrays('Q'))}x`],
    ['text before the root', `x${call(arrays('Q'))}`],
    ['a second root', `${call(arrays('Q'))}<a/>`],
    ['a byte order mark', `\uFEFF${call(arrays('Q'))}`],
    ['no element at all', ' \r\n '],
    ['text between the parts of svcEval', call(`x${arrays('Q')}`)],
    ['a SOAP 1.2 envelope', call(arrays('Q')).replaceAll('http://schemas.xmlsoap.org/soap/envelope/', 'http://www.w3.org/2003/05/soap-envelope')],
    ['an attribute named hasOwnProperty', call(`<question_texts hasOwnProperty="1"><item>Q</item></question_texts><answers/>`)],
  ])('%s', (_case, text) => {
    expect(readPlainEnvelope(text, DEFAULT_LIMITS)).toBeUndefined();
  });

  test.each([
    ['SURVEY_MAX_DEPTH', { maxDepth: 4 }],
    ['SURVEY_MAX_ELEMENTS', { maxElements: 6 }],
    ['SURVEY_MAX_ITEMS', { maxItems: 1 }],
    ['SURVEY_MAX_ATTRIBUTES', { maxAttributes: 5 }],
    ['SURVEY_MAX_TEXT_LENGTH', { maxTextLength: 2 }],
  ])('a message beyond %s', (variable, bound) => {
    const text = svcEval(['Q1', 'Q2'], ['yes', 'no']);
    const limits = { ...DEFAULT_LIMITS, ...bound };
    expect(readWithSax(text, limits)).toEqual({ fault: expect.stringContaining(variable) as string });
    expect(readPlainEnvelope(text, limits)).toBeUndefined();
  });
});

/** Messages built as clients build them: every one a valid svcEval call. */
const whitespace = fc.constantFrom('', ' ', '\n', '\r\n\t ');
const textPiece = fc.constantFrom(
  'yes', 'Q 1', ' ', '\r\n', '\t', '&amp;', '&lt;', '&gt;', '&quot;', '&apos;', '&#13;', '&#x51;', '&#X4f;', '&#128512;',
  'Grüße', '😀', '"', "'", '>', ']]>', '\u2028', '\u00a0', 'hasOwnProperty',
);
const text = fc.array(textPiece, { maxLength: 4 }).map((pieces) => pieces.join(''));
const attributes = fc
  .uniqueArray(fc.constantFrom('a', 'b:c', 'x-y.z', 'SOAP-ENC:arrayType', 'xsi:type', 'xsi:nil', '_n'), { maxLength: 3 })
  .chain((names) =>
    fc.tuple(
      ...names.map((name) =>
        fc.tuple(whitespace, fc.constantFrom('"', "'"), fc.constantFrom('1', 'true', ' false ', 'xsd:string', 'a<b', 'http://x/y')).map(
          ([space, quote, value]) => ` ${name}${space}=${space}${quote}${value}${quote}`,
        ),
      ),
    ),
  )
  .map((written) => written.join(''));
const item = (name: string) =>
  fc.oneof(
    fc.tuple(attributes, text, whitespace).map(([written, content, space]) => `<${name}${written}${space}>${content}</${name}${space}>`),
    fc.tuple(attributes, whitespace).map(([written, space]) => `<${name}${written}${space}/>`),
  );
const array = (part: string) =>
  fc.oneof(
    fc.tuple(attributes, fc.constantFrom('item', 'string', part)).chain(([written, itemName]) =>
      fc.array(item(itemName), { maxLength: 4 }).chain((items) =>
        whitespace.map((space) => `<${part}${written}>${space}${items.join(space)}${space}</${part}>`),
      ),
    ),
    attributes.map((written) => `<${part}${written}/>`),
  );
const optionalPart = fc.oneof(
  fc.constant(''),
  fc.tuple(fc.constantFrom('ani_ip', 'dnis', 'session_id'), attributes, text).map(([part, written, content]) => `<${part}${written}>${content}</${part}>`),
  fc.tuple(attributes, text).map(([written, content]) => `<extra${written}><x>${content}</x><y/></extra>`),
);
const validMessage = fc
  .tuple(
    fc.constantFrom('', '<?xml version="1.0" encoding="UTF-8"?>\n', ' <?xml version="1.0"?>'),
    fc.constantFrom('SOAP-ENV', 'soap', 's-1.x'),
    array('question_texts'),
    array('answers'),
    optionalPart,
    whitespace,
    fc.boolean(),
  )
  .map(
    ([declaration, prefix, questionTexts, answers, optional, space, header]) =>
      `${declaration}<${prefix}:Envelope xmlns:${prefix}="http://schemas.xmlsoap.org/soap/envelope/" ` +
      'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
      (header ? `<${prefix}:Header><t:T xmlns:t="urn:t" ${prefix}:mustUnderstand="0">x</t:T></${prefix}:Header>` : '') +
      `${space}<${prefix}:Body><ns1:svcEval xmlns:ns1="urn:SampleWebservice">${questionTexts}${space}${answers}${optional}</ns1:svcEval>` +
      `</${prefix}:Body></${prefix}:Envelope>${space}`,
  );

/** Valid messages broken in places: constructs only sax reads, stray characters, cuts. */
const fragment = fc.constantFrom(
  '<!-- c -->', '<![CDATA[x]]>', '<?pi x?>', '<!DOCTYPE a>', '&nbsp;', '&#0;', '&#013;', '&AMP;', '<', '>', '&', '"', "'", '=', '/',
  '</x>', '<a>', '<a/>', ' ', 'x', '\uFEFF', 'é', ' a="1"', ' xmlns:q="u"', ' hasOwnProperty="1"', '<item>', '</item>',
);
const edit = fc.oneof(
  fc.tuple(fc.nat(), fragment).map(([at, inserted]) => (message: string) => {
    const position = at % (message.length + 1);
    return message.slice(0, position) + inserted + message.slice(position);
  }),
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 12 })).map(([at, length]) => (message: string) => {
    const position = at % (message.length + 1);
    return message.slice(0, position) + message.slice(position + length);
  }),
);
const brokenMessage = fc.tuple(validMessage, fc.array(edit, { minLength: 1, maxLength: 3 })).map(([message, edits]) =>
  edits.reduce((edited, apply) => apply(edited), message),
);
const smallLimits = fc.record({
  maxDepth: fc.integer({ min: 1, max: 8 }),
  maxElements: fc.integer({ min: 1, max: 30 }),
  maxItems: fc.integer({ min: 0, max: 4 }),
  maxAttributes: fc.integer({ min: 0, max: 8 }),
  maxTextLength: fc.integer({ min: 0, max: 20 }),
});

describe('on any message the plain scan answers as sax does, or leaves the message to sax', () => {
  test('a valid call is read without sax, to the parts sax reads', () => {
    fc.assert(
      fc.property(validMessage, (message) => {
        const parts = readPlainEnvelope(message, DEFAULT_LIMITS);
        expect(parts).toBeDefined();
        expect(readWithSax(message)).toEqual({ parts });
      }),
      { numRuns: 1_000 },
    );
  });

  test('a call broken anywhere, or beyond small bounds, is read to the parts sax reads or left to sax', () => {
    fc.assert(
      fc.property(fc.oneof(validMessage, brokenMessage), fc.oneof(fc.constant(DEFAULT_LIMITS), smallLimits), (message, limits) => {
        const parts = readPlainEnvelope(message, limits);
        if (parts !== undefined) expect(readWithSax(message, limits)).toEqual({ parts });
      }),
      { numRuns: 5_000 },
    );
  });
});

describe('over HTTP, a body sent whole and the same body sent in pieces get the same answer', () => {
  function echoing(call: SurveyCall): SurveyEvaluation {
    return { response: JSON.stringify({ questionTexts: call.questionTexts, answers: call.answers, sessionId: call.sessionId }), state: null };
  }

  /** Chunked, so the server cannot know a piece is the whole body: sax reads it, piece by piece. */
  function postInPieces(url: string, body: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const sent = httpRequest(`${url}/survey`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: SOAP_ACTION, 'Transfer-Encoding': 'chunked' },
      });
      sent.on('error', reject);
      sent.on('response', (response) => {
        streamText(response).then((text) => resolve({ status: response.statusCode ?? 0, text }), reject);
      });
      const bytes = Buffer.from(body);
      const middle = Math.floor(bytes.length / 2);
      sent.write(bytes.subarray(0, middle));
      sent.end(bytes.subarray(middle));
    });
  }

  test.each([
    ["PHP's call", PHP],
    ["zeep's call", ZEEP],
    ['a call with a comment', call(`<!-- c -->${arrays('Q&#013;')}`)],
    ['a call that breaks a rule', call(`x${arrays('Q')}`)],
    ['a body that is not XML', 'not XML'],
  ])('%s', async (_case, body) => {
    const server = await startTestServer({}, { surveyHandler: echoing });
    try {
      const whole = await post(server.url, body);
      const inPieces = await postInPieces(server.url, body);
      expect({ status: inPieces.status, text: inPieces.text }).toEqual({ status: whole.status, text: whole.text });
    } finally {
      await server.close();
    }
  });
});
