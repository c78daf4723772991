/** An error that becomes a response with its status, message and field messages; handlers throw these. */
export abstract class HttpError extends Error {
  abstract readonly statusCode: number;
  /** The HTML page a person's browser is shown instead of the envelope, on a route that answers HTML. */
  page?: string;

  constructor(
    message: string,
    readonly errors: readonly string[] = [],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The error with the page a browser shows for it (see `HttpError.page`). */
export const withPage = <E extends HttpError>(error: E, page: string): E => Object.assign(error, { page });

/** The base of the errors below: one class per status, so `instanceof` and the name say which. */
const withStatus = (statusCode: number) =>
  class extends HttpError {
    readonly statusCode = statusCode;
  };

export class BadRequestError extends withStatus(400) {}
export class UnauthorizedError extends withStatus(401) {}
export class ForbiddenError extends withStatus(403) {}
export class NotFoundError extends withStatus(404) {}
export class ConflictError extends withStatus(409) {}
export class PayloadTooLargeError extends withStatus(413) {}
export class UnprocessableEntityError extends withStatus(422) {}
export class TooManyRequestsError extends withStatus(429) {}
/** A service this one called on the caller's behalf (a code host) failed or refused it. */
export class BadGatewayError extends withStatus(502) {}
/** Something the request depends on outside this service, such as an OAuth provider, did not answer. */
export class ServiceUnavailableError extends withStatus(503) {}
