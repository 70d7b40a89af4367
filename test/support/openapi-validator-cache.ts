import OpenAPIResponseValidator from 'openapi-response-validator';
import OpenApiSpec from 'openapi-validator/dist/classes/AbstractOpenApiSpec';
import type { ActualResponse } from 'openapi-validator/dist/classes/AbstractResponse';
import ValidationError, { ErrorCode } from 'openapi-validator/dist/classes/errors/ValidationError';

/**
 * jest-openapi's `toSatisfyApiSpec` builds a new response validator for every response it checks, and each one compiles
 * the document's schemas with Ajv again: about 38 ms of CPU a response, five times the request itself, and the
 * largest single cost of the e2e suites. The same check, with one validator per documented response (and status) of a
 * loaded document, kept for as long as that document is. Everything else is openapi-validator 0.14's own
 * `validateResponse`: the operation and status must be documented, and the body must match.
 */
type Validator = InstanceType<typeof OpenAPIResponseValidator>;
type SpecWithComponents = OpenApiSpec & { getComponentDefinitionsProperty(): object };

const validators = new WeakMap<object, Map<string, Validator>>();

function validatorFor(spec: SpecWithComponents, status: string, expected: object): Validator {
  let byStatus = validators.get(expected);
  if (!byStatus) validators.set(expected, (byStatus = new Map()));
  let validator = byStatus.get(status);
  if (!validator) {
    validator = new OpenAPIResponseValidator({ responses: { [status]: expected }, ...spec.getComponentDefinitionsProperty() } as never);
    byStatus.set(status, validator);
  }
  return validator;
}

OpenApiSpec.prototype.validateResponse = function validateResponse(this: SpecWithComponents, actualResponse: ActualResponse) {
  let expectedResponse: Record<string, object>;
  try {
    expectedResponse = this.findExpectedResponse(actualResponse);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  const [status] = Object.keys(expectedResponse);
  const failure = validatorFor(this, status, expectedResponse[status]).validateResponse(status, actualResponse.getBodyForValidation());
  if (!failure) return null;
  const errors = failure.errors as { path: string; message: string }[];
  return new ValidationError(ErrorCode.InvalidBody, errors.map(({ path, message }) => `${path} ${message}`).join(', '));
};
