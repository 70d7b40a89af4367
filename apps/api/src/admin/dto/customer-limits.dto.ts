import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min, ValidateIf } from 'class-validator';

const INSTANCES_RULE = 'must be a whole number from 1 to 1000000, or null for the server default';
const STREAMS_RULE = 'must be a whole number from 1 to 10000, or null for the server default';

/** Fields left out keep their value; `null` returns the customer to the server-wide setting. */
export class UpdateCustomerLimitsDto {
  /** Instances the customer may have (overrides `MAX_INSTANCES_PER_CUSTOMER`). */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1_000_000, nullable: true })
  @IsOptional()
  @ValidateIf((_dto, value) => value !== null)
  @IsInt({ message: INSTANCES_RULE })
  @Min(1, { message: INSTANCES_RULE })
  @Max(1_000_000, { message: INSTANCES_RULE })
  maxInstances?: number | null;

  /** Event streams each of the customer's instances may have open at once (overrides `MAX_STREAMS_PER_INSTANCE`). */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 10_000, nullable: true })
  @IsOptional()
  @ValidateIf((_dto, value) => value !== null)
  @IsInt({ message: STREAMS_RULE })
  @Min(1, { message: STREAMS_RULE })
  @Max(10_000, { message: STREAMS_RULE })
  maxStreamsPerInstance?: number | null;
}

export class CustomerLimitOverridesDto {
  /** The operator's value; null when the server default applies. */
  @ApiProperty({ type: 'integer', nullable: true })
  maxInstances!: number | null;

  @ApiProperty({ type: 'integer', nullable: true })
  maxStreamsPerInstance!: number | null;
}

/** The limits that apply to the customer now, and which of them the operator set. */
export class CustomerLimitsDto {
  maxInstances!: number;
  maxStreamsPerInstance!: number;
  overrides!: CustomerLimitOverridesDto;
}
