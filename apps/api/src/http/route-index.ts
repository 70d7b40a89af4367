import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import express, { type NextFunction, type Request, type Response } from 'express';

/** The parts of an Express 5 router layer this module reads (the `router` package has no type declarations). */
interface RouterLayer {
  route?: unknown;
  rawPath?: unknown;
}

interface RouterLike {
  stack: RouterLayer[];
}

type RouterHandle = RouterLike & ((req: Request, res: Response, next: NextFunction) => void);

/** A route's first path segment when it is plain text (`/session/status` → `session`); else undefined. */
function staticFirstSegment(layer: RouterLayer): string | undefined {
  if (typeof layer.rawPath !== 'string') return undefined;
  const first = layer.rawPath.split('/')[1] ?? '';
  // Express matches paths case-insensitively unless told otherwise (the API keeps that default).
  return /^[A-Za-z0-9_.~-]+$/.test(first) ? first.toLowerCase() : undefined;
}

function firstSegmentOf(path: string): string {
  const end = path.indexOf('/', 1);
  return (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/**
 * One middleware layer that hands a request to the sub-router of its first path segment, or passes it on. OPTIONS is
 * passed on: a router that ends without a match answers it itself (200 with `Allow`), where the whole app, whose
 * not-found handler comes after the routes, answers 404.
 */
function dispatchLayer(bySegment: Map<string, RouterHandle>): RouterLayer {
  const holder = express.Router() as unknown as RouterHandle & { use(fn: unknown): void };
  holder.use(function routeIndex(req: Request, res: Response, next: NextFunction): void {
    const router = req.method === 'OPTIONS' ? undefined : bySegment.get(firstSegmentOf(req.path));
    if (router) router(req, res, next);
    else next();
  });
  return holder.stack[0];
}

/**
 * Express looks for a request's route by trying every route in registration order: with the API's ~180 routes that
 * walk was about a tenth of the CPU of a cheap read. This regroups each run of consecutive routes whose first path
 * segment is plain text into one sub-router per segment, behind a single layer that picks the sub-router by the
 * request's first segment. Routes of different first segments never match the same path, so the route a request
 * reaches is unchanged, as are middleware order, parameters and the fall-through to the app's not-found handler
 * (which an app indexed this way must have after its routes, as Nest registers one). A route whose first segment is
 * a parameter or a pattern stays where it is and ends the run before it.
 */
export function indexRoutesByFirstSegment(router: RouterLike): void {
  const stack: RouterLayer[] = [];
  let run: Map<string, RouterHandle> | undefined;
  for (const layer of router.stack) {
    const segment = layer.route ? staticFirstSegment(layer) : undefined;
    if (segment === undefined) {
      run = undefined;
      stack.push(layer);
      continue;
    }
    if (!run) {
      run = new Map();
      stack.push(dispatchLayer(run));
    }
    let sub = run.get(segment);
    if (!sub) {
      sub = express.Router();
      run.set(segment, sub);
    }
    sub.stack.push(layer);
  }
  router.stack.splice(0, router.stack.length, ...stack);
}

/** Indexes the API's routes once Nest has registered all of them (and its 404 and error handlers after them). */
@Injectable()
export class RouteIndex implements OnApplicationBootstrap {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const app = this.adapterHost.httpAdapter?.getInstance<express.Express>();
    if (app?.router) indexRoutesByFirstSegment(app.router);
  }
}
