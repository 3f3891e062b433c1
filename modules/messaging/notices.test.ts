import { describe, expect, it } from 'bun:test'
import { CNPJ, createTestApp } from '../../apps/server/testing'
import { representatives } from '../resellers'
import { generalNotices, individualNotices, noticeReads } from './schema'

/** An administrador, a gerente managing rep, a representante (rep), another representante (rep2) not managed. */
async function setup() {
	const t = await createTestApp()
	await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador', nome: 'Ana Admin' })
	const gerente = await t.createUser({ cnpj: CNPJ.gerente, tipo: 'gerente', nome: 'Gil Gerente' })
	await t.createUser({ cnpj: CNPJ.rep, tipo: 'representante', nome: 'Rita Rep' })
	await t.createUser({ cnpj: CNPJ.rep2, tipo: 'representante', nome: 'Rui Rep' })
	const data = '2026-11-20'
	await t.db.insert(representatives).values([
		{ nome: 'Rita Rep', cnpj: CNPJ.rep, gerente_id: gerente.id, data },
		{ nome: 'Rui Rep', cnpj: CNPJ.rep2, gerente_id: null, data }
	])
	const cookies = {
		admin: await t.login(CNPJ.admin),
		gerente: await t.login(CNPJ.gerente),
		rep: await t.login(CNPJ.rep),
		rep2: await t.login(CNPJ.rep2)
	}
	/** Individual notices through the API as `cookie`'s user. */
	const individual = (cookie: string) => ({
		create: (body: unknown) => t.call('POST', '/api/notices/individual', { cookie, body }),
		list: () => t.call('GET', '/api/notices/individual', { cookie }),
		update: (id: number, body: unknown) => t.call('PUT', `/api/notices/individual/${id}`, { cookie, body }),
		remove: (id: number) => t.call('DELETE', `/api/notices/individual/${id}`, { cookie })
	})
	return { t, cookies, individual }
}

const general = { titulo: 'Manutenção programada', texto: 'O portal ficará fora do ar no domingo.', urgente: 1, ativo: 1 }

describe('general notices', () => {
	it('an administrador creates, edits and deletes; each write is logged', async () => {
		const { t, cookies } = await setup()
		const created = await t.call('POST', '/api/notices/general', { cookie: cookies.admin, body: general })
		expect(created.status).toBe(200)
		expect(created.json).toMatchObject({ titulo: general.titulo, urgente: 1, ativo: 1, data: '2026-11-20' })
		const id = created.json.id
		const updated = await t.call('PUT', `/api/notices/general/${id}`, {
			cookie: cookies.admin,
			body: { ...general, titulo: 'Novo título', urgente: 0, ativo: false }
		})
		expect(updated.status).toBe(200)
		expect(updated.json).toMatchObject({ titulo: 'Novo título', urgente: 0, ativo: 0 })
		const list = await t.call('GET', '/api/notices/general', { cookie: cookies.admin })
		expect(list.json).toHaveLength(1)
		expect(list.json[0].titulo).toBe('Novo título')
		const removed = await t.call('DELETE', `/api/notices/general/${id}`, { cookie: cookies.admin })
		expect(removed.status).toBe(200)
		expect(await t.db.select().from(generalNotices)).toHaveLength(0)
		expect(await t.activityTitles()).toEqual(['Aviso geral criado', 'Aviso geral atualizado', 'Aviso geral excluído'])
	})

	it('gerentes and representantes cannot write general notices, and nothing changes', async () => {
		const { t, cookies } = await setup()
		const id = (await t.call('POST', '/api/notices/general', { cookie: cookies.admin, body: general })).json.id
		for (const cookie of [cookies.gerente, cookies.rep]) {
			expect((await t.call('POST', '/api/notices/general', { cookie, body: general })).status).toBe(403)
			expect((await t.call('PUT', `/api/notices/general/${id}`, { cookie, body: { ...general, titulo: 'x' } })).status).toBe(403)
			expect((await t.call('DELETE', `/api/notices/general/${id}`, { cookie })).status).toBe(403)
		}
		expect((await t.call('POST', '/api/notices/general', { body: general })).status).toBe(401)
		const rows = await t.db.select().from(generalNotices)
		expect(rows).toHaveLength(1)
		expect(rows[0].titulo).toBe(general.titulo)
	})

	it('everyone reads them; a representante sees only the active ones; search filters', async () => {
		const { t, cookies } = await setup()
		await t.call('POST', '/api/notices/general', { cookie: cookies.admin, body: general })
		await t.call('POST', '/api/notices/general', { cookie: cookies.admin, body: { ...general, titulo: 'Rascunho', ativo: 0 } })
		expect((await t.call('GET', '/api/notices/general', { cookie: cookies.admin })).json).toHaveLength(2)
		expect((await t.call('GET', '/api/notices/general', { cookie: cookies.gerente })).json).toHaveLength(2)
		const rep = await t.call('GET', '/api/notices/general', { cookie: cookies.rep })
		expect(rep.json.map((n: { titulo: string }) => n.titulo)).toEqual([general.titulo])
		const found = await t.call('GET', '/api/notices/general?search=rascun', { cookie: cookies.admin })
		expect(found.json.map((n: { titulo: string }) => n.titulo)).toEqual(['Rascunho'])
		expect((await t.call('GET', '/api/notices/general')).status).toBe(401)
	})

	it('validates title (≤100), text (≤1000), flags and date', async () => {
		const { t, cookies } = await setup()
		const bad = [
			{ ...general, titulo: '' },
			{ ...general, titulo: 'x'.repeat(101) },
			{ ...general, texto: '   ' },
			{ ...general, texto: 'x'.repeat(1001) },
			{ ...general, urgente: 2 },
			{ ...general, ativo: 'sim' },
			{ ...general, data: '2026-02-30' },
			{ texto: 'sem título' }
		]
		for (const body of bad) {
			const res = await t.call('POST', '/api/notices/general', { cookie: cookies.admin, body })
			expect(res.status).toBe(400)
			expect(typeof res.json.message).toBe('string')
		}
		const limits = await t.call('POST', '/api/notices/general', {
			cookie: cookies.admin,
			body: { titulo: 'x'.repeat(100), texto: 'y'.repeat(1000) }
		})
		expect(limits.status).toBe(200)
		expect(limits.json).toMatchObject({ urgente: 0, ativo: 1 })
		expect(await t.db.select().from(generalNotices)).toHaveLength(1)
		expect((await t.call('PUT', '/api/notices/general/999', { cookie: cookies.admin, body: general })).status).toBe(404)
		expect((await t.call('DELETE', '/api/notices/general/abc', { cookie: cookies.admin })).status).toBe(400)
	})
})

describe('individual notices', () => {
	const notice = (representante_id: string) => ({
		representante_id,
		titulo: 'Seu repasse',
		texto: 'Confira o extrato.',
		urgente: 0,
		ativo: 1
	})

	it('an administrador writes for any representative; the list carries the representative name', async () => {
		const { t, cookies, individual } = await setup()
		const created = await individual(cookies.admin).create(notice('04.252.011/0001-10'))
		expect(created.status).toBe(200)
		expect(created.json).toMatchObject({ representante_id: CNPJ.rep2, representante: { nome: 'Rui Rep' } })
		const list = await individual(cookies.admin).list()
		expect(list.json).toHaveLength(1)
		expect(list.json[0].representante.nome).toBe('Rui Rep')
		const edited = await individual(cookies.admin).update(created.json.id, { ...notice(CNPJ.rep), urgente: 1 })
		expect(edited.json).toMatchObject({ representante_id: CNPJ.rep, urgente: 1 })
		expect((await individual(cookies.admin).remove(created.json.id)).status).toBe(200)
		expect(await t.db.select().from(individualNotices)).toHaveLength(0)
	})

	it('refuses an unknown representative or an invalid CNPJ', async () => {
		const { t, cookies, individual } = await setup()
		expect((await individual(cookies.admin).create(notice(CNPJ.admin))).status).toBe(404)
		expect((await individual(cookies.admin).create(notice('11222333000182'))).status).toBe(400)
		expect((await individual(cookies.admin).create({ titulo: 'x', texto: 'y' })).status).toBe(400)
		expect(await t.db.select().from(individualNotices)).toHaveLength(0)
	})

	// A representante writes for themself, a gerente for the representatives they manage (Rita, not Rui): the notice
	// of someone out of reach does not exist for them, and their own cannot be moved out of reach.
	it.each([
		['a representante', 'rep', 403],
		['a gerente', 'gerente', 404]
	] as const)('%s reads and writes only within their reach', async (_, who, outOfReach) => {
		const { t, cookies, individual } = await setup()
		const own = individual(cookies[who])
		const mine = await own.create(notice(CNPJ.rep))
		expect(mine.status).toBe(200)
		expect((await own.create(notice(CNPJ.rep2))).status).toBe(outOfReach)
		const other = await individual(cookies.admin).create(notice(CNPJ.rep2))
		expect((await own.list()).json.map((n: { id: number }) => n.id)).toEqual([mine.json.id])
		expect((await own.update(other.json.id, notice(CNPJ.rep))).status).toBe(404)
		expect((await own.remove(other.json.id)).status).toBe(404)
		expect((await own.update(mine.json.id, notice(CNPJ.rep2))).status).toBe(outOfReach)
		const rows = await t.db.select().from(individualNotices)
		expect(rows.map((r) => r.representante_id).sort()).toEqual([CNPJ.rep2, CNPJ.rep].sort())
		expect((await t.call('GET', '/api/notices/recipients', { cookie: cookies[who] })).json).toEqual([
			{ codigo: 1, cnpj: CNPJ.rep, nome: 'Rita Rep' }
		])
		expect((await t.call('GET', '/api/notices/recipients', { cookie: cookies.admin })).json).toHaveLength(2)
		expect((await own.remove(mine.json.id)).status).toBe(200)
	})
})

describe('notices in the top-bar notifications', () => {
	it('reach the people they are for, urgent as warning, and are marked read per user', async () => {
		const { t, cookies, individual } = await setup()
		const g = (await t.call('POST', '/api/notices/general', { cookie: cookies.admin, body: general })).json
		await t.call('POST', '/api/notices/general', { cookie: cookies.admin, body: { ...general, titulo: 'Inativo', ativo: 0 } })
		t.clock.advance(60_000)
		const i = (
			await individual(cookies.admin).create({ representante_id: CNPJ.rep, titulo: 'Só para Rita', texto: 'Oi', urgente: 0, ativo: 1 })
		).json
		await individual(cookies.admin).create({ representante_id: CNPJ.rep, titulo: 'Desligado', texto: 'x', ativo: 0 })

		const rita = await t.call('GET', '/api/notifications', { cookie: cookies.rep })
		expect(rita.json).toEqual([
			{
				id: `aviso-individual-${i.id}`,
				title: 'Só para Rita',
				message: 'Oi',
				type: 'info',
				read: false,
				created_at: '2026-11-20T12:01:00.000Z'
			},
			{
				id: `aviso-geral-${g.id}`,
				title: general.titulo,
				message: general.texto,
				type: 'warning',
				read: false,
				created_at: '2026-11-20T12:00:00.000Z'
			}
		])
		const rui = await t.call('GET', '/api/notifications', { cookie: cookies.rep2 })
		expect(rui.json.map((n) => n.id)).toEqual([`aviso-geral-${g.id}`])

		const marked = await t.call('POST', '/api/notifications/mark-read', {
			cookie: cookies.rep,
			body: { notificationIds: [`aviso-individual-${i.id}`, `aviso-geral-${g.id}`] }
		})
		expect(marked.json.updated).toBe(2)
		expect((await t.call('GET', '/api/notifications', { cookie: cookies.rep })).json.every((n: { read: boolean }) => n.read)).toBe(true)
		// Per user: Rui still has it unread, and cannot mark Rita's individual notice.
		expect((await t.call('GET', '/api/notifications', { cookie: cookies.rep2 })).json[0].read).toBe(false)
		const foreign = await t.call('POST', '/api/notifications/mark-read', {
			cookie: cookies.rep2,
			body: { notificationIds: [`aviso-individual-${i.id}`] }
		})
		expect(foreign.json.updated).toBe(0)
		expect(await t.db.select().from(noticeReads)).toHaveLength(2)
		// Deleting a notice forgets its read marks.
		await t.call('DELETE', `/api/notices/general/${g.id}`, { cookie: cookies.admin })
		expect(await t.db.select().from(noticeReads)).toHaveLength(1)
	})

	it('mark-read still takes numeric ids and refuses malformed ones', async () => {
		const { t, cookies } = await setup()
		expect(
			(await t.call('POST', '/api/notifications/mark-read', { cookie: cookies.rep, body: { notificationIds: [1, 2] } })).json.updated
		).toBe(0)
		for (const bad of [['aviso-geral-0'], ['aviso-outro-1'], [-1], ['1 OR 1=1'], 'x']) {
			const res = await t.call('POST', '/api/notifications/mark-read', { cookie: cookies.rep, body: { notificationIds: bad } })
			expect(res.status).toBe(400)
		}
	})
})
