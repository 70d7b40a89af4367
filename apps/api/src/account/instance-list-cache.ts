export interface ListPageKey {
  customerId: string;
  status: string | undefined;
  pageNumber: number;
  pageSize: number;
}

interface CachedPage {
  version: string;
  body: string;
}

/**
 * Pages of the instance list as sent (JSON), per process. A page is only ever served after the caller has read the
 * customer's instances version again and found it equal to the one the page was read with; PostgreSQL raises that
 * version in the same transaction as every change to the customer's instances, whichever process or replica makes it.
 * A hit therefore costs one single-row query instead of the page's rows, their mapping and their encoding, and can never
 * be stale. Oldest entries go first when the budget is full.
 */
export class InstanceListCache {
  private readonly pages = new Map<string, CachedPage>();
  private size = 0;

  /** `budget`: characters of JSON it may hold (about bytes: the list's JSON is mostly ASCII); 0 holds nothing. */
  constructor(private readonly budget: number) {}

  static keyOf(page: ListPageKey): string {
    return `${page.customerId}\n${page.status ?? ''}\n${page.pageNumber}\n${page.pageSize}`;
  }

  /** The page stored under `key`, whichever version it was read with: the caller compares it with the current one. */
  peek(key: string): CachedPage | undefined {
    return this.pages.get(key);
  }

  store(key: string, version: string, body: string): void {
    this.drop(key);
    if (body.length > this.budget) return;
    this.pages.set(key, { version, body });
    this.size += body.length;
    for (const oldest of this.pages.keys()) {
      if (this.size <= this.budget) break;
      this.drop(oldest);
    }
  }

  /** Characters held (what the budget is compared with). */
  get heldSize(): number {
    return this.size;
  }

  private drop(key: string): void {
    const cached = this.pages.get(key);
    if (!cached) return;
    this.pages.delete(key);
    this.size -= cached.body.length;
  }
}
