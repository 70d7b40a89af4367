import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { phoneParam } from '../common/rule-param.pipe';
import { RequiresConnection } from '../instance-state/connected-instance.guard';
import { BulkCheckResultDto, PrivacySettingsDto, UserCheckDto, UserInfoDto, UserMeInfoDto } from './dto/user-info.dto';
import { BulkCheckDto, SetPresenceDto, SetPrivacyDto, UpdateProfileDto } from './dto/users.dto';
import { UsersService } from './users.service';

/** The account itself, and other people on the network. */
@ApiTags('Users')
@InstanceAuth()
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  /** The account's own profile: number, device, display name, about text and picture id. */
  @Get('me/profile')
  @RequiresConnection()
  @ApiOkResponse({ type: UserMeInfoDto })
  ownProfile(@CurrentScope() scope: InstanceScope): Promise<UserMeInfoDto> {
    return this.users.ownProfile(scope);
  }

  /**
   * Changes the display name, about text and/or picture (at least one). The account's devices hear of each change:
   * `chat_push_name`, `chat_status`, `chat_picture`, in that order.
   */
  @Put('me/profile')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'profile updated' })
  updateProfile(@CurrentScope() scope: InstanceScope, @Body() dto: UpdateProfileDto): Promise<void> {
    return this.users.updateProfile(scope, dto);
  }

  /** Shows the account as online or offline; not kept across reconnects. */
  @Put('me/presence')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'presence set' })
  setPresence(@CurrentScope() scope: InstanceScope, @Body() dto: SetPresenceDto): Promise<void> {
    return this.users.setPresence(scope, dto);
  }

  /** Every privacy setting of the account. */
  @Get('me/privacy')
  @RequiresConnection()
  @ApiOkResponse({ type: PrivacySettingsDto })
  privacy(@CurrentScope() scope: InstanceScope): Promise<PrivacySettingsDto> {
    return this.users.privacy(scope);
  }

  /** Changes one privacy setting; answers all of them as they now stand. */
  @Put('me/privacy')
  @RequiresConnection()
  @ApiOkResponse({ type: PrivacySettingsDto })
  setPrivacy(@CurrentScope() scope: InstanceScope, @Body() dto: SetPrivacyDto): Promise<PrivacySettingsDto> {
    return this.users.setPrivacy(scope, dto);
  }

  /** Which of up to 50 numbers are on the network, with their JIDs; in the order asked. */
  @Post('check')
  @HttpCode(200)
  @RequiresConnection()
  @ApiOkResponse({ type: BulkCheckResultDto, isArray: true })
  check(@CurrentScope() scope: InstanceScope, @Body() dto: BulkCheckDto): Promise<BulkCheckResultDto[]> {
    return this.users.check(scope, dto);
  }

  /** Whether one number is on the network. */
  @Get(':phone/check')
  @RequiresConnection()
  @ApiOkResponse({ type: UserCheckDto })
  checkOne(@CurrentScope() scope: InstanceScope, @Param('phone', phoneParam()) phone: string): Promise<UserCheckDto> {
    return this.users.checkOne(scope, phone);
  }

  /** A user's profile as their privacy settings let this account see it; 404 when the number is not on the network. */
  @Get(':phone/profile')
  @RequiresConnection()
  @ApiOkResponse({ type: UserInfoDto })
  @ApiErrors(404)
  profile(@CurrentScope() scope: InstanceScope, @Param('phone', phoneParam()) phone: string): Promise<UserInfoDto> {
    return this.users.profile(scope, phone);
  }
}
