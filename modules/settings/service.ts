import { eq, inArray, max } from 'drizzle-orm'
import { THEME_KEYS, type ThemeSettings, themeFromValues } from './theme'
import type { DbOrTx } from '../../db/client'
import type { Clock, DisplayFormats, Role } from '../core'
import { type SecretBox, badRequest, maskSealed, sealInClear } from '../core/server'
import { type AutoLogoutConfig, type Definition, SETTING_DEFINITIONS, SETTING_RULES, type SettingKey } from './model'
import { settings } from './schema'

export function isSettingKey(key: string): key is SettingKey {
	return Object.hasOwn(SETTING_DEFINITIONS, key)
}

/** The saved value of a key, or its default (a secret comes sealed: open it with openSetting). */
export async function getSetting(db: DbOrTx, key: SettingKey): Promise<string> {
	const row = (await db.select({ valor: settings.valor }).from(settings).where(eq(settings.chave, key)))[0]
	return row?.valor ?? SETTING_DEFINITIONS[key].valor
}

/** A secret setting in clear, for the one call that uses it (never for an answer or a log line). */
export async function openSetting(db: DbOrTx, secrets: SecretBox, key: SettingKey): Promise<string> {
	const value = await getSetting(db, key)
	return value ? secrets.open(value) : ''
}

export async function getSettingsMap(db: DbOrTx, keys: SettingKey[]): Promise<Record<SettingKey, string>> {
	const rows = await db.select().from(settings).where(inArray(settings.chave, keys))
	const out = {} as Record<SettingKey, string>
	for (const key of keys) out[key] = SETTING_DEFINITIONS[key].valor
	for (const row of rows) out[row.chave as SettingKey] = row.valor
	return out
}

/** Validates each value by its key's rule, then saves them all or none; secrets are sealed at rest. */
export async function saveSettings(db: DbOrTx, clock: Clock, secrets: SecretBox, entries: { chave: string; valor: string }[]) {
	const checked = entries.flatMap(({ chave, valor }) => {
		if (!isSettingKey(chave)) throw badRequest(`Configuração desconhecida: ${chave}.`)
		const def: Definition = SETTING_DEFINITIONS[chave]
		// A secret comes back from the browser masked when it was not changed: keep the saved one.
		if (def.secret && isMaskedSecret(valor)) return []
		const parsed = SETTING_RULES[chave].safeParse(valor)
		if (!parsed.success) throw badRequest(`${def.descricao}: ${parsed.error.issues[0]?.message ?? 'valor inválido.'}`)
		return [{ chave, valor: def.secret && parsed.data ? secrets.seal(parsed.data) : parsed.data, def }]
	})
	const now = clock.now().toISOString()
	const saved: SettingKey[] = []
	for (const { chave, valor, def } of checked) {
		saved.push(chave)
		await db
			.insert(settings)
			.values({ chave, valor, descricao: def.descricao, categoria: def.categoria, tipo: def.tipo, updated_at: now })
			.onConflictDoUpdate({ target: settings.chave, set: { valor, updated_at: now } })
	}
	return saved
}

/** What maskSealed produces: never a real key. */
export function isMaskedSecret(value: string): boolean {
	return value.includes('•')
}

/** The saved theme (tema.* keys) with defaults. */
export async function getThemeSettings(db: DbOrTx): Promise<ThemeSettings> {
	return themeFromValues(await getSettingsMap(db, [...THEME_KEYS]))
}

/** The display formats of the settings (app.formato_data, app.moeda, app.fuso_horario), for the pages the server serves. */
export async function getDisplayFormats(db: DbOrTx): Promise<DisplayFormats> {
	const map = await getSettingsMap(db, ['app.formato_data', 'app.moeda', 'app.fuso_horario'])
	return { dateFormat: map['app.formato_data'], currency: map['app.moeda'], timeZone: map['app.fuso_horario'] } as DisplayFormats
}

/** When any setting was last saved (null if never). */
export async function lastSettingsUpdate(db: DbOrTx): Promise<string | null> {
	return (await db.select({ at: max(settings.updated_at) }).from(settings))[0]?.at ?? null
}

export async function getAutoLogoutConfig(db: DbOrTx): Promise<AutoLogoutConfig> {
	const map = await getSettingsMap(db, ['seguranca.auto_logout_ativo', 'seguranca.auto_logout_minutos'])
	return {
		enabled: map['seguranca.auto_logout_ativo'] === 'true',
		timeoutMinutes: Number(map['seguranca.auto_logout_minutos'])
	}
}

/** Whether `role` reads `key` in GET /api/configuracoes: the administrador every key, the others their screens' (readers). */
export function readsSetting(role: Role, key: SettingKey): boolean {
	return role === 'administrador' || ((SETTING_DEFINITIONS[key] as Definition).readers ?? []).includes(role)
}

/**
 * The settings `role` reads (readsSetting), each with its saved value or default, as GET /api/configuracoes lists
 * them. Secrets are never sent in clear: administrators see them masked; no other role reads one.
 */
export async function listSettings(db: DbOrTx, role: Role) {
	const saved = new Map((await db.select().from(settings)).map((r) => [r.chave, r]))
	return (Object.keys(SETTING_DEFINITIONS) as SettingKey[]).flatMap((chave) => {
		const def: Definition = SETTING_DEFINITIONS[chave]
		const valor = saved.get(chave)?.valor ?? def.valor
		if (!readsSetting(role, chave) || (def.secret && role !== 'administrador')) return []
		return [
			{
				chave,
				valor: def.secret ? maskSealed(valor) : valor,
				descricao: def.descricao,
				categoria: def.categoria,
				tipo: def.tipo,
				secreto: !!def.secret,
				padrao: def.secret ? '' : def.valor
			}
		]
	})
}

/** Seals the secret settings saved in clear before secrets were sealed at rest (run at every start; idempotent). */
export async function sealPlaintextSettings(db: DbOrTx, secrets: SecretBox): Promise<number> {
	const secretKeys = (Object.keys(SETTING_DEFINITIONS) as SettingKey[]).filter((k) => (SETTING_DEFINITIONS[k] as Definition).secret)
	return sealInClear(
		secrets,
		await db.select().from(settings).where(inArray(settings.chave, secretKeys)),
		(row) => row.valor,
		async (row, sealed) => await db.update(settings).set({ valor: sealed }).where(eq(settings.chave, row.chave))
	)
}
