import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SessionAuth } from '../auth/auth.decorators';
import type { ActiveSession } from '../auth/dashboard-sessions';
import { CurrentSession } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { DashboardLinks } from './dashboard-links';
import { AcceptLinkDto, LinkInfoDto, SignedInDto, SignInDto } from './dto/dashboard.dto';
import { SignInService } from './sign-in.service';

const SESSION_NOTE =
  'Sets the `mgw_session` cookie (HttpOnly, SameSite=Strict, Secure over HTTPS) to a new session token: a session id ' +
  'the browser already had is never adopted. Send `csrfToken` as `X-CSRF-Token` on every state-changing request.';

/** Dashboard sign-in, sessions and one-time links. */
@ApiTags('Dashboard')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly signIns: SignInService,
    private readonly links: DashboardLinks,
  ) {}

  @Post('sign-in')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Signs a dashboard user in',
    description: `${SESSION_NOTE} Failed attempts are limited per client address and per email address (429 with Retry-After).`,
  })
  @ApiOkResponse({ type: SignedInDto })
  @ApiErrors(400, 401, 403, 429)
  signIn(@Body() dto: SignInDto, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<SignedInDto> {
    return this.signIns.signIn(dto, request, response);
  }

  @Get('session')
  @ApiOperation({ summary: 'The signed-in user and the CSRF token of this session' })
  @SessionAuth()
  @ApiOkResponse({ type: SignedInDto })
  session(@CurrentSession() session: ActiveSession): SignedInDto {
    return this.signIns.current(session);
  }

  @Post('sign-out')
  @HttpCode(204)
  @ApiOperation({ summary: 'Ends this session' })
  @SessionAuth()
  @ApiNoContentResponse({ description: 'signed out; the cookie is cleared' })
  signOut(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<void> {
    return this.signIns.signOut(request, response);
  }

  @Post('sign-out-everywhere')
  @HttpCode(204)
  @ApiOperation({ summary: 'Ends every session of the signed-in user, on every browser' })
  @SessionAuth()
  @ApiNoContentResponse({ description: 'every session of the user ended' })
  signOutEverywhere(
    @CurrentSession() session: ActiveSession,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    return this.signIns.signOutEverywhere(session, request, response);
  }

  @Get('invites/:token')
  @ApiOperation({ summary: 'Describes a one-time link (invite or password reset) without using it' })
  @ApiOkResponse({ type: LinkInfoDto })
  @ApiErrors(403, 404, 410, 429)
  describeLink(@Param('token') token: string, @Req() request: Request): Promise<LinkInfoDto> {
    return this.links.describe(token, request);
  }

  @Post('invites/:token/accept')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sets the password through a one-time link and signs in',
    description:
      'The password needs at least 12 characters and must not be one of the most common passwords. The link then stops ' +
      `working, and every other session of the user ends. ${SESSION_NOTE}`,
  })
  @ApiOkResponse({ type: SignedInDto })
  @ApiErrors(400, 403, 404, 410, 429)
  accept(
    @Param('token') token: string,
    @Body() dto: AcceptLinkDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SignedInDto> {
    return this.links.accept(token, dto.password, request, response);
  }
}
