import { z } from 'zod'
import { routeUrl } from './url'
import { MessageResponse, numericId } from './validators'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * A route's contract: method, path and the zod schemas of what goes in and what comes back. Declared once in the
 * module's model.ts; the Elysia route validates with it (and tsc checks the handler's answer against `response`),
 * the OpenAPI document is generated from it, and the islands take their request and response types from it.
 */
export interface RouteContract {
	method: HttpMethod
	/** Elysia's syntax: `/api/companies/:id`. */
	path: string
	params?: z.ZodType
	query?: z.ZodType
	body?: z.ZodType
	response: z.ZodType
	/** 201 for a route that creates something; 200 otherwise. */
	status?: 201
	/** One line for the API document, in Portuguese. */
	summary: string
	/** A route that always answers `{ message: done }` once its work is done (a deletion): its handler returns nothing. */
	done?: string
}

/** The names of a path's parameters: `'/api/carnes/:id/parcelas'` → `'id'`. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
	? Name | ParamNames<`/${Rest}`>
	: P extends `${string}:${infer Name}`
		? Name
		: never

/** A contract with its path parameters: the ones it declares, else each `:name` of its path as a numeric id. */
export type WithPathParams<C extends RouteContract> = C extends { params: z.ZodType }
	? C
	: [ParamNames<C['path']>] extends [never]
		? C
		: C & { params: z.ZodObject<{ [N in ParamNames<C['path']>]: typeof numericId }> }

/**
 * Declares a route. Numeric path parameters (`:id`, `:codigo`) need no schema: the contract reads them from the path;
 * a parameter of any other kind (a file name, a CNPJ) is declared in `params`.
 */
export function contract<const C extends RouteContract>(route: C): WithPathParams<C> {
	const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1])
	if (route.params || names.length === 0) return route as WithPathParams<C>
	return { ...route, params: z.object(Object.fromEntries(names.map((name) => [name, numericId]))) } as WithPathParams<C>
}

/** The key the client calls a route by: `'GET /api/companies'`. */
export type RouteKey<C extends RouteContract> = `${C['method']} ${C['path']}`

type Part<C, K extends 'params' | 'query' | 'body'> = C extends { [P in K]: infer S extends z.ZodType } ? S : undefined

/** What the route hands to Elysia: its schemas and its line in the API document. */
export interface RouteHooks<C extends RouteContract> {
	params: Part<C, 'params'>
	query: Part<C, 'query'>
	body: Part<C, 'body'>
	response: C extends { status: 201 } ? { 201: C['response'] } : C['response']
	detail: { summary: string }
}

/** The answer of a route, as the browser receives it. */
export type ResponseOf<C extends RouteContract> = z.output<C['response']>

/** Path parameters travel as text: a caller may give a number where the route reads digits. */
type PathParams<P> = { [K in keyof P]: P[K] | number }

/** What a caller sends: path parameters, query and body, each required when the route declares it. */
export type InputOf<C extends RouteContract> = (Part<C, 'params'> extends z.ZodType
	? { params: PathParams<z.input<Part<C, 'params'>>> }
	: { params?: never }) &
	(Part<C, 'query'> extends z.ZodType ? { query?: z.input<Part<C, 'query'>> } : { query?: never }) &
	(Part<C, 'body'> extends z.ZodType ? { body: z.input<Part<C, 'body'>> } : { body?: never })

/** The contracts a module exports (every export of its model.ts that is one). */
export type ContractsOf<M> = Extract<M[keyof M], RouteContract>

/** The address of a route's read for a query: the key the island's store (routeStore) reads the same route under. */
export function addressOf<C extends RouteContract>(route: C, query?: InputOf<C>['query']): string {
	return routeUrl(route.path, undefined, query as Record<string, unknown> | undefined)
}

/** The schemas and API-document line of a contract, as an Elysia route's options (auth's serveRoutes adds the access). */
export function routeHooks<C extends RouteContract>(route: C): RouteHooks<C> {
	return {
		params: route.params,
		query: route.query,
		body: route.body,
		response: route.status === 201 ? { 201: route.response } : route.response,
		detail: { summary: route.summary }
	} as RouteHooks<C>
}

/** The one answer of every CSV export: a spreadsheet file as pt-BR spreadsheets read it (modules/core/csv.ts). */
const CsvFile = z.instanceof(Blob).describe('CSV (UTF-8 com BOM, separado por ;, datas dd/mm/aaaa, vírgula decimal)')

/** A list's CSV export: a GET taking the list's own filters, answered by the CSV of the whole filtered view. */
export function csvExportContract<const P extends string, Q extends z.ZodType>(path: P, query: Q, summary: string) {
	return contract({ method: 'GET', path, query, response: CsvFile, summary })
}

/** The DELETE of one record by its numeric key (`/api/…/:id`, `/api/…/:codigo`), answered by `done`, in Portuguese. */
export function deleteByIdContract<const P extends `/api/${string}/:${string}`>(path: P, summary: string, done: string) {
	return contract({ method: 'DELETE', path, response: MessageResponse, summary, done })
}

/**
 * An inbound webhook (Asaas, Evolution): whatever JSON the sender posts, answered `{ received }` at once and
 * processed afterwards; `secret` says where the sender's secret or account travels (path or query).
 */
export function webhookContract<const P extends `/api/${string}`, const S extends { params?: z.ZodType; query?: z.ZodType }>(
	path: P,
	secret: S,
	summary: string
) {
	return contract({ method: 'POST', path, ...secret, body: z.unknown(), response: z.object({ received: z.boolean() }), summary })
}
