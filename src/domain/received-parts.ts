/** The parts of a call as a caller sent them, SOAP envelope or REST form alike; absent parts are undefined. */
export interface ReceivedParts {
  questionTexts?: string[];
  answers?: string[];
  aniIp?: string;
  dnis?: string;
  sessionId?: string;
}
