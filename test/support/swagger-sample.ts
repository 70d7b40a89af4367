/**
 * The request Swagger UI prefills for an operation ("Try it out"), rebuilt from the OpenAPI document: the media type's
 * `example` when there is one, otherwise a sample generated from the schema the way Swagger UI's sample generator does
 * (a property's `example`, then `default`, then the first `enum` value, then a placeholder of its type; every property,
 * required or not; arrays of `minItems` copies, at least one). Parameters take their `example`; Swagger UI leaves the
 * others empty (an empty optional query parameter is not sent).
 */

export interface SchemaObject {
  $ref?: string;
  type?: string;
  format?: string;
  example?: unknown;
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, SchemaObject>;
  items?: SchemaObject;
  allOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  minItems?: number;
  minimum?: number;
  minLength?: number;
  maxLength?: number;
  readOnly?: boolean;
}

export interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  schema?: SchemaObject;
}

export interface OperationObject {
  parameters?: ParameterObject[];
  security?: Record<string, string[]>[];
  requestBody?: { content?: Record<string, { example?: unknown; schema?: SchemaObject }> };
  responses: Record<string, unknown>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, SchemaObject> };
}

function resolve(document: OpenApiDocument, schema: SchemaObject): SchemaObject {
  return schema.$ref ? resolve(document, document.components.schemas[schema.$ref.split('/').pop() ?? '']) : schema;
}

function stringSample(schema: SchemaObject): string {
  switch (schema.format) {
    case 'date-time':
      return new Date().toISOString();
    case 'date':
      return new Date().toISOString().slice(0, 10);
    case 'uuid':
      return '3fa85f64-5717-4562-b3fc-2c963f66afa6';
    case 'email':
      return 'user@example.com';
    case 'uri':
      return 'https://example.com/';
    default: {
      let text = 'string';
      while (schema.minLength && text.length < schema.minLength) text += 'string';
      return schema.maxLength ? text.slice(0, schema.maxLength) : text;
    }
  }
}

export function sampleOf(document: OpenApiDocument, given: SchemaObject): unknown {
  const schema = resolve(document, given);
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => sampleOf(document, part) as object));
  const first = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (first) return sampleOf(document, first);
  const type = schema.type ?? (schema.properties ? 'object' : undefined);
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(([, property]) => !resolve(document, property).readOnly)
          .map(([name, property]) => [name, sampleOf(document, property)]),
      );
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => (schema.items ? sampleOf(document, schema.items) : 'string'));
    case 'string':
      return stringSample(schema);
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return true;
    default:
      return undefined;
  }
}

export interface PrefilledRequest {
  /** The path with its parameters filled in (`undefined` for a parameter without an example). */
  path: string;
  query: Record<string, string>;
  body?: unknown;
  missing: string[];
}

/** What Swagger UI puts into the form of an operation. */
export function prefilledRequest(
  document: OpenApiDocument,
  path: string,
  operation: OperationObject,
  /** What the person types over an example id (their own object's), before Swagger UI encodes it. */
  own: (example: string) => string = (example) => example,
): PrefilledRequest {
  const missing: string[] = [];
  const query: Record<string, string> = {};
  let filled = path;
  for (const parameter of operation.parameters ?? []) {
    const given = parameter.example ?? parameter.schema?.example;
    const example = given === undefined ? undefined : typeof given === 'string' ? given : JSON.stringify(given);
    if (parameter.in === 'path') {
      if (example === undefined) missing.push(parameter.name);
      else filled = filled.replace(`{${parameter.name}}`, encodeURIComponent(own(example)));
    } else if (parameter.in === 'query' && example !== undefined) {
      query[parameter.name] = own(example);
    } else if (parameter.in === 'query' && parameter.required) {
      missing.push(parameter.name);
    }
  }
  const json = operation.requestBody?.content?.['application/json'];
  const body = json ? (json.example ?? (json.schema ? sampleOf(document, json.schema) : undefined)) : undefined;
  return { path: filled, query, body, missing };
}
