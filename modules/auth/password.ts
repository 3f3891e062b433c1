import { AppError } from '../core/server'

/**
 * Argon2id at OWASP's m=19 MiB, t=2 row: a third of Bun's default memory, so a burst of logins
 * cannot exhaust the container. At most HASH_SLOTS hashes run at once; the rest wait their turn.
 */
const HASH_OPTIONS = { algorithm: 'argon2id', memoryCost: 19456, timeCost: 2 } as const
const HASH_SLOTS = 2
/** Beyond this many queued hashes a login is refused at once instead of waiting for minutes. */
const MAX_WAITING = 64

let running = 0
const waiting: (() => void)[] = []

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
	if (running >= HASH_SLOTS) {
		if (waiting.length >= MAX_WAITING)
			throw new AppError(503, 'Servidor ocupado com muitas tentativas de login. Tente novamente em alguns segundos.', 'BUSY', {
				'Retry-After': '5'
			})
		await new Promise<void>((resolve) => waiting.push(resolve))
	}
	running++
	try {
		return await work()
	} finally {
		running--
		waiting.shift()?.()
	}
}

export function hashPassword(password: string): Promise<string> {
	return withHashSlot(() => Bun.password.hash(password, HASH_OPTIONS))
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
	return withHashSlot(() => Bun.password.verify(password, hash))
}

/** A hash of a random password, made once, for the CNPJs nobody has (see verifyAgainstDummy). */
let dummyHash: Promise<string> | null = null

/**
 * Spends on an unknown CNPJ the same argon2id verification a wrong password costs, so the answer's timing does not
 * tell which CNPJs exist. Always false.
 */
export async function verifyAgainstDummy(password: string): Promise<boolean> {
	dummyHash ??= hashPassword(generatePassword())
	await verifyPassword(password, await dummyHash)
	return false
}

/** A hash made with other parameters is upgraded at the next successful login. */
export function needsRehash(hash: string): boolean {
	return !hash.startsWith(`$argon2id$v=19$m=${HASH_OPTIONS.memoryCost},t=${HASH_OPTIONS.timeCost},p=1$`)
}

/** A random password for the first administrator when none is configured. */
export function generatePassword(): string {
	const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'
	const bytes = crypto.getRandomValues(new Uint8Array(16))
	return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')
}
