/** The account itself in the Asaas stand-in: GET /v3/wallets/ answers its walletId (one per API key). */
import { createHash } from 'node:crypto'
import { json, type Route, type StandinAccount, StandinRefusal, type StandinState } from './shared'

/** A stable walletId per account, shaped as Asaas' (a UUID). */
export function walletIdOf(a: StandinAccount): string {
	const h = createHash('sha256').update(a.key).digest('hex')
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}

export function walletRoutes(state: StandinState): Route[] {
	return [
		[
			'GET',
			/^\/wallets\/?$/,
			({ a }) => {
				if (state.modes.wallets === 'forbidden')
					throw new StandinRefusal(403, 'insufficient_permission', 'A chave de API não tem permissão para esta operação.')
				const wallet = { object: 'wallet', id: walletIdOf(a) }
				return json(
					state.modes.wallets === 'object'
						? wallet
						: { object: 'list', hasMore: false, totalCount: 1, limit: 10, offset: 0, data: [wallet] }
				)
			}
		]
	]
}
