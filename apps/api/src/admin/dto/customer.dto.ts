import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { PageQueryDto } from '../../common/page-query.dto';

const NAME_RULE = 'must be 1-200 characters, not only spaces';

export class CreateCustomerDto {
  @IsString()
  @MinLength(1, { message: NAME_RULE })
  @MaxLength(200, { message: NAME_RULE })
  @Matches(/\S/, { message: NAME_RULE })
  name!: string;
}

export class CreatedCustomerDto {
  id!: string;
  name!: string;
  /** The customer's API key. Shown only in this response. */
  apiKey!: string;
}

export class CustomerSummaryDto {
  id!: string;
  name!: string;
  /** ISO 8601, UTC. */
  created!: string;
}

export class CustomerPageDto {
  items!: CustomerSummaryDto[];
  totalCount!: number;
  pageNumber!: number;
  pageSize!: number;
}

export class ListCustomersQueryDto extends PageQueryDto {}
