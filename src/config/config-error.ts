/** A setting the server cannot start with: every mistake of the environment or of a configuration file named in one message. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
