import type { NextFunction, Request, Response } from 'express';
import { ERROR_CATALOGUE } from '@app/contracts';

/**
 * How deeply a JSON request body may nest objects and arrays (the body itself is level 1). No request of this API
 * needs more than a handful of levels; validation and transformation walk bodies recursively, so a body nested
 * thousands of levels deep would otherwise overflow the call stack.
 */
export const MAX_BODY_DEPTH = 32;

/** True when `value` nests deeper than `limit`, found without recursion (the body may be thousands of levels deep). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  while (pending.length > 0) {
    const { value: current, depth } = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child === 'object' && child !== null) pending.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

/** Runs right after JSON parsing, before routing, guards and validation: too deep is `400 invalid request body`. */
export function refuseDeeplyNestedBodies(req: Request, res: Response, next: NextFunction): void {
  if (nestsDeeperThan(req.body, MAX_BODY_DEPTH)) {
    res.status(400).json(ERROR_CATALOGUE.invalid_body);
    return;
  }
  next();
}
