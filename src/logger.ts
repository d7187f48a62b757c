import { pino } from 'pino';

/** Logs take a message and a context object, never values formatted into the message (STYLE.md). */
export interface Logger {
  debug(message: string, context?: object): void;
  info(message: string, context?: object): void;
  warn(message: string, context?: object): void;
  error(message: string, context?: object): void;
}

/**
 * `--log-format` (README flag table): `json` is pino's one object per line, for log shippers;
 * `pretty` one human line per entry (`12:00:01.234 INFO  block  height=12 bundles=3 …`); `auto`
 * pretty when stdout is a terminal, JSON when it is piped or redirected (a file or a collector).
 */
export type LogFormat = 'pretty' | 'json' | 'auto';
export const LOG_FORMATS = ['pretty', 'json', 'auto'] as const;

/** What the pretty format writes to: process.stdout, or a test's sink. */
export interface LogSink {
  write(text: string): unknown;
  isTTY?: boolean;
}

export function createLogger(options: { verbose: boolean; name?: string; format?: LogFormat; sink?: LogSink }): Logger {
  const sink = options.sink ?? process.stdout;
  const format = options.format ?? 'json';
  if (format === 'pretty' || (format === 'auto' && sink.isTTY === true)) {
    // Colour only on a terminal, and never when NO_COLOR is set (no-color.org).
    return prettyLogger(sink, { verbose: options.verbose, color: sink.isTTY === true && !process.env.NO_COLOR });
  }
  const base = options.sink
    ? pino({ name: options.name ?? 'ntv-node', level: options.verbose ? 'debug' : 'info' }, { write: (text: string) => void sink.write(text) })
    : pino({ name: options.name ?? 'ntv-node', level: options.verbose ? 'debug' : 'info' });
  return {
    debug: (message, context) => base.debug(context ?? {}, message),
    info: (message, context) => base.info(context ?? {}, message),
    warn: (message, context) => base.warn(context ?? {}, message),
    error: (message, context) => base.error(context ?? {}, message),
  };
}

type Level = 'debug' | 'info' | 'warn' | 'error';

const LEVEL_LABEL: Record<Level, string> = { debug: 'DEBUG', info: 'INFO ', warn: 'WARN ', error: 'ERROR' };
// SGR colours: grey, green, yellow, red; keys dim.
const LEVEL_COLOUR: Record<Level, string> = { debug: '90', info: '32', warn: '33', error: '31' };

function prettyLogger(sink: LogSink, options: { verbose: boolean; color: boolean }): Logger {
  const paint = (code: string, text: string) => (options.color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const line = (level: Level, message: string, context?: object) => {
    const now = new Date();
    const time = `${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}.${String(now.getMilliseconds()).padStart(3, '0')}`;
    const fields = Object.entries(context ?? {})
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${paint('2', `${key}=`)}${prettyValue(value)}`);
    sink.write(`${paint('2', time)} ${paint(LEVEL_COLOUR[level], LEVEL_LABEL[level])} ${message}${fields.length > 0 ? '  ' + fields.join(' ') : ''}\n`);
  };
  return {
    debug: (message, context) => {
      if (options.verbose) line('debug', message, context);
    },
    info: (message, context) => line('info', message, context),
    warn: (message, context) => line('warn', message, context),
    error: (message, context) => line('error', message, context),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A context value on one line: plain when it has no space or quote, else JSON; errors by their message. */
export function prettyValue(value: unknown): string {
  if (value instanceof Error) return JSON.stringify(value.message);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Error ? v.message : v));
  } catch {
    return String(value);
  }
}
