import { AsyncLocalStorage } from 'node:async_hooks';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, 'silent'>;

interface LogScope {
  requestId: string;
}

/**
 * The request a log line belongs to. An async-local scope rather than module state, because the local
 * server runs many requests of one handler at the same time in one process.
 */
const scope = new AsyncLocalStorage<LogScope>();

export const withLogScope = <T>(requestId: string, run: () => T): T => scope.run({ requestId }, run);

const threshold = (): number => {
  const configured = (process.env.LOG_LEVEL ?? 'info').toLowerCase();
  return configured in LEVELS ? LEVELS[configured as keyof typeof LEVELS] : LEVELS.info;
};

const errorFields = (error: unknown): Record<string, unknown> =>
  error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { value: String(error) };

const write = (level: Level, message: string, fields: Record<string, unknown> = {}): void => {
  if (LEVELS[level] < threshold()) return;
  const { error, ...rest } = fields;
  const line = {
    level,
    time: new Date().toISOString(),
    message,
    requestId: scope.getStore()?.requestId,
    ...rest,
    ...(error !== undefined && { error: errorFields(error) }),
  };
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${JSON.stringify(line)}\n`);
};

/** Structured JSON logs, one object a line, each carrying the request id of its scope. */
export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write('debug', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write('info', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('warn', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write('error', message, fields),
};
