import { routeStore } from './query'

type ConfigEntry = { chave: string; valor: string }

/** GET /api/configuracoes, shared by every island that reads a setting. */
export const $configuracoes = routeStore('GET /api/configuracoes')

/** A numeric setting from the loaded list, or the fallback while loading or when missing/invalid. */
export function numberSetting(list: ConfigEntry[] | undefined, chave: string, fallback: number): number {
	const raw = list?.find((e) => e.chave === chave)?.valor
	const value = raw === undefined ? Number.NaN : Number(raw)
	return Number.isFinite(value) && value > 0 ? value : fallback
}
