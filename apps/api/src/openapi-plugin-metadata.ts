import { ApiProperty, SwaggerModule } from '@nestjs/swagger';
import { ErrorBodyDto } from './common/error-body.dto';
import openApiMetadata from './openapi-metadata';

/** Where the @nestjs/swagger CLI plugin leaves a DTO's properties (its METADATA_FACTORY_NAME). */
const PLUGIN_METADATA = '_OPENAPI_METADATA_FACTORY';
/** Where @ApiProperty keeps a property's options (@nestjs/swagger's DECORATORS.API_MODEL_PROPERTIES). */
const MODEL_PROPERTY = 'swagger/apiModelProperties';

type PropertyMetadata = Record<string, { type?: unknown }>;
type ModelMetadata = [Promise<Record<string, { prototype: object }>>, Record<string, PropertyMetadata>][];

/**
 * The OpenAPI document needs what the swagger CLI plugin reads from the API's types. The build and Jest both compile
 * with SWC, which has no type checker to run the plugin, so the same metadata comes from the committed file
 * `scripts/generate-openapi-metadata.mjs` writes; `npm run typecheck` fails while that file is stale. Code compiled with
 * the plugin (tsc through `nest build`) already carries it, and the file is not read.
 */
export async function loadOpenApiMetadata(): Promise<void> {
  if (Object.hasOwn(ErrorBodyDto, PLUGIN_METADATA)) return;
  const metadata = await openApiMetadata();
  await SwaggerModule.loadPluginMetadata(() => Promise.resolve(metadata));
  await retypeDecoratedProperties((metadata['@nestjs/swagger'].models ?? []) as unknown as ModelMetadata);
}

/**
 * An explicit @ApiProperty without a `type` takes the plugin's type when the class already has the plugin's metadata
 * as it is decorated (the build); loaded afterwards, the decorator has fallen back to the design type (`Array` for
 * `Item[]`). Those properties get the plugin's type now, as the build would have given them.
 */
async function retypeDecoratedProperties(models: ModelMetadata): Promise<void> {
  for (const [file, classes] of models) {
    const exported = await file;
    for (const [className, properties] of Object.entries(classes)) {
      const { prototype } = exported[className];
      for (const [key, { type }] of Object.entries(properties)) {
        const decorated = Reflect.getOwnMetadata(MODEL_PROPERTY, prototype, key) as { type?: unknown } | undefined;
        if (type && decorated && decorated.type === Reflect.getMetadata('design:type', prototype, key)) {
          ApiProperty({ type: type as () => unknown })(prototype, key);
        }
      }
    }
  }
}
