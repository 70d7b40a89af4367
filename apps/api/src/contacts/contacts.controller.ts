import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { userIdParam } from '../common/rule-param.pipe';
import { RequiresConnection } from '../instance-state/connected-instance.guard';
import { ContactsService } from './contacts.service';
import { ContactInfoDto, IdentityDto, SaveContactDto } from './dto/contact.dto';

/** The people the instance knows, the phone's address book, and the account's blocklist. */
@ApiTags('Contacts')
@InstanceAuth()
@Controller('contacts')
export class ContactsController {
  constructor(private readonly contacts: ContactsService) {}

  /** Everyone the instance knows: saved contacts and people it has heard from, ordered by JID. */
  @Get()
  @RequiresConnection()
  @ApiOkResponse({ type: ContactInfoDto, isArray: true })
  list(@CurrentScope() scope: InstanceScope): Promise<ContactInfoDto[]> {
    return this.contacts.list(scope);
  }

  /** Saves the person in the phone's address book, or renames them there; a `contact` event follows. */
  @Post()
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'contact created or updated' })
  save(@CurrentScope() scope: InstanceScope, @Body() dto: SaveContactDto): Promise<void> {
    return this.contacts.save(scope, dto);
  }

  /** Reads the whole address book from the network again and replaces what the instance knew of it. */
  @Post('sync')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'address book synced' })
  sync(@CurrentScope() scope: InstanceScope): Promise<void> {
    return this.contacts.sync(scope);
  }

  /** The people this account has blocked, as the network holds the list. */
  @Get('blocklist')
  @RequiresConnection()
  @ApiOkResponse({ type: IdentityDto, isArray: true })
  blocklist(@CurrentScope() scope: InstanceScope): Promise<IdentityDto[]> {
    return this.contacts.blocklist(scope);
  }

  /** One person the instance knows, by user JID, LID or international number. */
  @Get(':id')
  @RequiresConnection()
  @ApiOkResponse({ type: ContactInfoDto })
  @ApiErrors(404)
  get(@CurrentScope() scope: InstanceScope, @Param('id', userIdParam()) id: string): Promise<ContactInfoDto> {
    return this.contacts.get(scope, id);
  }

  /** Blocks the person: their messages and calls no longer reach this account. Blocking twice changes nothing. */
  @Put(':id/block')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'contact blocked' })
  block(@CurrentScope() scope: InstanceScope, @Param('id', userIdParam()) id: string): Promise<void> {
    return this.contacts.setBlocked(scope, id, true);
  }

  /** Unblocks the person; unblocking someone not blocked changes nothing. */
  @Put(':id/unblock')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'contact unblocked' })
  unblock(@CurrentScope() scope: InstanceScope, @Param('id', userIdParam()) id: string): Promise<void> {
    return this.contacts.setBlocked(scope, id, false);
  }
}
