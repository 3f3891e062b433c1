import { routeStore } from './query'

/** GET /api/configuracoes, shared by every island that reads a setting. */
export const $configuracoes = routeStore('GET /api/configuracoes')

/**
 * A numeric setting as saved (the server checked it when it was saved), or `fallback` while the list loads. For
 * screens that show a figure from a setting without loading the settings' rules (their schemas) into the page.
 */
export function savedNumber(list: readonly { chave: string; valor: string }[] | undefined, key: string, fallback: number): number {
	const value = Number(list?.find((e) => e.chave === key)?.valor)
	return Number.isFinite(value) && value > 0 ? value : fallback
}
