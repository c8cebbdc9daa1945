<?php
// Drives PHP's SoapClient in WSDL mode, as a survey system does, for the interop tests.
// stdin: {"wsdl": URL, "operation"?: "svcEval" (default) | "plumEval", "clients": [[call, ...], ...]}, a call being
//   {"question_texts": [...], "answers": [...], "ani_ip"?, "dnis"?, "session_id"?}.
// Each inner list runs on its own SoapClient, which keeps the cookies it is given like a browser would.
// plumEval's WSDL declares all five parts: each is passed in order, an absent one as null. svcEval's
// declares only the two arrays: a list whose calls carry optional parts runs without the WSDL, as does
// a survey system that sends them, naming each part with a SoapParam.
// stdout: {"clients": [{"results": [{"response": string} | {"fault": {"code", "string"}}, ...],
//   "cookies": {name: value}, "requests": [the envelopes PHP sent]}]}

$input = json_decode(stream_get_contents(STDIN), true, 512, JSON_THROW_ON_ERROR);
$operation = $input['operation'] ?? 'svcEval';
$output = ['clients' => []];

$optionalParts = ['ani_ip', 'dnis', 'session_id'];
$options = ['trace' => true, 'exceptions' => true, 'cache_wsdl' => WSDL_CACHE_NONE, 'connection_timeout' => 10];

foreach ($input['clients'] as $calls) {
    $withoutWsdl = false;
    foreach ($calls as $call) {
        $withoutWsdl = $withoutWsdl || ($operation === 'svcEval' && count(array_intersect_key($call, array_flip($optionalParts))) > 0);
    }
    $client = $withoutWsdl
        ? new SoapClient(null, $options + ['location' => preg_replace('/\?wsdl$/', '', $input['wsdl']), 'uri' => 'urn:SampleWebservice'])
        : new SoapClient($input['wsdl'], $options);
    $results = [];
    $requests = [];
    foreach ($calls as $call) {
        $arguments = [];
        foreach (array_merge(['question_texts', 'answers'], $optionalParts) as $part) {
            if ($operation === 'plumEval') {
                $arguments[] = $call[$part] ?? null;
            } elseif (array_key_exists($part, $call)) {
                $arguments[] = $withoutWsdl ? new SoapParam($call[$part], $part) : $call[$part];
            }
        }
        $callOptions = $withoutWsdl ? ['soapaction' => 'urn:SampleWebserviceAction'] : [];
        try {
            $results[] = ['response' => $client->__soapCall($operation, $arguments, $callOptions)];
        } catch (SoapFault $fault) {
            $results[] = ['fault' => ['code' => $fault->faultcode, 'string' => $fault->faultstring]];
        }
        $requests[] = $client->__getLastRequest();
    }
    $cookies = [];
    foreach ($client->__getCookies() as $name => $cookie) {
        $cookies[$name] = $cookie[0];
    }
    $output['clients'][] = ['results' => $results, 'cookies' => (object) $cookies, 'requests' => $requests];
}

echo json_encode($output, JSON_THROW_ON_ERROR | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES), "\n";
