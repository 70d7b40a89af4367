import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError, ERROR_CATALOGUE, type ErrorBody } from '@app/contracts';

/** Texts for HTTP errors raised outside our code (router, body parser, Nest internals). */
function bodyForHttpException(exception: HttpException): ErrorBody {
  const status = exception.getStatus();
  const response = exception.getResponse();
  if (typeof response === 'object' && response !== null && 'detail' in response && typeof response.detail === 'string') {
    return { status, detail: response.detail };
  }
  switch (status) {
    case 400:
      return ERROR_CATALOGUE.invalid_body;
    case 401:
      return ERROR_CATALOGUE.unauthorized;
    case 403:
      return ERROR_CATALOGUE.forbidden;
    case 404:
    case 405:
      return ERROR_CATALOGUE.not_found;
    case 413:
      return ERROR_CATALOGUE.payload_too_large;
    case 429:
      return ERROR_CATALOGUE.rate_limited;
    default:
      return status >= 500 ? ERROR_CATALOGUE.internal : { status, detail: exception.message.toLowerCase() };
  }
}

/** Body-parser errors arrive as plain errors carrying a status and a type. */
function bodyForParserError(exception: unknown): ErrorBody | undefined {
  if (typeof exception !== 'object' || exception === null || !('type' in exception) || !('status' in exception)) return undefined;
  const { type, status } = exception;
  if (typeof type !== 'string' || typeof status !== 'number') return undefined;
  if (type === 'entity.too.large') return ERROR_CATALOGUE.payload_too_large;
  if (status >= 400 && status < 500) return ERROR_CATALOGUE.invalid_body;
  return undefined;
}

/** The one place errors become responses: every error body is exactly `{status, detail}`. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const context = host.switchToHttp();
    const response = context.getResponse<Response>();
    const request = context.getRequest<Request & { id?: string }>();

    let body: ErrorBody;
    if (exception instanceof AppError) {
      body = exception.toBody();
      for (const [name, value] of Object.entries(exception.headers)) response.setHeader(name, value);
    } else if (exception instanceof HttpException) {
      body = bodyForHttpException(exception);
    } else {
      body = bodyForParserError(exception) ?? ERROR_CATALOGUE.internal;
    }
    if (body.status >= 500 && body.status !== 503) {
      this.logger.error({ err: exception, requestId: request.id, method: request.method, url: request.url }, 'unhandled error');
    }
    if (response.headersSent) return;
    response.status(body.status).json({ status: body.status, detail: body.detail });
  }
}
