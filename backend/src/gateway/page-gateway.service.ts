import { Injectable, NotFoundException, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, MODULE_PATH, PATH_METADATA } from '@nestjs/common/internal';
import { ExternalContextCreator, MetadataScanner, ModulesContainer, type NestContainer } from '@nestjs/core';
import { GuardsConsumer, GuardsContextCreator } from '@nestjs/core/guards/index.js';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import { InterceptorsConsumer, InterceptorsContextCreator } from '@nestjs/core/interceptors/index.js';
import { PipesConsumer, PipesContextCreator } from '@nestjs/core/pipes/index.js';
import { RouteParamsFactory } from '@nestjs/core/router/route-params-factory.js';
import { RouterExecutionContext } from '@nestjs/core/router/router-execution-context.js';
import express, { type Request, type Response } from 'express';
import { AllExceptionsFilter } from '../common/filters/all-exceptions.filter';
import { CALLER_MEMO, type CallerMemo } from './caller-memo';
import { jsonAnswer } from './json-answer';
import type { GatewayAnswer, GatewayCall, GatewayMethod, PageGateway } from '../../../isomorphic/gateway.types';

type Handler = (req: Request, res: Response, next: () => void) => Promise<void>;

/** What a page request hands on to its calls: who is asking, from where. */
interface Visitor {
  cookies: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  ip: string | undefined;
  id: unknown;
  memo: CallerMemo;
}

const METHOD_NAMES: Partial<Record<RequestMethod, GatewayMethod>> = {
  [RequestMethod.GET]: 'GET',
  [RequestMethod.POST]: 'POST',
  [RequestMethod.PUT]: 'PUT',
  [RequestMethod.PATCH]: 'PATCH',
  [RequestMethod.DELETE]: 'DELETE',
};

/** Page request headers a call must not inherit: the call has no body of its own, and the session travels as cookies. */
const NOT_FORWARDED = new Set([
  'authorization',
  'cookie',
  'content-length',
  'content-type',
  'content-encoding',
  'transfer-encoding',
  'accept-encoding',
  'if-none-match',
  'if-modified-since',
  'expect',
]);

/**
 * The pages' one data path (docs/architecture.md#one-data-path): a page calls an API operation by its OpenAPI path and
 * parameters, and this runs the very controller method HTTP would reach, through the handler
 * Nest's own router builds for it (RouterExecutionContext): the same global and route guards
 * (session, roles, rate limits), pipes (validation, ids), interceptors (the envelope), status
 * codes and headers, and errors through the same exception filter.
 * There is no socket, no HTTP parsing, no helmet, no request log line per call; the answer is
 * the JSON an HTTP client would parse (dates as strings, as over HTTP; json-answer.ts).
 *
 * Routes are read from Nest's own metadata (module prefix from RouterModule, controller and
 * method paths), so a new endpoint is reachable by pages with nothing to declare.
 */
@Injectable()
export class PageGatewayService {
  private routes?: Map<string, Handler>;
  private readonly filter = new AllExceptionsFilter();

  constructor(
    private readonly modules: ModulesContainer,
    private readonly contexts: ExternalContextCreator,
  ) {}

  /**
   * The gateway for one page request: the visitor's cookies, address and request id go along;
   * `session: false` leaves the cookies behind (a public page, the same for everyone, reads as a visitor).
   */
  forRequest(req: Request, options: { session?: boolean } = {}): PageGateway {
    const headers: Visitor['headers'] = {};
    for (const [name, value] of Object.entries(req.headers)) if (!NOT_FORWARDED.has(name)) headers[name] = value;
    const cookies = options.session === false ? {} : { ...((req.cookies as Record<string, string> | undefined) ?? {}) };
    return this.bind({ cookies, headers, ip: req.ip ?? req.socket?.remoteAddress, id: (req as { id?: unknown }).id, memo: {} });
  }

  /** The operations pages can call, as `METHOD /path/{param}` (the parity test walks them). */
  operations(): string[] {
    return [...this.table().keys()];
  }

  private bind(visitor: Visitor): PageGateway {
    return {
      call: (call) => this.invoke(visitor, call),
      withCookies: (cookies) => {
        const merged = { ...visitor.cookies };
        for (const [name, value] of Object.entries(cookies)) if (value !== undefined) merged[name] = value;
        // A new session: resolved afresh on the next call.
        return this.bind({ ...visitor, cookies: merged, memo: {} });
      },
    };
  }

  private async invoke(visitor: Visitor, call: GatewayCall): Promise<GatewayAnswer> {
    const route = this.table().get(`${call.method} ${call.path}`);
    const url = concretePath(call.path, call.params?.path);
    const req = {
      method: call.method,
      url,
      originalUrl: url,
      path: url,
      headers: { ...visitor.headers, 'x-request-timestamp': String(Date.now()) },
      cookies: visitor.cookies,
      params: stringValues(call.params?.path),
      query: stringValues(call.params?.query),
      // The JSON an HTTP body would carry: no class instances, no undefined, dates as strings.
      body: call.body === undefined ? undefined : (JSON.parse(JSON.stringify(call.body)) as unknown),
      ip: visitor.ip,
      ips: [],
      id: visitor.id,
      [CALLER_MEMO]: visitor.memo,
    } as unknown as Request;
    const res = new CapturedResponse(req);
    try {
      if (!route) throw new NotFoundException(`Cannot ${call.method} ${url}`);
      await route(req, res.asExpress(), () => undefined);
    } catch (error) {
      this.filter.catch(error, new ExecutionContextHost([req, res.asExpress(), undefined]));
    }
    return res.answer();
  }

  private table(): Map<string, Handler> {
    this.routes ??= this.discover();
    return this.routes;
  }

  private discover(): Map<string, Handler> {
    // The router's own handler factory, built as Nest's RouterExplorer builds it. The container is
    // the one the ExternalContextCreator provider was made from (Nest injects no NestContainer).
    const container = this.contexts['container'] as NestContainer;
    const config = container.applicationConfig;
    const executionContext = new RouterExecutionContext(
      new RouteParamsFactory(),
      new PipesContextCreator(container, config),
      new PipesConsumer(),
      new GuardsContextCreator(container, config),
      new GuardsConsumer(),
      new InterceptorsContextCreator(container, config),
      new InterceptorsConsumer(),
      container.getHttpAdapterRef(),
    );
    const routes = new Map<string, Handler>();
    const scanner = new MetadataScanner();
    for (const [moduleKey, module] of this.modules.entries()) {
      const modulePath = (Reflect.getMetadata(MODULE_PATH + this.modules.applicationId, module.metatype) ??
        Reflect.getMetadata(MODULE_PATH, module.metatype) ??
        '') as string;
      for (const wrapper of module.controllers.values()) {
        const instance = wrapper.instance as Record<string, (...args: unknown[]) => unknown> | undefined;
        if (!instance || !wrapper.metatype) continue;
        const controllerPaths = ([] as string[]).concat(
          (Reflect.getMetadata(PATH_METADATA, wrapper.metatype) as string | string[] | undefined) ?? '/',
        );
        for (const methodName of scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
          const callback = instance[methodName];
          const methodPaths = Reflect.getMetadata(PATH_METADATA, callback) as string | string[] | undefined;
          const requestMethod = Reflect.getMetadata(METHOD_METADATA, callback) as RequestMethod;
          const method = METHOD_NAMES[requestMethod];
          if (methodPaths === undefined || !method) continue;
          const handler = executionContext.create(instance, callback, methodName, moduleKey, requestMethod) as Handler;
          for (const controllerPath of controllerPaths) {
            for (const methodPath of ([] as string[]).concat(methodPaths)) {
              routes.set(`${method} ${template(modulePath, controllerPath, methodPath)}`, handler);
            }
          }
        }
      }
    }
    return routes;
  }
}

/** `/<module>/<controller>/<method>` with Express's `:name` written as OpenAPI's `{name}`. */
function template(...parts: string[]): string {
  const path = parts
    .flatMap((part) => part.split('/'))
    .filter(Boolean)
    .map((segment) => segment.replace(/^:(\w+)$/, '{$1}'))
    .join('/');
  return `/${path}`;
}

function concretePath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params?.[name] ?? '')));
}

/** Values as Express's query and path parsers hand them over: strings (arrays of strings for repeated keys). */
function stringValues(values: Record<string, unknown> | undefined): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(values ?? {})) {
    if (value === undefined || value === null) continue;
    result[name] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return result;
}

/**
 * Express's response API (status, header, cookie, clearCookie...) over a header map: what a
 * controller, guard or the exception filter writes is kept for the answer instead of sent.
 */
class CapturedResponse {
  statusCode = 200;
  body: unknown;
  private readonly headers = new Map<string, string | string[]>();
  private readonly express: Response;

  constructor(req: Request) {
    const res = Object.create(express.response) as Response & Record<string, unknown>;
    Object.defineProperty(res, 'statusCode', { get: () => this.statusCode, set: (value: number) => (this.statusCode = value) });
    // Nothing is ever sent: the filter and the controllers may still write their headers.
    Object.defineProperty(res, 'headersSent', { value: false });
    Object.assign(res, {
      req,
      locals: {},
      setHeader: (name: string, value: string | number | readonly string[]) => {
        this.headers.set(name.toLowerCase(), Array.isArray(value) ? value.map(String) : String(value));
        return res;
      },
      getHeader: (name: string) => this.headers.get(name.toLowerCase()),
      getHeaders: () => Object.fromEntries(this.headers),
      hasHeader: (name: string) => this.headers.has(name.toLowerCase()),
      removeHeader: (name: string) => this.headers.delete(name.toLowerCase()),
      // Nest's reply (ExpressAdapter.reply) ends in json() for objects and send() otherwise.
      json: (body: unknown) => {
        this.body = body;
        return res;
      },
      send: (body?: unknown) => {
        this.body = body;
        return res;
      },
    });
    this.express = res;
  }

  asExpress(): Response {
    return this.express;
  }

  answer(): GatewayAnswer {
    const headers: [string, string][] = [];
    for (const [name, value] of this.headers) for (const item of ([] as string[]).concat(value)) headers.push([name, item]);
    const body = this.statusCode === 204 || this.body === undefined ? undefined : jsonAnswer(this.body);
    return { status: this.statusCode, body, headers };
  }
}
