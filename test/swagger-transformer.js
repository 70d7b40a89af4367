// Applies the @nestjs/swagger CLI plugin under ts-jest, so the OpenAPI document in tests matches the build.
const transformer = require('@nestjs/swagger/plugin');

module.exports.name = 'nestjs-swagger-transformer';
module.exports.version = 1;
module.exports.factory = (compiler) =>
  transformer.before({ introspectComments: true, classValidatorShim: true, dtoFileNameSuffix: ['.dto.ts'] }, compiler.program);
