import { createFetcherStore } from './query'

export interface ConfigEntry {
	chave: string
	valor: string
}

/** GET /api/configuracoes, shared by every island that reads a setting. */
export const $configuracoes = createFetcherStore<ConfigEntry[]>(['/api/configuracoes'])

/** A numeric setting from the loaded list, or the fallback while loading or when missing/invalid. */
export function numberSetting(list: ConfigEntry[] | undefined, chave: string, fallback: number): number {
	const raw = list?.find((e) => e.chave === chave)?.valor
	const value = raw === undefined ? Number.NaN : Number(raw)
	return Number.isFinite(value) && value > 0 ? value : fallback
}
