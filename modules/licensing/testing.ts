import { deflateSync } from 'node:zlib'
import { createTestApp } from '../../apps/server/testing'
import { completeCnpj } from '../core'
import { representatives } from '../resellers'

/** Two representatives (A managed by the gerente, B not), their users, an administrador and a gerente, signed in. */
export async function peopleFixture(options: Parameters<typeof createTestApp>[0] = {}) {
	const t = createTestApp(options)
	const cnpj = {
		admin: completeCnpj('100000000001'),
		gerente: completeCnpj('100000000002'),
		repA: completeCnpj('100000000003'),
		repB: completeCnpj('100000000004')
	}
	await t.createUser({ cnpj: cnpj.admin, tipo: 'administrador', nome: 'Admin' })
	const gerente = await t.createUser({ cnpj: cnpj.gerente, tipo: 'gerente', nome: 'Gerente' })
	await t.createUser({ cnpj: cnpj.repA, tipo: 'representante', nome: 'Rep A' })
	await t.createUser({ cnpj: cnpj.repB, tipo: 'representante', nome: 'Rep B' })
	t.db.insert(representatives).values([
		{ nome: 'Rep A', cnpj: cnpj.repA, gerente_id: gerente.id, data: '2026-01-01' },
		{ nome: 'Rep B', cnpj: cnpj.repB, data: '2026-01-01' }
	]).run()
	const cookie = {
		admin: await t.login(cnpj.admin),
		gerente: await t.login(cnpj.gerente),
		repA: await t.login(cnpj.repA),
		repB: await t.login(cnpj.repB)
	}
	let next = 0
	/** Creates a company through the API as the administrador and returns its JSON. */
	async function company(fields: Record<string, unknown> = {}) {
		next++
		const res = await t.call('POST', '/api/companies', {
			cookie: cookie.admin,
			body: { razao: `Empresa ${next}`, cnpj: completeCnpj(String(200000000000 + next)), cnpj_representante: cnpj.repA, nterminais: 2, ...fields }
		})
		if (res.status !== 201) throw new Error(`company: ${res.status} ${res.text}`)
		return res.json.company
	}
	return { ...t, cnpj, cookie, company }
}

/** One PNG chunk (length, type, data, CRC). */
export function pngChunk(type: string, data: Uint8Array): Buffer {
	const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
	const length = Buffer.alloc(4)
	length.writeUInt32BE(data.length)
	const crc = Buffer.alloc(4)
	crc.writeUInt32BE(Bun.hash.crc32(body))
	return Buffer.concat([length, body, crc])
}

/** Small but well-formed images for upload tests. */
export const TEST_IMAGES = {
	/** 2×1 RGBA PNG. */
	png: Buffer.concat([
		Buffer.from('89504e470d0a1a0a', 'hex'),
		pngChunk('IHDR', Buffer.from('00000002000000010806000000', 'hex')),
		pngChunk('IDAT', deflateSync(Buffer.from('00ff0000ff00ff00ff', 'hex'))),
		pngChunk('IEND', Buffer.alloc(0))
	]),
	/** 1×1 GIF. */
	gif: Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
	/** A JPEG's segment structure: SOI, APP0, SOF0, SOS, scan data, EOI. */
	jpg: Buffer.from('ffd8ffe000104a46494600010100000100010000ffc0000b080001000101011100ffda0008010100003f00d2cf20ffd9', 'hex')
}
