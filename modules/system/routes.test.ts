import { DIALECT } from '../../db/dialect'
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CNPJ, createTestApp, runPortalJob } from '../../apps/server/testing'
import { renderPage } from '../../apps/server/plugins/pages'
import { activities } from '../activity'
import { sessions } from '../auth'
import { ROLES, type Role } from '../core'
import { getSetting, openSetting, settings } from '../settings'

const temporary: string[] = []
afterAll(() => {
	for (const dir of temporary) rmSync(dir, { recursive: true, force: true })
})

async function setup(options: { dataDir?: string } = {}) {
	const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'kportal-sys-'))
	temporary.push(dataDir)
	const t = await createTestApp({ config: { dataDir } })
	const cnpjs: Record<Role, string> = { administrador: CNPJ.admin, gerente: CNPJ.gerente, representante: CNPJ.rep }
	const cookies = {} as Record<Role, string>
	for (const tipo of ROLES) {
		await t.createUser({ cnpj: cnpjs[tipo], tipo })
		cookies[tipo] = await t.login(cnpjs[tipo])
	}
	return { t, cookies, dataDir }
}

const bulk = (entries: Record<string, string | number | boolean>) => ({
	configuracoes: Object.entries(entries).map(([chave, valor]) => ({ chave, valor, descricao: 'x', categoria: 'geral', tipo: 'string' }))
})

describe('POST /api/configuracoes/bulk', () => {
	it('an administrador saves every key of §3.8; descricao/categoria/tipo come from the key, the change is logged', async () => {
		const { t, cookies } = await setup()
		const res = await t.call('POST', '/api/configuracoes/bulk', {
			cookie: cookies.administrador,
			body: bulk({
				'tema.modo': 'dark',
				'tema.cor_primaria': '#AA3300',
				'tema.cor_secundaria': '#eeeeee',
				'tema.cor_destaque': '#123456',
				'tema.tamanho_fonte': 'large',
				'tema.modo_compacto': true,
				'app.valor_credito_dia': 30,
				'app.valor_credito_individual': '45.50',
				'app.terminais_padrao': '3',
				'app.notificacoes_habilitadas': false,
				'app.backup_automatico': 'false',
				'app.intervalo_backup': '12',
				'app.backups_manter': '10',
				'app.idioma': 'es-ES',
				'app.fuso_horario': 'Europe/London',
				'app.formato_data': 'YYYY-MM-DD',
				'app.moeda': 'EUR'
			})
		})
		expect(res.status).toBe(200)
		expect(res.json.message).toBe('Configurações salvas.')
		expect(res.json.saved).toHaveLength(17)
		const rows = Object.fromEntries((await t.db.select().from(settings)).map((r) => [r.chave, r]))
		expect(rows['tema.modo_compacto'].valor).toBe('true')
		expect(rows['app.valor_credito_dia']).toMatchObject({
			valor: '30',
			categoria: 'geral',
			tipo: 'number',
			descricao: 'Dias de licença por crédito'
		})
		expect(rows['tema.cor_primaria']).toMatchObject({ valor: '#AA3300', categoria: 'aparencia', tipo: 'color' })
		expect((await t.db.select().from(activities)).map((a) => [a.event, a.title])).toEqual([
			['settings.bulk-updated', 'Configurações do sistema atualizadas']
		])
		const listed = await t.call('GET', '/api/configuracoes', { cookie: cookies.gerente })
		expect(listed.json.find((e) => e.chave === 'app.moeda')!.valor).toBe('EUR')
	})

	it('gerentes, representantes and anonymous callers cannot save, and nothing changes', async () => {
		const { t, cookies } = await setup()
		for (const cookie of [cookies.gerente, cookies.representante, undefined]) {
			const res = await t.call('POST', '/api/configuracoes/bulk', { cookie, body: bulk({ 'app.moeda': 'USD' }) })
			expect(res.status).toBe(cookie ? 403 : 401)
			const single = await t.call('POST', '/api/configuracoes', { cookie, body: { chave: 'app.moeda', valor: 'USD' } })
			expect(single.status).toBe(cookie ? 403 : 401)
		}
		expect(await t.db.select().from(settings)).toHaveLength(0)
	})

	// Just inside and just outside every range of 2-administration §5.7 (and app.backups_manter 1–100).
	const bounds: [string, (string | number | boolean)[], (string | number | boolean)[]][] = [
		['app.valor_credito_dia', ['1', '365', 1, 365], ['0', '366', '-1', '1.5', 'abc', '']],
		['app.valor_credito_individual', ['0.01', '9999.99', '50', 0.01], ['0', '0.00', '10000', '9999.999', '-1', 'R$ 5']],
		['app.terminais_padrao', ['1', '100'], ['0', '101']],
		['app.intervalo_backup', ['1', '168'], ['0', '169']],
		['app.backups_manter', ['1', '100'], ['0', '101']],
		['seguranca.auto_logout_minutos', ['5', '480'], ['4', '481']],
		['tema.cor_primaria', ['#000000', '#ffffff'], ['#fff', 'red', '#gggggg', '#0000000']],
		['tema.modo', ['light', 'dark', 'system'], ['auto', '']],
		['tema.tamanho_fonte', ['small', 'large'], ['huge']],
		['app.backup_automatico', ['true', false], ['yes', '1']]
	]
	for (const [chave, good, bad] of bounds) {
		it(`validates ${chave} at its bounds`, async () => {
			const { t, cookies } = await setup()
			for (const valor of good) {
				const res = await t.call('POST', '/api/configuracoes/bulk', { cookie: cookies.administrador, body: bulk({ [chave]: valor }) })
				expect(res.status, `${chave}=${valor}`).toBe(200)
				expect(await getSetting(t.db, chave as never)).toBe(String(valor))
			}
			const before = await getSetting(t.db, chave as never)
			for (const valor of bad) {
				const res = await t.call('POST', '/api/configuracoes/bulk', { cookie: cookies.administrador, body: bulk({ [chave]: valor }) })
				expect(res.status, `${chave}=${JSON.stringify(valor)}`).toBe(400)
				expect(res.json.message.length).toBeGreaterThan(5)
				const single = await t.call('POST', '/api/configuracoes', { cookie: cookies.administrador, body: { chave, valor } })
				expect(single.status, `single ${chave}=${JSON.stringify(valor)}`).toBe(400)
			}
			expect(await getSetting(t.db, chave as never)).toBe(before)
		})
	}

	it('saves all or nothing: one bad value keeps every other unchanged', async () => {
		const { t, cookies } = await setup()
		const res = await t.call('POST', '/api/configuracoes/bulk', {
			cookie: cookies.administrador,
			body: bulk({ 'app.moeda': 'USD', 'app.terminais_padrao': '101' })
		})
		expect(res.status).toBe(400)
		expect(res.json.message).toContain('Terminais padrão')
		expect(await t.db.select().from(settings)).toHaveLength(0)
		for (const body of [
			{},
			{ configuracoes: [] },
			{ configuracoes: 'x' },
			bulk({ 'app.nao_existe': '1' }),
			{ configuracoes: [{ chave: 'app.moeda' }] }
		]) {
			expect((await t.call('POST', '/api/configuracoes/bulk', { cookie: cookies.administrador, body })).status).toBe(400)
		}
		expect(await t.db.select().from(activities)).toHaveLength(0)
	})

	it('never returns a secret in clear, and a masked value sent back keeps the saved key', async () => {
		const { t, cookies } = await setup()
		const secret = 'evolution-000abcdefghijklmnop'
		const saved = await t.call('POST', '/api/configuracoes', {
			cookie: cookies.administrador,
			body: { chave: 'evolution_api_key', valor: secret }
		})
		expect(saved.status).toBe(200)
		expect(saved.text).not.toContain(secret)
		expect(saved.json.configuracao?.valor).toBe('••••••••mnop')
		const masked = (await t.call('GET', '/api/configuracoes', { cookie: cookies.administrador })).json.find(
			(e) => e.chave === 'evolution_api_key'
		)!
		expect(masked).toMatchObject({ valor: '••••••••mnop', secreto: true })
		const again = await t.call('POST', '/api/configuracoes/bulk', {
			cookie: cookies.administrador,
			body: bulk({ evolution_api_key: masked.valor, 'app.moeda': 'USD' })
		})
		expect(again.status).toBe(200)
		expect(again.text).not.toContain(secret)
		expect(await openSetting(t.db, t.ctx.secrets, 'evolution_api_key')).toBe(secret)
		// At rest it is sealed: neither the database nor a backup of it holds the key.
		expect(await getSetting(t.db, 'evolution_api_key')).toStartWith('enc:v1:mnop:')
		expect(await getSetting(t.db, 'evolution_api_key')).not.toContain(secret)
	})
})

describe('theme on every page', () => {
	const template = '<html data-tema-modo="__TEMA_MODO__"><head><title>x</title></head><body>__USER_NOME__</body></html>'

	it('injects the saved colours as CSS variables (HSL, black text above 50% lightness) and the mode', async () => {
		const { t, cookies } = await setup()
		await t.call('POST', '/api/configuracoes/bulk', {
			cookie: cookies.administrador,
			body: bulk({
				'tema.cor_primaria': '#ff0000',
				'tema.cor_secundaria': '#ffff99',
				'tema.modo': 'system',
				'tema.tamanho_fonte': 'small',
				'tema.modo_compacto': 'true'
			})
		})
		const { getThemeSettings } = await import('../settings')
		const html = renderPage(template, null, await getThemeSettings(t.db))
		expect(html).toContain('data-tema-modo="system"')
		expect(html).toContain('<style id="kportal-tema">')
		expect(html).toContain('--color-primary:hsl(0 100% 50%);--color-primary-content:#ffffff;')
		expect(html).toContain('--color-secondary:hsl(60 100% 80%);--color-secondary-content:#000000;')
		expect(html).toContain('font-size:14px')
		expect(html).toContain('--size-field:0.21rem')
		expect(html.indexOf('kportal-tema')).toBeLessThan(html.indexOf('</head>'))
	})

	it('uses the defaults when nothing was saved', async () => {
		const { t } = await setup()
		const { getThemeSettings } = await import('../settings')
		const html = renderPage(template, null, await getThemeSettings(t.db))
		expect(html).toContain('data-tema-modo="light"')
		expect(html).toContain('--color-primary:hsl(253.33 84.38% 12.55%)')
		expect(html).not.toContain('--size-field')
	})
})

describe('Sistema: info, cache', () => {
	it('shows version 2.1.0 from package.json, the database kind and status to administradores and gerentes', async () => {
		const { t, cookies } = await setup()
		for (const cookie of [cookies.administrador, cookies.gerente]) {
			const res = await t.call('GET', '/api/system/info', { cookie })
			expect(res.status).toBe(200)
			expect(res.json).toMatchObject({ version: '2.1.0', databaseKind: DIALECT === 'postgres' ? 'PostgreSQL' : 'SQLite', status: 'Online' })
			expect(res.json.database).toMatch(DIALECT === 'postgres' ? /^PostgreSQL 1\d\.\d+/ : /^SQLite 3\.\d+/)
		}
		expect((await t.call('GET', '/api/system/info', { cookie: cookies.representante })).status).toBe(403)
	})

	it('clear-cache removes expired sessions, says so, logs it; administradores only', async () => {
		const { t, cookies } = await setup()
		for (const cookie of [cookies.gerente, cookies.representante])
			expect((await t.call('POST', '/api/system/clear-cache', { cookie })).status).toBe(403)
		expect(await t.db.select().from(sessions)).toHaveLength(3)
		await t.db.insert(sessions).values({
			id: 'old',
			user_id: 1,
			created_at: '2026-01-01T00:00:00Z',
			last_active_at: '2026-01-01T00:00:00Z',
			expires_at: '2026-01-01T12:00:00Z'
		})
		const res = await t.call('POST', '/api/system/clear-cache', { cookie: cookies.administrador })
		expect(res.status).toBe(200)
		expect(res.json.removedSessions).toBe(1)
		expect(res.json.message).toContain('Cache limpo')
		expect(await t.db.select().from(sessions)).toHaveLength(3)
		expect((await t.db.select().from(activities)).map((a) => [a.event, a.icon, a.title])).toEqual([
			['system.cache-cleared', 'Terminal', 'Cache limpo']
		])
	})
})

describe('backups over the API', () => {
	it('the scheduled job makes the automatic backup under its lease and logs it in the activity history', async () => {
		const { t } = await setup()
		await runPortalJob(t, 'system.automatic-backup')
		expect(t.logs.filter((l) => l.event === 'backup.created').map((l) => l.fields?.kind)).toEqual(['automatico'])
		expect(t.logs.some((l) => l.event === 'backup.failed')).toBe(false)
		expect((await t.db.select().from(activities)).map((a) => a.event)).toContain('system.backup-automatic')
	})

	it('an administrador creates, lists, counts, downloads and deletes a backup', async () => {
		const { t, cookies, dataDir } = await setup()
		mkdirSync(join(dataDir, 'uploads', 'promo'), { recursive: true })
		writeFileSync(join(dataDir, 'uploads', 'promo', 'a.png'), 'png-bytes')
		const empty = await t.call('GET', '/api/system/backup/stats', { cookie: cookies.administrador })
		expect(empty.json).toEqual({
			totalBackups: 0,
			totalSize: 0,
			totalSizeFormatted: '0 B',
			lastBackup: null,
			disponivel: true,
			motivo: null
		})

		const created = await t.call('POST', '/api/system/backup/manual', { cookie: cookies.administrador })
		expect(created.status).toBe(200)
		expect(created.json.filename).toBe('backup-manual-2026-11-20T12-00-00-000Z.tar.gz')
		t.clock.advance(1000)
		const second = (await t.call('POST', '/api/system/backup/manual', { cookie: cookies.administrador })).json.filename

		const list = await t.call('GET', '/api/system/backup/list', { cookie: cookies.administrador })
		expect(list.json.backups.map((b: { filename: string }) => b.filename)).toEqual([second, created.json.filename])
		expect(list.json.backups[0]).toMatchObject({ type: 'manual', created: '2026-11-20T12:00:01.000Z' })
		expect(list.json.backups[0].sizeFormatted).toMatch(/KB|B/)
		const stats = await t.call('GET', '/api/system/backup/stats', { cookie: cookies.administrador })
		expect(stats.json).toMatchObject({ totalBackups: 2, lastBackup: '2026-11-20T12:00:01.000Z' })

		const download = await t.app.handle(
			new Request(`http://localhost/api/system/backup/download/${second}`, { headers: { cookie: cookies.administrador } })
		)
		expect(download.status).toBe(200)
		expect(download.headers.get('content-disposition')).toBe(`attachment; filename="${second}"`)
		const files = await new Bun.Archive(await download.arrayBuffer()).files()
		expect([...files.keys()].sort()).toEqual([
			'manifest.json',
			DIALECT === 'postgres' ? 'portal.pgdump' : 'portal.sqlite',
			'uploads/promo/a.png'
		])
		expect(await files.get('uploads/promo/a.png')!.text()).toBe('png-bytes')
		expect(JSON.parse(await files.get('manifest.json')!.text())).toMatchObject({ version: '2.1.0', kind: 'manual' })

		// Outside any served folder, readable only by the portal's user.
		expect(statSync(join(dataDir, 'backups', second)).mode & 0o777).toBe(0o600)
		expect(statSync(join(dataDir, 'backups')).mode & 0o777).toBe(0o700)

		const removed = await t.call('DELETE', `/api/system/backup/${second}`, { cookie: cookies.administrador })
		expect(removed.status).toBe(200)
		expect(readdirSync(join(dataDir, 'backups'))).toEqual([created.json.filename])
		expect((await t.call('DELETE', `/api/system/backup/${second}`, { cookie: cookies.administrador })).status).toBe(404)
		expect(await t.activityTitles()).toEqual(['Backup criado', 'Backup criado', 'Backup deletado'])
	})

	it('two backups asked in the same instant: one is taken, the other is refused with 409, nothing half-written is left', async () => {
		const { t, cookies, dataDir } = await setup()
		const [a, b] = await Promise.all([
			t.call('POST', '/api/system/backup/manual', { cookie: cookies.administrador }),
			t.call('POST', '/api/system/backup/manual', { cookie: cookies.administrador })
		])
		expect([a.status, b.status].sort()).toEqual([200, 409])
		expect(readdirSync(join(dataDir, 'backups'))).toEqual(['backup-manual-2026-11-20T12-00-00-000Z.tar.gz'])
	})

	it('refuses gerentes and representantes on every backup route, and nothing changes', async () => {
		const { t, cookies, dataDir } = await setup()
		const name = (await t.call('POST', '/api/system/backup/manual', { cookie: cookies.administrador })).json.filename
		for (const cookie of [cookies.gerente, cookies.representante]) {
			expect((await t.call('GET', '/api/system/backup/stats', { cookie })).status).toBe(403)
			expect((await t.call('GET', '/api/system/backup/list', { cookie })).status).toBe(403)
			expect((await t.call('POST', '/api/system/backup/manual', { cookie })).status).toBe(403)
			expect((await t.call('DELETE', `/api/system/backup/${name}`, { cookie })).status).toBe(403)
			expect((await t.call('GET', `/api/system/backup/download/${name}`, { cookie })).status).toBe(403)
		}
		expect((await t.call('GET', `/api/system/backup/download/${name}`)).status).toBe(401)
		expect(readdirSync(join(dataDir, 'backups'))).toEqual([name])
	})

	it('never lets a file name leave the backup folder', async () => {
		const { t, cookies, dataDir } = await setup()
		writeFileSync(join(dataDir, 'portal.sqlite'), 'the live database')
		writeFileSync(join(dataDir, 'backups-secret.tar.gz'), 'x')
		const attempts = [
			'..%2Fportal.sqlite',
			'%2e%2e%2fportal.sqlite',
			'%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
			'..%5Cportal.sqlite',
			'....%2F%2Fportal.sqlite',
			'%252e%252e%252fportal.sqlite',
			'..',
			'.',
			'portal.sqlite',
			'backup-manual-2026-11-20T12-00-00-000Z.tar.gz%00.txt',
			'..%2Fbackups-secret.tar.gz',
			'backup-manual-2026-11-20T12-00-00-000Z.tar.gz%2F..%2F..%2Fportal.sqlite'
		]
		for (const name of attempts) {
			for (const [method, path] of [
				['GET', `/api/system/backup/download/${name}`],
				['DELETE', `/api/system/backup/${name}`]
			]) {
				const res = await t.call(method, path, { cookie: cookies.administrador })
				expect([400, 404], `${method} ${name}`).toContain(res.status)
				expect(res.text).not.toContain('the live database')
			}
		}
		expect(readdirSync(dataDir).sort()).toEqual(['backups-secret.tar.gz', 'portal.sqlite'])
		// A well-formed name that does not exist is a plain 404.
		expect(
			(await t.call('GET', '/api/system/backup/download/backup-manual-2026-11-20T12-00-00-000Z.tar.gz', { cookie: cookies.administrador }))
				.status
		).toBe(404)
	})
})
