import { Module } from '@nestjs/common';
import { AuthController } from './auth.controller';
import { DashboardLinks } from './dashboard-links';
import { LinkIssuer } from './link-issuer';
import { SignInService } from './sign-in.service';
import { TeamController } from './team.controller';
import { TeamService } from './team.service';

@Module({
  controllers: [AuthController, TeamController],
  providers: [LinkIssuer, DashboardLinks, SignInService, TeamService],
  exports: [LinkIssuer, TeamService],
})
export class DashboardModule {}
