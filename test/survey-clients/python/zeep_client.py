"""Drives zeep, a SOAP client generated from the WSDL, as a Python survey system would, for the interop tests.

Input and output as client_program.py says. Each inner list runs on its own client, whose HTTP session
keeps the cookies it is given. zeep requires every part the WSDL declares: a null one (plumEval's dnis,
for a web survey) is sent as xsi:nil.
"""

import os

from lxml import etree
from zeep import Client, Plugin, xsd
from requests.exceptions import RequestException
from zeep.exceptions import Error, Fault
from zeep.transports import Transport

from client_program import call_operation, serve

SOAP_ENCODING = "http://schemas.xmlsoap.org/soap/encoding/"
SOAP_ENCODING_SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "soap-encoding.xsd")


class OfflineTransport(Transport):
    """zeep fetches the SOAP encoding schema from its namespace address; the tests run offline."""

    def load(self, url):
        if url.rstrip("/") == SOAP_ENCODING.rstrip("/"):
            with open(SOAP_ENCODING_SCHEMA, "rb") as schema:
                return schema.read()
        return super().load(url)


class SentEnvelopes(Plugin):
    def __init__(self):
        self.sent = []

    def egress(self, envelope, http_headers, operation, binding_options):
        self.sent.append(etree.tostring(envelope, encoding="unicode"))
        return envelope, http_headers


def run(wsdl, operation, calls):
    envelopes = SentEnvelopes()
    client = Client(wsdl, transport=OfflineTransport(), plugins=[envelopes])
    array_of_string = client.get_type("{urn:SampleWebservice}ArrayOfstring")

    # zeep requires at least one item in an ArrayOfstring it builds; a plain empty list is sent as an empty array.
    def encoded(items):
        return array_of_string(items) if items else []

    results = []
    for call in calls:
        try:
            arrays = [encoded(call["question_texts"]), encoded(call["answers"])]
            response = call_operation(client.service, operation, arrays, call, xsd.Nil)
            results.append({"response": response})
        except Fault as fault:
            results.append({"fault": {"code": fault.code, "string": fault.message}})
        except (RequestException, Error) as error:
            # What a survey system's code meets when the line drops: the exception zeep raises, by its name.
            results.append({"error": {"type": f"{type(error).__module__}.{type(error).__name__}", "message": str(error)}})
    cookies = {cookie.name: cookie.value for cookie in client.transport.session.cookies}
    return {"results": results, "cookies": cookies, "requests": envelopes.sent}


serve(run)
