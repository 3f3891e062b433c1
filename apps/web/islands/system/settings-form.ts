/** The settings screen's data: the list from GET /api/configuracoes, its local cache, and the rules of §5.7. */

import { type Definition, type NumberRange, SETTING_DEFINITIONS, fitsRange, rangeMessage } from '../../../../modules/settings/model'
import type { SettingView as SettingEntry } from '../../../../modules/system/model'

export type { SettingEntry }

export type Values = Record<string, string>

/** The keys 'Salvar Alterações' sends (§3.8 without the payment-provider key and environment). */
export const BULK_KEYS = [
	'tema.modo',
	'tema.cor_primaria',
	'tema.cor_secundaria',
	'tema.cor_destaque',
	'tema.tamanho_fonte',
	'tema.modo_compacto',
	'app.valor_credito_dia',
	'app.valor_credito_individual',
	'app.terminais_padrao',
	'app.notificacoes_habilitadas',
	'app.backup_automatico',
	'app.intervalo_backup',
	'app.backups_manter',
	'app.idioma',
	'app.fuso_horario',
	'app.formato_data',
	'app.moeda'
] as const

/** The numeric settings' bounds (§5.7), from the settings' own definitions. */
export function rangeOf(key: string): NumberRange {
	return (SETTING_DEFINITIONS as Record<string, Definition>)[key].range!
}

/** A select setting's values with the words shown for each, in the order offered (the settings' own definitions). */
export function choicesOf(key: string): Readonly<Record<string, string>> {
	return (SETTING_DEFINITIONS as Record<string, Definition>)[key].choices!
}

/** Every value checked by the same rule the server applies, all fields at once. */
export function validate(values: Values): Record<string, string> {
	const errors: Record<string, string> = {}
	for (const [key, definition] of Object.entries(SETTING_DEFINITIONS as Record<string, Definition>)) {
		const raw = values[key]
		if (raw !== undefined && definition.range && !fitsRange(definition.range, raw)) errors[key] = rangeMessage(definition.range)
	}
	return errors
}

const CACHE_KEY = 'kportal-configuracoes'
export const APP_SETTINGS_KEY = 'kportal-app-settings'
export const THEME_SETTINGS_KEY = 'kportal-theme-settings'

/** §3.9: the two client-side objects, cached in local storage, plus the raw list for the 'Local' fallback. */
export function cacheSettings(entries: SettingEntry[]) {
	const v = Object.fromEntries(entries.map((e) => [e.chave, e.valor]))
	try {
		localStorage.setItem(CACHE_KEY, JSON.stringify(entries))
		localStorage.setItem(
			APP_SETTINGS_KEY,
			JSON.stringify({
				creditDayValue: Number(v['app.valor_credito_dia']),
				creditValue: Number(v['app.valor_credito_individual']),
				defaultTerminals: Number(v['app.terminais_padrao']),
				enableNotifications: v['app.notificacoes_habilitadas'] === 'true',
				autoBackup: v['app.backup_automatico'] === 'true',
				backupInterval: Number(v['app.intervalo_backup']),
				language: v['app.idioma'],
				timezone: v['app.fuso_horario'],
				dateFormat: v['app.formato_data'],
				currency: v['app.moeda'],
				asaasApiKey: v['app.asaas_api_key'] ?? '',
				asaasEnvironment: v['app.asaas_environment']
			})
		)
		localStorage.setItem(
			THEME_SETTINGS_KEY,
			JSON.stringify({
				mode: v['tema.modo'],
				primaryColor: v['tema.cor_primaria'],
				secondaryColor: v['tema.cor_secundaria'],
				accentColor: v['tema.cor_destaque'],
				fontSize: v['tema.tamanho_fonte'],
				compactMode: v['tema.modo_compacto'] === 'true'
			})
		)
	} catch {}
}

export function cachedSettings(): SettingEntry[] | null {
	try {
		const list = JSON.parse(localStorage.getItem(CACHE_KEY) ?? 'null') as SettingEntry[] | null
		return Array.isArray(list) && list.length > 0 ? list : null
	} catch {
		return null
	}
}
