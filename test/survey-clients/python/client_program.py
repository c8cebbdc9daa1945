"""What the Python client programs of the interop tests share: the calls in, what happened out.

stdin: {"wsdl": URL, "operation"?: "svcEval" (default) | "plumEval", "clients": [[call, ...], ...]}, a call being
{"question_texts": [...], "answers": [...], "ani_ip"?, "dnis"?, "session_id"?} (plumEval's three texts, absent: null).
stdout: {"clients": [{"results": [{"response": str} | {"fault": {"code", "string"}} | {"error": {"type", "message"}}, ...],
  "cookies": {name: value}, "requests": [the envelopes the client sent]}]}
"""

import json
import sys

TEXT_PARTS = ("ani_ip", "dnis", "session_id")


def call_operation(service, operation, arrays, call, null):
    """Calls the operation as a survey system would: svcEval with the two arrays, plumEval with all five parts."""
    if operation == "plumEval":
        return service.plumEval(*arrays, *[call.get(part, null) for part in TEXT_PARTS])
    return service.svcEval(*arrays)


def serve(run):
    """Runs each list of calls on its own client, made by run(wsdl, operation, calls)."""
    given = json.load(sys.stdin)
    operation = given.get("operation", "svcEval")
    output = {"clients": [run(given["wsdl"], operation, calls) for calls in given["clients"]]}
    json.dump(output, sys.stdout, ensure_ascii=False)
