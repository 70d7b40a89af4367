import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ADMIN_KEY_SCHEME, API_KEY_SCHEME, INSTANCE_ID_SCHEME, SESSION_SCHEME } from './auth/auth.decorators';
import { ERROR_DESCRIPTIONS } from './common/api-errors.decorator';
import { ErrorBodyDto } from './common/error-body.dto';
import { MAX_BODY_DEPTH } from './common/body-depth';
import { addExamples } from './openapi-examples';

export const API_VERSION = '2.0.0';

export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Messaging Gateway API')
    .setDescription(
      'Multi-tenant REST API for messaging-network instances: sessions, messages, chats, contacts, groups, ' +
        'communities and signed event delivery. Every error body is `{status, detail}`. ' +
        'Account endpoints take the customer key in `X-Api-Key`; instance endpoints also need `X-Instance-Id` ' +
        "and accept the customer key or that instance's own key. The customer dashboard calls the same endpoints with " +
        'its session cookie (`mgw_session`, from `POST /auth/sign-in`) instead of a key, sending `X-CSRF-Token` on every ' +
        'state-changing request. Request bodies nested deeper than ' +
        `${MAX_BODY_DEPTH} levels are refused with \`400 invalid request body\`; text containing a NUL character or a lone ` +
        'UTF-16 surrogate, in any body field, query or path parameter, with `400 validation error: <field> contains ' +
        'characters that cannot be stored`.',
    )
    .setVersion(API_VERSION)
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'Customer key, or an instance key on instance endpoints' },
      API_KEY_SCHEME,
    )
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Instance-Id', description: 'The instance the request acts on' }, INSTANCE_ID_SCHEME)
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'X-Admin-Key', description: 'Operator key from the server configuration' },
      ADMIN_KEY_SCHEME,
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'cookie',
        name: 'mgw_session',
        description:
          'Dashboard session (set by POST /auth/sign-in). POST, PUT, PATCH and DELETE also need header X-CSRF-Token ' +
          "(from the sign-in answer or GET /auth/session) and, when the browser sends Origin, this server's own origin.",
      },
      SESSION_SCHEME,
    )
    .build();
  return addExamples(documentEdgeRefusals(SwaggerModule.createDocument(app, config, { extraModels: [ErrorBodyDto] })));
}

/**
 * Every body, query and path parameter passes the checks at the edge (see configure-app.ts), so every operation that
 * takes one can answer 400, whether or not its own route declares it.
 */
function documentEdgeRefusals(document: OpenAPIObject): OpenAPIObject {
  for (const methods of Object.values(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = methods[method];
      if (!operation || operation.responses['400']) continue;
      const takesInput =
        operation.requestBody !== undefined ||
        (operation.parameters ?? []).some((parameter) => 'in' in parameter && (parameter.in === 'path' || parameter.in === 'query'));
      if (!takesInput) continue;
      operation.responses['400'] = {
        description: ERROR_DESCRIPTIONS[400],
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${ErrorBodyDto.name}` } } },
      };
    }
  }
  return document;
}

export function mountApiDocs(app: INestApplication): OpenAPIObject {
  const document = createOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    swaggerOptions: { persistAuthorization: true, displayRequestDuration: true },
  });
  return document;
}
