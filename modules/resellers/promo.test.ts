import { describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { representatives } from '../resellers'
import { imageKind, importPromoFiles } from './promo'
import { uploadedFiles } from './schema'
import { TEST_IMAGES, testWorld } from '../../apps/server/testing'

const PNG = TEST_IMAGES.png
const GIF = TEST_IMAGES.gif

describe('promo image', () => {
	it('stores a PNG or GIF checked by its bytes and serves it publicly with its type', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'kportal-promo-'))
		const t = await testWorld({ config: { dataDir } })
		const saved = await t.call('POST', '/api/representantes/promo-image', {
			cookie: t.cookies.rep,
			body: { imageBase64: PNG.toString('base64') }
		})
		expect(saved.status).toBe(200)
		const image = await t.app.handle(new Request(`http://localhost${saved.json.promo}`))
		expect(image.status).toBe(200)
		expect(image.headers.get('content-type')).toBe('image/png')
		expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true)

		const replaced = await t.call('POST', '/api/representantes/promo-image', {
			cookie: t.cookies.rep,
			body: { imageBase64: `data:image/gif;base64,${GIF.toString('base64')}` }
		})
		expect(replaced.json.promo).toEndWith('.gif')
		// One image per representative, kept in the database (every portal process serves it), none in DATA_DIR.
		expect((await t.db.select().from(uploadedFiles)).map((f) => f.name)).toEqual([replaced.json.promo.slice('/api/public/promo/'.length)])
		expect(existsSync(join(dataDir, 'uploads', 'promo'))).toBe(false)
		const company = await t.companyVia()
		expect(company.promo).toBe(replaced.json.promo)

		expect((await t.call('DELETE', '/api/representantes/promo-image', { cookie: t.cookies.rep })).status).toBe(200)
		expect(await t.db.select().from(uploadedFiles)).toHaveLength(0)
		expect((await t.db.select().from(representatives)).every((r) => r.promo === null)).toBe(true)
	})

	it('refuses a non-image renamed as PNG, an image over 5 MB, other roles, and unsafe file names', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'kportal-promo-'))
		const t = await testWorld({ config: { dataDir } })
		const text = Buffer.from('isto não é uma imagem, só parece.png').toString('base64')
		const fake = await t.call('POST', '/api/representantes/promo-image', {
			cookie: t.cookies.rep,
			body: { imageBase64: `data:image/png;base64,${text}` }
		})
		expect(fake.status).toBe(400)
		expect(fake.json.message).toContain('apenas arquivos de imagem')
		// A real signature followed by 5 MB of nothing: refused for its content, not only its size.
		const padded = await t.call('POST', '/api/representantes/promo-image', {
			cookie: t.cookies.rep,
			body: { imageBase64: Buffer.concat([PNG.subarray(0, 8), Buffer.alloc(4 * 1024 * 1024)]).toString('base64') }
		})
		expect(padded.status).toBe(400)
		expect(padded.json.message).toContain('apenas arquivos de imagem')
		const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]).toString('base64')
		const tooBig = await t.call('POST', '/api/representantes/promo-image', { cookie: t.cookies.rep, body: { imageBase64: big } })
		expect(tooBig.status).toBe(400)
		expect(tooBig.json.message).toBe('A imagem deve ter no máximo 5MB')
		const huge = await t.call('POST', '/api/representantes/promo-image', { cookie: t.cookies.rep, body: { imageBase64: big + big } })
		expect(huge.status).toBe(413)
		expect(
			(await t.call('POST', '/api/representantes/promo-image', { cookie: t.cookies.admin, body: { imageBase64: PNG.toString('base64') } }))
				.status
		).toBe(403)
		expect(await t.db.select().from(uploadedFiles)).toHaveLength(0)
		for (const name of ['..%2F..%2Fportal.sqlite', '..%2Fsecret.png', 'abc.png']) {
			expect((await t.app.handle(new Request(`http://localhost/api/public/promo/${name}`))).status).toBe(404)
		}
	})

	it('moves the images an older version kept in DATA_DIR into the database, once, and serves them at the same URL', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'kportal-promo-'))
		const t = await testWorld({ config: { dataDir } })
		const dir = join(dataDir, 'uploads', 'promo')
		mkdirSync(dir, { recursive: true })
		const name = 'AbCdEfGhIjKlMnOpQrStUvWx.png'
		writeFileSync(join(dir, name), PNG)
		writeFileSync(join(dir, 'notas.txt'), 'não é imagem')
		writeFileSync(join(dir, 'ZyXwVuTsRqPoNmLkJiHgFeDc.gif'), 'texto com nome de imagem')

		expect(await importPromoFiles(t.db, t.clock, dataDir)).toBe(1)
		expect(readdirSync(dir).sort()).toEqual(['ZyXwVuTsRqPoNmLkJiHgFeDc.gif', 'notas.txt'])
		const image = await t.app.handle(new Request(`http://localhost/api/public/promo/${name}`))
		expect(image.status).toBe(200)
		expect(image.headers.get('content-type')).toBe('image/png')
		expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true)

		// A second start (or a file put back by a restore) changes nothing already stored.
		writeFileSync(join(dir, name), GIF)
		expect(await importPromoFiles(t.db, t.clock, dataDir)).toBe(1)
		const rows = await t.db.select().from(uploadedFiles)
		expect(rows.map((r) => [r.name, r.content_type])).toEqual([[name, 'image/png']])
		expect(await importPromoFiles(t.db, t.clock, mkdtempSync(join(tmpdir(), 'kportal-empty-')))).toBe(0)
	})

	it('recognises an image by its structure, not by its first bytes', () => {
		expect(imageKind(TEST_IMAGES.png)).toBe('png')
		expect(imageKind(TEST_IMAGES.jpg)).toBe('jpg')
		expect(imageKind(TEST_IMAGES.gif)).toBe('gif')
		const corrupted = Buffer.from(TEST_IMAGES.png)
		corrupted[20] ^= 0xff // inside IHDR: its CRC no longer matches
		const fakes = {
			'PNG signature and zeros': Buffer.concat([PNG.subarray(0, 8), Buffer.alloc(1024)]),
			'PNG without its end chunk': PNG.subarray(0, PNG.length - 12),
			'PNG with bytes after the end': Buffer.concat([PNG, Buffer.from('<script>')]),
			'PNG with a wrong CRC': corrupted,
			'JPEG start and zeros': Buffer.concat([TEST_IMAGES.jpg.subarray(0, 3), Buffer.alloc(1024)]),
			'JPEG without end marker': TEST_IMAGES.jpg.subarray(0, TEST_IMAGES.jpg.length - 2),
			'GIF header and zeros': Buffer.concat([GIF.subarray(0, 6), Buffer.alloc(1024)]),
			text: Buffer.from('GIF89a but really text')
		}
		for (const [name, bytes] of Object.entries(fakes)) expect([name, imageKind(bytes)]).toEqual([name, null])
	})
})
