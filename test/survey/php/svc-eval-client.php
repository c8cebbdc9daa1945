<?php
// Drives PHP's SoapClient in WSDL mode, as a survey system does, for the interop tests.
// stdin: {"wsdl": URL, "clients": [[call, ...], ...]}, a call being
//   {"question_texts": [...], "answers": [...], "ani_ip"?, "dnis"?, "session_id"?}.
// Each inner list runs on its own SoapClient, which keeps the cookies it is given like a browser would.
// stdout: {"clients": [{"results": [{"response": string} | {"fault": {"code", "string"}}, ...],
//   "cookies": {name: value}, "requests": [the envelopes PHP sent]}]}

$input = json_decode(stream_get_contents(STDIN), true, 512, JSON_THROW_ON_ERROR);
$output = ['clients' => []];

foreach ($input['clients'] as $calls) {
    $client = new SoapClient($input['wsdl'], [
        'trace' => true,
        'exceptions' => true,
        'cache_wsdl' => WSDL_CACHE_NONE,
        'connection_timeout' => 10,
    ]);
    $results = [];
    $requests = [];
    foreach ($calls as $call) {
        $arguments = [$call['question_texts'], $call['answers']];
        foreach (['ani_ip', 'dnis', 'session_id'] as $optional) {
            if (array_key_exists($optional, $call)) {
                $arguments[] = $call[$optional];
            }
        }
        try {
            $results[] = ['response' => $client->__soapCall('svcEval', $arguments)];
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
