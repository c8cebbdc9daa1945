/** The names of the specification's section 4.3 that the code routes by; the WSDL below spells them out too. */
export const SURVEY_SERVICE = {
  soapAction: 'urn:SampleWebserviceAction',
  operation: 'svcEval',
  namespace: 'urn:SampleWebservice',
} as const;

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

/**
 * The WSDL of the survey web service, rpc/encoded as survey systems expect. Only the address varies,
 * because clients post to exactly the address the WSDL names. svcEval declares exactly the two inputs
 * of the specification: clients generated from a WSDL treat every declared part as required, so the
 * optional ani_ip, dnis and session_id, accepted when sent, are not declared.
 */
export function renderWsdl(address: string): string {
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
  <message name="svcEvalRequest">
    <part name="question_texts" type="tns:ArrayOfstring"/>
    <part name="answers" type="tns:ArrayOfstring"/>
  </message>
  <message name="svcEvalResponse">
    <part name="svcEvalResponse" type="xsd:string"/>
  </message>
  <portType name="SampleWebservicePortType">
    <operation name="svcEval">
      <input message="tns:svcEvalRequest"/>
      <output message="tns:svcEvalResponse"/>
    </operation>
  </portType>
  <binding name="SampleWebserviceBinding" type="tns:SampleWebservicePortType">
    <soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="svcEval">
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
