import { type Context, Elysia } from 'elysia'
import type { z } from 'zod'
import { type Capability, type RouteContract, routeHooks } from '../core'
import type { AppContext } from '../core/server'
import { authGuard } from './guard'
import type { SessionUser } from './model'
import type { SessionInfo } from './service'

/** Who may call a route: a capability of core/access.ts, or anyone (`'public'`: the caller proves itself otherwise). */
export type Access = Capability | 'public'

type Input<C, K extends 'params' | 'query' | 'body'> = C extends { [P in K]: infer S extends z.ZodType } ? z.output<S> : undefined

/** What a handler receives: the request's parts parsed by the contract's schemas and, behind a capability, the caller. */
export type RouteInput<C extends RouteContract, A extends Access> = {
	params: Input<C, 'params'>
	query: Input<C, 'query'>
	body: Input<C, 'body'>
	request: Request
	server: Context['server']
	set: Context['set']
	cookie: Context['cookie']
} & (A extends 'public' ? unknown : { user: SessionUser; session: SessionInfo })

/**
 * The contract's answer (a route that creates something answers 201 with it), or a file as a ready Response; for a
 * contract with `done` the answer is that message, and what the handler returns is not looked at.
 */
export type RouteAnswer<C extends RouteContract> = C extends { done: string } ? unknown : z.output<C['response']> | Response

export interface Endpoint {
	contract: RouteContract
	access: Access
	handle: (input: never) => unknown
}

/** One route: its contract (model.ts), who may call it, and what it does. */
export function serve<const C extends RouteContract, const A extends Access>(
	contract: C,
	access: A,
	handle: (input: RouteInput<C, A>) => RouteAnswer<C> | Promise<RouteAnswer<C>>
): Endpoint {
	return { contract, access, handle }
}

/**
 * A module's routes as one Elysia plugin, in the order `endpoints` lists them (built from the context, whose
 * database and clock most handlers pass on): each validated by its contract, guarded by its
 * access (authGuard's `can` or `publicRoute`) and documented from both; a contract with `status: 201` answers 201.
 */
export function serveRoutes(ctx: AppContext, name: string, endpoints: (ctx: AppContext) => Endpoint[]) {
	const app = new Elysia({ name }).use(authGuard(ctx))
	for (const { contract, access, handle } of endpoints(ctx)) {
		const guard = access === 'public' ? { publicRoute: true as const } : { can: access }
		const run = handle as (input: Context) => unknown
		const { done } = contract
		const answer = done
			? (input: Context) => doneWith(done, run(input))
			: contract.status === 201
				? (input: Context) => created(input, run(input))
				: run
		app.route(contract.method, contract.path, answer as never, { ...routeHooks(contract), ...guard } as never)
	}
	return app
}

function doneWith(message: string, work: unknown) {
	return work instanceof Promise ? work.then(() => ({ message })) : { message }
}

function created(input: Context, answer: unknown) {
	return answer instanceof Promise ? answer.then((body) => input.status(201, body)) : input.status(201, answer)
}
