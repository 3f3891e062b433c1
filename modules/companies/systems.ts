/**
 * The five systems the vendor sells, and how each one is stored (its block flag column, S = blocked) and named
 * in the API's figures. The one list: the schema's columns and indexes, the zod fields, the screens, the reports
 * and the licence check are all derived from it.
 */
export const SYSTEM_CATALOGUE = [
	{ name: 'K-RETA', key: 'kreta', flag: 'bloqueado', short: 'RETA' },
	{ name: 'K-PDV', key: 'kpdv', flag: 'bloqueadopdv', short: 'PDV' },
	{ name: 'K-CHEF', key: 'kchef', flag: 'bloqueado_kchef', short: 'CHEF' },
	{ name: 'K-ATELIE', key: 'katelie', flag: 'bloqueado_katelie', short: 'ATELIE' },
	{ name: 'K-PRE VENDA', key: 'kprevenda', flag: 'bloqueado_kprevenda', short: 'PRÉ' }
] as const

export type SystemEntry = (typeof SYSTEM_CATALOGUE)[number]
export type SystemName = SystemEntry['name']
export type SystemKey = SystemEntry['key']
export type FlagColumn = SystemEntry['flag']

export const SYSTEMS = SYSTEM_CATALOGUE.map((s) => s.name) as unknown as readonly [SystemName, ...SystemName[]]
export const FLAG_COLUMNS: readonly FlagColumn[] = SYSTEM_CATALOGUE.map((s) => s.flag)
export const SYSTEM_FLAGS = Object.fromEntries(SYSTEM_CATALOGUE.map((s) => [s.name, s.flag])) as Record<SystemName, FlagColumn>

/** One value per system's flag, e.g. the same zod field or column builder for each. */
export function perFlag<T>(value: (flag: FlagColumn) => T): Record<FlagColumn, T> {
	return Object.fromEntries(FLAG_COLUMNS.map((flag) => [flag, value(flag)])) as Record<FlagColumn, T>
}

export function perSystemKey<T>(value: (system: SystemEntry) => T): Record<SystemKey, T> {
	return Object.fromEntries(SYSTEM_CATALOGUE.map((system) => [system.key, value(system)])) as Record<SystemKey, T>
}

/** The SQL of "unblocked in every system", written the same everywhere so SQLite uses the partial index. */
export const UNBLOCKED_SQL = FLAG_COLUMNS.map((flag) => `${flag} = 'N'`).join(' and ')
