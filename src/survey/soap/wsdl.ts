/** The names of specification.md §3.1 that the code routes by; the WSDLs below spell them out too. */
export const SURVEY_SERVICE = {
  soapAction: 'urn:SampleWebserviceAction',
  namespace: 'urn:SampleWebservice',
} as const;

/**
 * The operations a call may name: svcEval, the specification's sample with two parts, and plumEval, with
 * five, as the survey system calls a web service today (specification.md §3.1). One handler answers both.
 */
export const SURVEY_OPERATIONS = ['svcEval', 'plumEval'] as const;
export type SurveyOperation = (typeof SURVEY_OPERATIONS)[number];

export function isSurveyOperation(name: string): name is SurveyOperation {
  return (SURVEY_OPERATIONS as readonly string[]).includes(name);
}

/** The envelope namespace of SOAP 1.1, the only version the service speaks. */
export const SOAP_11_ENVELOPE = 'http://schemas.xmlsoap.org/soap/envelope/';

const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (character) => XML_ESCAPES[character] ?? character);
}

const ARRAY_OF_STRING = 'tns:ArrayOfstring';
const STRING = 'xsd:string';

/**
 * Each operation's input parts. svcEval declares exactly the two inputs of the specification: clients
 * generated from a WSDL treat every declared part as required, so the optional ani_ip, dnis and
 * session_id, accepted when sent, are not declared there. plumEval declares all five, as the survey
 * system sends them.
 */
const INPUT_PARTS: Readonly<Record<SurveyOperation, readonly (readonly [string, string])[]>> = {
  svcEval: [
    ['question_texts', ARRAY_OF_STRING],
    ['answers', ARRAY_OF_STRING],
  ],
  plumEval: [
    ['question_texts', ARRAY_OF_STRING],
    ['answers', ARRAY_OF_STRING],
    ['ani_ip', STRING],
    ['dnis', STRING],
    ['session_id', STRING],
  ],
};

/**
 * The WSDL of one operation of the survey web service, rpc/encoded as survey systems expect. Only the
 * operation and the address vary, because clients post to exactly the address the WSDL names.
 */
export function renderWsdl(address: string, operation: SurveyOperation): string {
  const inputs = INPUT_PARTS[operation].map(([name, type]) => `    <part name="${name}" type="${type}"/>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions name="SampleWebservice" targetNamespace="urn:SampleWebservice"
    xmlns="http://schemas.xmlsoap.org/wsdl/"
    xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"
    xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/"
    xmlns:xsd="http://www.w3.org/2001/XMLSchema"
    xmlns:tns="urn:SampleWebservice">
  <types>
    <xsd:schema targetNamespace="urn:SampleWebservice">
      <xsd:import namespace="http://schemas.xmlsoap.org/soap/encoding/"/>
      <xsd:import namespace="http://schemas.xmlsoap.org/wsdl/"/>
      <xsd:complexType name="ArrayOfstring">
        <xsd:complexContent>
          <xsd:restriction base="soapenc:Array">
            <xsd:attribute ref="soapenc:arrayType" wsdl:arrayType="xsd:string[]"/>
          </xsd:restriction>
        </xsd:complexContent>
      </xsd:complexType>
    </xsd:schema>
  </types>
  <message name="${operation}Request">
${inputs}
  </message>
  <message name="${operation}Response">
    <part name="${operation}Response" type="xsd:string"/>
  </message>
  <portType name="SampleWebservicePortType">
    <operation name="${operation}">
      <input message="tns:${operation}Request"/>
      <output message="tns:${operation}Response"/>
    </operation>
  </portType>
  <binding name="SampleWebserviceBinding" type="tns:SampleWebservicePortType">
    <soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="${operation}">
      <soap:operation soapAction="urn:SampleWebserviceAction" style="rpc"/>
      <input>
        <soap:body use="encoded" namespace="urn:SampleWebservice" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/>
      </input>
      <output>
        <soap:body use="encoded" namespace="urn:SampleWebservice" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/>
      </output>
    </operation>
  </binding>
  <service name="SampleWebservice">
    <port name="SampleWebservicePort" binding="tns:SampleWebserviceBinding">
      <soap:address location="${escapeAttribute(address)}"/>
    </port>
  </service>
</definitions>
`;
}
