import sax from 'sax';
import type { SurveyMessageLimits } from '../settings';
import { errors } from '../../errors/catalogue';
import { envelopeRules, type SoapCallParts } from './envelope-rules';

declare module 'sax' {
  interface SAXOptions {
    /** sax 1.6's option (newer than @types/sax 1.2.7): expand only the entities XML predefines. */
    strictEntities?: boolean;
  }
  interface SAXParser {
    /** sax 1.6's text read so far and not yet reported; its CDATA section's, likewise. */
    textNode: string;
    cdata: string;
  }
}

/** Text held by sax before it is reported: sax's own MAX_BUFFER_LENGTH. */
const REPORTED_TEXT_LENGTH = 64 * 1024;

export interface EnvelopeReader {
  /** Parses the next piece of the message; throws the fault to answer as soon as the message breaks a rule. */
  write(text: string): void;
  /** The parts, once the whole message has been written. */
  end(): SoapCallParts;
}

/**
 * Reads a SOAP 1.1 svcEval or plumEval message as it arrives, with sax (a streaming parser that builds no tree),
 * and applies the message's rules (envelope-rules.ts) to its events. Refuses a message that is not
 * well-formed, and any document type declaration (so no entity is ever declared, expanded or fetched).
 */
export function envelopeReader(limits: SurveyMessageLimits): EnvelopeReader {
  // strictEntities: XML's five entities only; sax would otherwise expand HTML's (&nbsp;, &copy;, ...).
  const parser = sax.parser(true, { position: false, strictEntities: true });
  const rules = envelopeRules(limits);
  parser.onopentagstart = () => rules.openTagStart();
  parser.onattribute = ({ name }) => rules.attribute(name);
  parser.onopentag = (tag) => rules.openTag(tag.name, tag.attributes as Record<string, string>);
  parser.onclosetag = () => rules.closeTag();
  parser.ontext = (text) => rules.text(text);
  parser.oncdata = (text) => rules.text(text);
  const refuseDeclarations = (): never => {
    throw errors.doctypeRefused();
  };
  parser.ondoctype = refuseDeclarations;
  parser.onsgmldeclaration = refuseDeclarations;
  parser.onerror = (error) => {
    throw errors.malformedXml(error.message.split('\n')[0] ?? 'unreadable');
  };

  return {
    write(text) {
      parser.write(text);
      // Text is reported as it goes, as sax reports it past its MAX_BUFFER_LENGTH when it counts positions
      // (`position: false` spares that count per character): a long answer then reaches the rules as the
      // pieces it came in, not as one text to lay out whole (text-pieces.ts).
      if (parser.textNode.length > REPORTED_TEXT_LENGTH) {
        const pending = parser.textNode;
        parser.textNode = '';
        rules.text(pending);
      }
      if (parser.cdata.length > REPORTED_TEXT_LENGTH) {
        const pending = parser.cdata;
        parser.cdata = '';
        rules.text(pending);
      }
    },
    end() {
      parser.close();
      return rules.end();
    },
  };
}
