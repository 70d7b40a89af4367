import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

const DEFAULT_PAGE_SIZE = 20;

export class PageQueryDto {
  /** 1-based page number. */
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'must be a whole number' })
  @Min(1, { message: 'must be at least 1' })
  pageNumber?: number;

  /** Items per page, 1-100. */
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
