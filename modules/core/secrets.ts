import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { chmodSync, existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** A sealed value as stored: `enc:v1:<last 4 characters>:<base64url of iv | ciphertext | tag>`. */
const PREFIX = 'enc:v1:'

/**
 * Secrets at rest (provider keys, webhook tokens, the licence signing key): AES-256-GCM with a key kept outside
 * the database and its backups. The last 4 characters ride along in clear, so a masked value can be shown
 * without opening it.
 */
export interface SecretBox {
	seal(plain: string): string
	open(sealed: string): string
}

export function isSealed(value: string | null | undefined): boolean {
	return !!value?.startsWith(PREFIX)
}

/**
 * Seals, through `save`, each row's value still kept in clear from before secrets were sealed at rest (run at every
 * start; idempotent); answers how many it sealed.
 */
export async function sealInClear<R>(
	secrets: SecretBox,
	rows: R[],
	secretOf: (row: R) => string | null,
	save: (row: R, sealed: string) => Promise<unknown>
): Promise<number> {
	let sealed = 0
	for (const row of rows) {
		const value = secretOf(row)
		if (!value || isSealed(value)) continue
		await save(row, secrets.seal(value))
		sealed++
	}
	return sealed
}

/** "••••••••1234": enough to recognise a secret, never enough to use it. */
export function maskSealed(value: string | null | undefined): string {
	if (!value) return ''
	if (!isSealed(value)) return `${'•'.repeat(8)}${value.length > 8 ? value.slice(-4) : ''}`
	const hint = value.slice(PREFIX.length, value.indexOf(':', PREFIX.length))
	return `${'•'.repeat(8)}${hint}`
}

export function createSecretBox(key: Uint8Array): SecretBox {
	if (key.byteLength !== 32) throw new Error('A chave de segredos deve ter 32 bytes (AES-256).')
	return {
		seal(plain) {
			const iv = randomBytes(12)
			const cipher = createCipheriv('aes-256-gcm', key, iv)
			const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
			const hint = plain.length > 8 ? plain.slice(-4).replace(/:/g, '') : ''
			return `${PREFIX}${hint}:${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`
		},
		open(sealed) {
			if (!isSealed(sealed)) return sealed
			const raw = Buffer.from(sealed.slice(sealed.indexOf(':', PREFIX.length) + 1), 'base64url')
			const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12))
			decipher.setAuthTag(raw.subarray(raw.length - 16))
			try {
				return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8')
			} catch {
				throw new Error('Não foi possível abrir um segredo: a chave de segredos (SECRET_KEY ou secret.key) não é a que o cifrou.')
			}
		}
	}
}

/** The file holding the key when SECRET_KEY is not set; never inside a backup (backups hold the database and uploads). */
export const SECRET_KEY_FILE = 'secret.key'

/**
 * The key of the secret box: SECRET_KEY (64 hex characters or base64 of 32 bytes), or DATA_DIR/secret.key,
 * created on the first start with mode 0600.
 */
export function loadSecretKey(dataDir: string, fromEnv?: string): Uint8Array {
	if (fromEnv) {
		const key = /^[0-9a-fA-F]{64}$/.test(fromEnv) ? Buffer.from(fromEnv, 'hex') : Buffer.from(fromEnv, 'base64')
		if (key.byteLength !== 32) throw new Error('SECRET_KEY deve ter 32 bytes: 64 caracteres hexadecimais ou base64.')
		return key
	}
	const path = join(dataDir, SECRET_KEY_FILE)
	if (!existsSync(path)) {
		// Written aside, then linked into place only if still missing: processes starting together on a shared folder
		// all keep the first one's key, and none ever reads a half-written file.
		const draft = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`
		writeFileSync(draft, randomBytes(32).toString('base64'), { mode: 0o600 })
		try {
			linkSync(draft, path)
		} catch (error) {
			if ((error as { code?: string }).code !== 'EEXIST') throw error
		} finally {
			unlinkSync(draft)
		}
	}
	chmodSync(path, 0o600)
	return Buffer.from(readFileSync(path, 'utf8').trim(), 'base64')
}
