"""Drives suds, a SOAP client built from the WSDL at run time, as a Python survey system would, for the interop tests.

stdin: {"wsdl": URL, "operation"?: "svcEval" (default) | "plumEval", "clients": [[call, ...], ...]}, a call being
{"question_texts": [...], "answers": [...], "ani_ip"?, "dnis"?, "session_id"?} (the three texts for plumEval, absent: None).
Each inner list runs on its own client, whose transport keeps the cookies it is given.
stdout: {"clients": [{"results": [{"response": str} | {"fault": {"code", "string"}}, ...],
  "cookies": {name: value}, "requests": [the envelopes suds sent]}]}

suds reads the SOAP encoding schema from the copy it ships (suds.store), so it needs no network. It sends
a list of no item by leaving the part out, which the service reads as an empty array.
"""

import json
import sys

from suds import WebFault
from suds.client import Client
from suds.plugin import MessagePlugin


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
        arrays = [call["question_texts"], call["answers"]]
        try:
            if operation == "plumEval":
                response = client.service.plumEval(*arrays, call.get("ani_ip"), call.get("dnis"), call.get("session_id"))
            else:
                response = client.service.svcEval(*arrays)
            results.append({"response": str(response)})
        except WebFault as fault:
            results.append({"fault": {"code": str(fault.fault.faultcode), "string": str(fault.fault.faultstring)}})
    cookies = {cookie.name: cookie.value for cookie in client.options.transport.cookiejar}
    return {"results": results, "cookies": cookies, "requests": envelopes.sent}


def main():
    given = json.load(sys.stdin)
    operation = given.get("operation", "svcEval")
    output = {"clients": [run(given["wsdl"], operation, calls) for calls in given["clients"]]}
    json.dump(output, sys.stdout, ensure_ascii=False)


main()
