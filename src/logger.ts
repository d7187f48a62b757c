import { pino } from 'pino';

/** Logs take a message and a context object, never values formatted into the message (STYLE.md). */
export interface Logger {
  debug(message: string, context?: object): void;
  info(message: string, context?: object): void;
  warn(message: string, context?: object): void;
  error(message: string, context?: object): void;
}

export function createLogger(options: { verbose: boolean; name?: string }): Logger {
  const base = pino({ name: options.name ?? 'ntv-node', level: options.verbose ? 'debug' : 'info' });
  return {
    debug: (message, context) => base.debug(context ?? {}, message),
    info: (message, context) => base.info(context ?? {}, message),
    warn: (message, context) => base.warn(context ?? {}, message),
    error: (message, context) => base.error(context ?? {}, message),
  };
}
