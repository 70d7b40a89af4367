import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DependencyIndicators, HealthController, Readiness, StartupGate } from './health';
import { HttpMetricsMiddleware, MetricsController, MetricsRegistry } from './metrics';
import { PlatformMetrics } from './platform-metrics';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController, MetricsController],
  providers: [MetricsRegistry, PlatformMetrics, DependencyIndicators, Readiness, HttpMetricsMiddleware, StartupGate],
  exports: [MetricsRegistry, HttpMetricsMiddleware, Readiness, StartupGate],
})
export class ObservabilityModule {}
