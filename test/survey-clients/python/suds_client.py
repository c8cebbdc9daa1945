"""Drives suds, a SOAP client built from the WSDL at run time, as a Python survey system would, for the interop tests.

Input and output as client_program.py says. Each inner list runs on its own client, whose transport
keeps the cookies it is given.

suds reads the SOAP encoding schema from the copy it ships (suds.store), so it needs no network. It sends
a list of no item by leaving the part out, which the service reads as an empty array.
"""

from suds import WebFault
from suds.client import Client
from suds.plugin import MessagePlugin

from client_program import call_operation, serve


class SentEnvelopes(MessagePlugin):
    def __init__(self):
        self.sent = []

    def sending(self, context):
        self.sent.append(context.envelope.decode("utf-8") if isinstance(context.envelope, bytes) else str(context.envelope))


def run(wsdl, operation, calls):
    envelopes = SentEnvelopes()
    client = Client(wsdl, cache=None, plugins=[envelopes], timeout=10)
    results = []
    for call in calls:
        try:
            response = call_operation(client.service, operation, [call["question_texts"], call["answers"]], call, None)
            results.append({"response": str(response)})
        except WebFault as fault:
            results.append({"fault": {"code": str(fault.fault.faultcode), "string": str(fault.fault.faultstring)}})
    cookies = {cookie.name: cookie.value for cookie in client.options.transport.cookiejar}
    return {"results": results, "cookies": cookies, "requests": envelopes.sent}


serve(run)
