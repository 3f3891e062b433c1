import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { logActivity } from '../activity'
import type { SessionUser } from '../auth'
import { type Clock, badRequest, notFound, uploadsDir } from '../core'
import { findRepresentativeByCnpj, representatives } from '../resellers'

export const PROMO_MAX_BYTES = 5 * 1024 * 1024
const FILE_NAME = /^[A-Za-z0-9_-]{16,64}\.(png|jpg|gif)$/
const TYPES = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif' } as const

/** What the bytes are, by their magic numbers; the file name and declared type are not trusted. */
export function imageKind(bytes: Uint8Array): keyof typeof TYPES | null {
	if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47 && bytes[4] === 0x0d && bytes[5] === 0x0a && bytes[6] === 0x1a && bytes[7] === 0x0a) return 'png'
	if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg'
	if (bytes.length >= 6 && String.fromCharCode(...bytes.subarray(0, 6)).match(/^GIF8[79]a$/)) return 'gif'
	return null
}

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

/** Stores a representative's promotional image (one per representative), replacing the previous one. */
export function savePromoImage(db: DbOrTx, clock: Clock, dataDir: string, user: SessionUser, imageBase64: string): string {
	const rep = findRepresentativeByCnpj(db, user.cnpj)
	if (!rep) throw notFound('Representante não encontrado.')
	const { bytes, kind } = decodePromoImage(imageBase64)
	const dir = promoDir(dataDir)
	mkdirSync(dir, { recursive: true })
	const file = `${Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64url')}.${kind}`
	writeFileSync(join(dir, file), bytes)
	try {
		db.transaction(
			(tx) => {
				tx.update(representatives).set({ promo: file }).where(eq(representatives.codigo, rep.codigo)).run()
				logActivity(tx, clock, { type: 'info', icon: 'Building', title: 'Imagem promocional atualizada', subtitle: rep.nome, actor: user, entity: 'representante', entityId: rep.codigo, representanteCnpj: rep.cnpj })
			},
			{ behavior: 'immediate' }
		)
	} catch (error) {
		rmSync(join(dir, file), { force: true })
		throw error
	}
	if (rep.promo && FILE_NAME.test(rep.promo)) rmSync(join(dir, rep.promo), { force: true })
	return file
}

export function removePromoImage(db: DbOrTx, clock: Clock, dataDir: string, user: SessionUser) {
	const rep = findRepresentativeByCnpj(db, user.cnpj)
	if (!rep) throw notFound('Representante não encontrado.')
	if (!rep.promo) throw notFound('Nenhuma imagem promocional cadastrada.')
	db.transaction(
		(tx) => {
			tx.update(representatives).set({ promo: null }).where(eq(representatives.codigo, rep.codigo)).run()
			logActivity(tx, clock, { type: 'info', icon: 'Building', title: 'Imagem promocional removida', subtitle: rep.nome, actor: user, entity: 'representante', entityId: rep.codigo, representanteCnpj: rep.cnpj })
		},
		{ behavior: 'immediate' }
	)
	if (FILE_NAME.test(rep.promo)) rmSync(join(promoDir(dataDir), rep.promo), { force: true })
}

/** The image as the desktop systems download it; names are random, so they cannot be guessed. */
export function readPromoImage(dataDir: string, file: string): { bytes: Uint8Array; type: string } | null {
	if (!FILE_NAME.test(file)) return null
	const path = join(promoDir(dataDir), file)
	if (!existsSync(path)) return null
	const ext = file.split('.').pop() as keyof typeof TYPES
	return { bytes: new Uint8Array(readFileSync(path)), type: TYPES[ext] }
}
