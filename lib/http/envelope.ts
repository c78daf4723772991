import type { BinaryResult, JsonResult } from './route.ts';

export interface SuccessBody {
  success: true;
  message: string;
  data: unknown;
  [extra: string]: unknown;
}

export interface ErrorBody {
  success: false;
  message: string;
  errors: string[];
}

export const successBody = (message: string, data: unknown, extra: Record<string, unknown> = {}): SuccessBody => ({
  success: true,
  message,
  data,
  ...extra,
});

export const errorBody = (message: string, errors: readonly string[] = []): ErrorBody => ({
  success: false,
  message,
  errors: [...errors],
});

interface ResultOptions {
  message?: string;
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
}

const json = (status: number, fallbackMessage: string, data: unknown, options: ResultOptions): JsonResult => ({
  kind: 'json',
  status,
  message: options.message ?? fallbackMessage,
  data,
  ...(options.extra && { extra: options.extra }),
  ...(options.headers && { headers: options.headers }),
});

export const ok = (data: unknown, options: ResultOptions = {}): JsonResult => json(200, 'OK', data, options);

export const created = (data: unknown, options: ResultOptions = {}): JsonResult => json(201, 'Created', data, options);

export const accepted = (data: unknown, options: ResultOptions = {}): JsonResult =>
  json(202, 'Accepted', data, options);

export const binary = (contentType: string, body: Buffer, headers: Record<string, string> = {}): BinaryResult => ({
  kind: 'binary',
  status: 200,
  contentType,
  body,
  headers,
});
