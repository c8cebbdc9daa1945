import { Builder } from 'xml2js';

/** The writer of every SOAP envelope the survey web service sends: one line, with the XML declaration. */
export const soapXml = new Builder({
  xmldec: { version: '1.0', encoding: 'UTF-8' },
  renderOpts: { pretty: false },
  headless: false,
});
