import { afterEach, describe, expect, it, vi } from 'vitest';
import { log, withLogScope } from '#lib/log/logger.ts';
import { ENV } from '#lib/ports/env.ts';

/** The JSON lines `run` writes to stdout, at the info level. */
const linesOf = (run: () => void): Record<string, unknown>[] => {
  vi.stubEnv('LOG_LEVEL', 'info');
  const lines: string[] = [];
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    run();
  } finally {
    stdout.mockRestore();
  }
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
};

describe('the log line', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('names the service the stack gives the function, as its metrics do, and the request it belongs to', () => {
    vi.stubEnv(ENV.serviceName, 'IncidentService-prod');
    const [line] = linesOf(() => withLogScope('req-1', () => log.info('stored', { signalId: 's-1' })));
    expect(line).toMatchObject({
      level: 'info',
      message: 'stored',
      service: 'IncidentService-prod',
      requestId: 'req-1',
      signalId: 's-1',
    });
  });

  it('names the service incident-service where the stack gives no name', () => {
    vi.stubEnv(ENV.serviceName, undefined);
    expect(linesOf(() => log.info('started'))[0]).toMatchObject({ service: 'incident-service' });
  });
});
