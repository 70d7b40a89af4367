import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DependencyIndicators, HealthController } from './health';
import { HttpMetricsMiddleware, MetricsController, MetricsRegistry } from './metrics';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController, MetricsController],
  providers: [MetricsRegistry, DependencyIndicators, HttpMetricsMiddleware],
  exports: [MetricsRegistry, HttpMetricsMiddleware],
})
export class ObservabilityModule {}
