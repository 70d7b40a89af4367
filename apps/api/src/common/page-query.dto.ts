import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

const DEFAULT_PAGE_SIZE = 20;
/** Far beyond any real listing, and small enough that the row offset stays an ordinary number for the database. */
export const MAX_PAGE_NUMBER = 1_000_000;
const PAGE_NUMBER_RULE = `must be a whole number from 1 to ${MAX_PAGE_NUMBER}`;

export class PageQueryDto {
  /** 1-based page number, at most 1000000. */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE_NUMBER })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: PAGE_NUMBER_RULE })
  @Min(1, { message: PAGE_NUMBER_RULE })
  @Max(MAX_PAGE_NUMBER, { message: PAGE_NUMBER_RULE })
  pageNumber?: number;

  /** Items per page, 1-100. */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'must be a whole number' })
  @Min(1, { message: 'must be from 1 to 100' })
  @Max(100, { message: 'must be from 1 to 100' })
  pageSize?: number;
}

/** The page asked for, with defaults, and how many rows to skip to reach it. */
export function pageWindow(query: PageQueryDto): { pageNumber: number; pageSize: number; skip: number } {
  const pageNumber = query.pageNumber ?? 1;
  const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
  return { pageNumber, pageSize, skip: (pageNumber - 1) * pageSize };
}
