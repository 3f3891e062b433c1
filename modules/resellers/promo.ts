import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { logActivity } from '../activity'
import type { SessionUser } from '../auth'
import type { Clock } from '../core'
import { badRequest, notFound, uploadsDir, writeTransaction } from '../core/server'
import { findRepresentativeByCnpj } from './service'
import { representatives, uploadedFiles } from './schema'

/** Where a representative's promotional image is served (no credentials needed: the systems fetch it). */
export function promoUrl(file: string | null): string | null {
	return file ? `/api/public/promo/${file}` : null
}

export const PROMO_MAX_BYTES = 5 * 1024 * 1024
const FILE_NAME = /^[A-Za-z0-9_-]{16,64}\.(png|jpg|gif)$/
const TYPES = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif' } as const

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** A PNG whose chunks all check out: IHDR first, image data, IEND at the very end, every chunk's CRC right. */
function isPng(bytes: Uint8Array): boolean {
	if (bytes.length < 8 || PNG_SIGNATURE.some((value, i) => bytes[i] !== value)) return false
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
	let at = 8
	let hasData = false
	while (at + 12 <= bytes.length) {
		const length = view.getUint32(at)
		const end = at + 12 + length
		if (end > bytes.length) return false
		const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8))
		if (at === 8 && (type !== 'IHDR' || length !== 13)) return false
		if (Bun.hash.crc32(bytes.subarray(at + 4, at + 8 + length)) !== view.getUint32(at + 8 + length)) return false
		if (type === 'IDAT') hasData = true
		if (type === 'IEND') return hasData && end === bytes.length
		at = end
	}
	return false
}

/** A JPEG whose segments lead, through a frame header, to the compressed scan and an end-of-image marker. */
function isJpeg(bytes: Uint8Array): boolean {
	if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return false
	let at = 2
	let hasFrame = false
	while (at + 4 <= bytes.length) {
		if (bytes[at] !== 0xff) return false
		const marker = bytes[at + 1]
		if (marker === 0xff) {
			at++ // fill byte
			continue
		}
		const length = (bytes[at + 2] << 8) | bytes[at + 3]
		if (length < 2) return false
		// SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
		if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) hasFrame = true
		if (marker === 0xda) {
			const scan = at + 2 + length
			if (!hasFrame || scan > bytes.length) return false
			for (let i = bytes.length - 2; i >= scan; i--) if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) return true
			return false
		}
		at += 2 + length
	}
	return false
}

/** A GIF with a real size and its trailer byte at the end. */
function isGif(bytes: Uint8Array): boolean {
	if (bytes.length < 14) return false
	const signature = String.fromCharCode(...bytes.subarray(0, 6))
	const width = bytes[6] | (bytes[7] << 8)
	const height = bytes[8] | (bytes[9] << 8)
	return (signature === 'GIF87a' || signature === 'GIF89a') && width > 0 && height > 0 && bytes[bytes.length - 1] === 0x3b
}

/** What the bytes are, by their structure: the file name and declared type are not trusted, nor a mere signature. */
export function imageKind(bytes: Uint8Array): keyof typeof TYPES | null {
	if (isPng(bytes)) return 'png'
	if (isJpeg(bytes)) return 'jpg'
	if (isGif(bytes)) return 'gif'
	return null
}

/** Where an older version kept the promotional images, one file each (see importPromoFiles). */
export function promoDir(dataDir: string) {
	return join(uploadsDir({ dataDir }), 'promo')
}

/** Decodes "data:image/png;base64,..." or bare base64 into bytes, refusing anything that is not an image within 5 MB. */
export function decodePromoImage(imageBase64: string): { bytes: Uint8Array; kind: keyof typeof TYPES } {
	const data = imageBase64.replace(/^data:[^;,]*;base64,/, '').replace(/\s/g, '')
	if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) throw badRequest('Por favor, selecione apenas arquivos de imagem')
	if (Math.floor((data.length * 3) / 4) > PROMO_MAX_BYTES + 3) throw badRequest('A imagem deve ter no máximo 5MB')
	const bytes = new Uint8Array(Buffer.from(data, 'base64'))
	if (bytes.byteLength > PROMO_MAX_BYTES) throw badRequest('A imagem deve ter no máximo 5MB')
	const kind = imageKind(bytes)
	if (!kind) throw badRequest('Por favor, selecione apenas arquivos de imagem (JPG, PNG ou GIF).')
	return { bytes, kind }
}

/** The signed-in representative's own record: promo images belong to representatives only. */
async function ownRepresentative(db: DbOrTx, user: SessionUser) {
	const rep = await findRepresentativeByCnpj(db, user.cnpj)
	if (!rep) throw notFound('Representante não encontrado.')
	return rep
}

/**
 * Points the representative at its new image (or at none), drops the previous image's bytes and logs which, in one
 * transaction: the image is in the database, so every portal process serves it.
 */
async function recordPromo(
	db: DbOrTx,
	clock: Clock,
	user: SessionUser,
	rep: { codigo: number; nome: string; cnpj: string; promo: string | null },
	image: { name: string; contentType: string; bytes: Uint8Array } | null
) {
	await writeTransaction(db, async (tx) => {
		if (image) {
			await tx.insert(uploadedFiles).values({
				name: image.name,
				content_type: image.contentType,
				data: Buffer.from(image.bytes).toString('base64'),
				created_at: clock.now().toISOString()
			})
		}
		await tx
			.update(representatives)
			.set({ promo: image?.name ?? null })
			.where(eq(representatives.codigo, rep.codigo))
		if (rep.promo) await tx.delete(uploadedFiles).where(eq(uploadedFiles.name, rep.promo))
		await logActivity(
			tx,
			clock,
			image ? 'representatives.promo-updated' : 'representatives.promo-removed',
			{ nome: rep.nome },
			{ actor: user, entityId: rep.codigo, representanteCnpj: rep.cnpj }
		)
	})
}

/** Stores a representative's promotional image (one per representative), replacing the previous one. */
export async function savePromoImage(db: DbOrTx, clock: Clock, user: SessionUser, imageBase64: string): Promise<string> {
	const rep = await ownRepresentative(db, user)
	const { bytes, kind } = decodePromoImage(imageBase64)
	const name = `${Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64url')}.${kind}`
	await recordPromo(db, clock, user, rep, { name, contentType: TYPES[kind], bytes })
	return name
}

export async function removePromoImage(db: DbOrTx, clock: Clock, user: SessionUser) {
	const rep = await ownRepresentative(db, user)
	if (!rep.promo) throw notFound('Nenhuma imagem promocional cadastrada.')
	await recordPromo(db, clock, user, rep, null)
}

/** The image as the desktop systems download it; names are random, so they cannot be guessed. */
export async function readPromoImage(db: DbOrTx, file: string): Promise<{ bytes: Uint8Array; type: string } | null> {
	if (!FILE_NAME.test(file)) return null
	const [row] = await db
		.select({ type: uploadedFiles.content_type, data: uploadedFiles.data })
		.from(uploadedFiles)
		.where(eq(uploadedFiles.name, file))
	return row ? { bytes: new Uint8Array(Buffer.from(row.data, 'base64')), type: row.type } : null
}

/**
 * At start: moves the images an older version kept in DATA_DIR/uploads/promo into the database (idempotent: a name
 * already there is kept, and each file is removed once its bytes are stored). Files that are not images are left alone.
 * Answers how many files were moved.
 */
export async function importPromoFiles(db: DbOrTx, clock: Clock, dataDir: string): Promise<number> {
	const dir = promoDir(dataDir)
	if (!existsSync(dir)) return 0
	let moved = 0
	for (const file of readdirSync(dir)) {
		const path = join(dir, file)
		if (!FILE_NAME.test(file) || !statSync(path).isFile()) continue
		const bytes = new Uint8Array(readFileSync(path))
		const kind = imageKind(bytes)
		if (!kind) continue
		await db
			.insert(uploadedFiles)
			.values({ name: file, content_type: TYPES[kind], data: Buffer.from(bytes).toString('base64'), created_at: clock.now().toISOString() })
			.onConflictDoNothing()
		rmSync(path, { force: true })
		moved++
	}
	return moved
}
