import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import type { ErrorCode, RouteContract } from '@forge/shared';
import { ForgeError } from './forge-error.ts';

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
type JsonContract = RouteContract & { response: z.ZodType };

export interface RouteInputOf<C extends JsonContract> {
  params: C extends { params: z.ZodType } ? Parsed<C['params']> : undefined;
  query: C extends { query: z.ZodType } ? Parsed<C['query']> : undefined;
  body: C extends { body: z.ZodType } ? Parsed<C['body']> : undefined;
  req: Request;
  res: Response;
}

export type RouteHandler<C extends JsonContract> = (
  input: RouteInputOf<C>,
) => z.input<C['response']> | Promise<z.input<C['response']>>;

export interface DefineRouteOptions {
  /** Code for a body that fails the schema (default VALIDATION_FAILED). */
  invalidBodyCode?: ErrorCode;
}

const issuesOf = (error: z.ZodError) =>
  error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));

function parsePart(schema: z.ZodType | undefined, value: unknown, part: string, code: ErrorCode): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // The catalogue message says what to send; details are added only for the generic code.
  const details = code === 'VALIDATION_FAILED' ? { part, issues: issuesOf(result.error) } : undefined;
  throw new ForgeError(code, undefined, details);
}

/**
 * Register one route of the shared table: parse params, query and body with the route's schemas
 * (a failure is a 400 in the catalogue shape), run the handler, check its answer against the
 * response schema and send it. Rejections reach the error middleware (Express 5).
 */
export function defineRoute<C extends JsonContract>(
  router: Router,
  contract: C,
  handler: RouteHandler<C>,
  options: DefineRouteOptions = {},
): void {
  const method = contract.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  router[method](contract.path, async (req: Request, res: Response) => {
    const input = {
      params: parsePart(contract.params, req.params, 'params', 'VALIDATION_FAILED'),
      query: parsePart(contract.query, req.query, 'query', 'VALIDATION_FAILED'),
      body: parsePart(contract.body, req.body, 'body', options.invalidBodyCode ?? 'VALIDATION_FAILED'),
      req,
      res,
    } as RouteInputOf<C>;
    const result = await handler(input);
    const checked = contract.response.safeParse(result);
    if (!checked.success) {
      // A daemon bug, not a client error: 500, logged with the mismatch.
      throw new Error(
        `${contract.method} ${contract.path} produced an answer outside its contract: ${checked.error.message}`,
      );
    }
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json(checked.data);
  });
}
