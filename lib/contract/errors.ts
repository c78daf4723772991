/** An error that becomes a response with its status, message and field messages; handlers throw these. */
export abstract class HttpError extends Error {
  abstract readonly statusCode: number;

  constructor(
    message: string,
    readonly errors: readonly string[] = [],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends HttpError {
  readonly statusCode = 400;
}

export class UnauthorizedError extends HttpError {
  readonly statusCode = 401;
}

export class ForbiddenError extends HttpError {
  readonly statusCode = 403;
}

export class NotFoundError extends HttpError {
  readonly statusCode = 404;
}

export class ConflictError extends HttpError {
  readonly statusCode = 409;
}

export class PayloadTooLargeError extends HttpError {
  readonly statusCode = 413;
}

export class TooManyRequestsError extends HttpError {
  readonly statusCode = 429;
}

export class NotImplementedError extends HttpError {
  readonly statusCode = 501;
}

/** Something the request depends on outside this service, such as an OAuth provider, did not answer. */
export class ServiceUnavailableError extends HttpError {
  readonly statusCode = 503;
}
