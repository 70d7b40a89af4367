import { Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DependencyIndicators, HealthController } from './health';
import { HttpMetricsMiddleware, MetricsController, MetricsRegistry } from './metrics';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController, MetricsController],
  providers: [MetricsRegistry, DependencyIndicators],
  exports: [MetricsRegistry],
})
export class ObservabilityModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetricsMiddleware).forRoutes('*');
  }
}
