import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { createTestPostgres } from '../../db/testing'
import { fixedClock } from '../core'
import { backupAvailability, createBackup } from './backup'
import { findPgTools } from './postgres-backup'
import { RestoreError, restoreBackup } from './restore'

/*
 * Backups of a portal on PostgreSQL, whatever the dialect this test process runs on: each test has its own migrated
 * PostgreSQL database (createTestPostgres) and writes to it with plain SQL.
 */

const clock = fixedClock('2026-11-20T12:00:00Z')
const temporary: string[] = []
const closers: (() => Promise<void>)[] = []
afterAll(async () => {
	for (const close of closers) await close().catch(() => {})
	for (const dir of temporary) rmSync(dir, { recursive: true, force: true })
})

/** A migrated PostgreSQL database with its administrador and a data folder, as a portal that has started once. */
async function portalOnPostgres() {
	const database = await createTestPostgres()
	closers.push(() => database.close())
	const sql = postgres(database.url, { max: 1, onnotice: () => {} })
	const at = '2026-11-20T12:00:00.000Z'
	await sql`insert into users (cnpj, nome, tipo, senha_hash, ativo, created_at, updated_at)
		values ('11222333000181', 'Ana', 'administrador', 'x', true, ${at}, ${at})`
	const dataDir = mkdtempSync(join(tmpdir(), 'kportal-pgbackup-'))
	temporary.push(dataDir)
	const note = (title: string) => sql`insert into activities (created_at, type, icon, title) values (${at}, 'info', 'Building', ${title})`
	const notes = async () => (await sql<{ title: string }[]>`select title from activities order by id`).map((r) => r.title)
	/** The portal's own pool, closed as a stopped portal's would be (a restore refuses while it is connected). */
	const stopPortal = () => (database.db.$client as unknown as postgres.Sql).end()
	return { ...database, sql, dataDir, note, notes, stopPortal, ctx: { db: database.db, clock, config: { dataDir } } }
}

async function archiveEntries(file: string) {
	return new Bun.Archive(await Bun.file(file).bytes()).files()
}

/** Runs `body` with a PATH on which no PostgreSQL tool can be found. */
async function withoutPgTools<T>(body: () => Promise<T>): Promise<T> {
	const path = process.env.PATH
	process.env.PATH = mkdtempSync(join(tmpdir(), 'kportal-nopath-'))
	temporary.push(process.env.PATH)
	try {
		return await body()
	} finally {
		process.env.PATH = path
	}
}

describe('backups on PostgreSQL', () => {
	it('backs up with pg_dump and restores exactly the backed-up data with pg_restore', async () => {
		const portal = await portalOnPostgres()
		for (let i = 0; i < 3; i++) await portal.note(`antes ${i}`)
		expect(await backupAvailability(portal.db)).toEqual({ disponivel: true, motivo: null })

		const backup = await createBackup(portal.ctx, 'manual', '2.1.0')
		const archive = join(portal.dataDir, 'backups', backup.filename)
		const entries = await archiveEntries(archive)
		expect([...entries.keys()].sort()).toEqual(['manifest.json', 'portal.pgdump'])
		const manifest = JSON.parse(await entries.get('manifest.json')!.text())
		expect(manifest).toMatchObject({ app: 'k-licencas', version: '2.1.0', kind: 'manual', database: 'postgres' })
		// pg_dump's custom format starts with its own signature.
		expect(new TextDecoder().decode((await entries.get('portal.pgdump')!.bytes()).subarray(0, 5))).toBe('PGDMP')

		await portal.note('depois')
		await portal.sql`update users set nome = 'Outra'`
		await portal.stopPortal()
		await portal.sql.end()

		const result = await restoreBackup({ archive, dataDir: portal.dataDir, databaseUrl: portal.url })
		expect(result.manifest?.database).toBe('postgres')
		expect(existsSync(result.replacedDb!)).toBe(true)
		const after = postgres(portal.url, { max: 1, onnotice: () => {} })
		try {
			expect((await after<{ title: string }[]>`select title from activities order by id`).map((r) => r.title)).toEqual([
				'antes 0',
				'antes 1',
				'antes 2'
			])
			expect((await after<{ nome: string }[]>`select nome from users`).map((r) => r.nome)).toEqual(['Ana'])
		} finally {
			await after.end()
		}
	}, 60_000)

	it('refuses while the portal is connected, a newer or administrator-less backup, and leaves the database as it was', async () => {
		const portal = await portalOnPostgres()
		await portal.note('original')
		const good = await createBackup(portal.ctx, 'manual', '2.1.0')
		const goodArchive = join(portal.dataDir, 'backups', good.filename)
		// The portal (its pool) is still connected.
		await expect(restoreBackup({ archive: goodArchive, dataDir: portal.dataDir, databaseUrl: portal.url })).rejects.toThrow(
			/conexões? abertas? .*Pare todos os processos do portal/
		)

		await portal.sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('do-futuro', ${Date.now() + 10 * 365 * 86_400_000})`
		const newer = await createBackup({ ...portal.ctx, clock: fixedClock('2026-11-20T12:01:00Z') }, 'manual', '9.0.0')
		await portal.sql`delete from drizzle.__drizzle_migrations where hash = 'do-futuro'`
		await portal.sql`update users set ativo = false`
		const adminless = await createBackup({ ...portal.ctx, clock: fixedClock('2026-11-20T12:02:00Z') }, 'manual', '2.1.0')
		await portal.sql`update users set ativo = true`
		await portal.stopPortal()

		const restore = (file: string) =>
			restoreBackup({ archive: join(portal.dataDir, 'backups', file), dataDir: portal.dataDir, databaseUrl: portal.url })
		await expect(restore(newer.filename)).rejects.toThrow('O backup é de uma versão mais nova do portal')
		await expect(restore(adminless.filename)).rejects.toThrow('nenhum administrador ativo')
		expect(await portal.notes()).toEqual(['original'])
		expect((await portal.sql<{ ativo: boolean }[]>`select ativo from users`).map((r) => r.ativo)).toEqual([true])
		await portal.sql.end()
	}, 60_000)

	it('refuses a backup of the other database kind with a clear message', async () => {
		const portal = await portalOnPostgres()
		const pgBackup = await createBackup(portal.ctx, 'manual', '2.1.0')
		await portal.stopPortal()
		await portal.sql.end()
		const elsewhere = mkdtempSync(join(tmpdir(), 'kportal-sqlite-'))
		temporary.push(elsewhere)
		await expect(restoreBackup({ archive: join(portal.dataDir, 'backups', pgBackup.filename), dataDir: elsewhere })).rejects.toThrow(
			'Este backup é de um portal em PostgreSQL e este portal usa SQLite'
		)

		// A SQLite backup: the same archive layout with portal.sqlite and its manifest.
		const sqliteArchive = join(elsewhere, 'sqlite-backup.tar.gz')
		await Bun.Archive.write(
			sqliteArchive,
			{ 'portal.sqlite': 'SQLite format 3', 'manifest.json': JSON.stringify({ app: 'k-licencas', database: 'portal.sqlite' }) },
			{ compress: 'gzip' }
		)
		const refused = restoreBackup({ archive: sqliteArchive, dataDir: portal.dataDir, databaseUrl: portal.url })
		await expect(refused).rejects.toBeInstanceOf(RestoreError)
		await expect(refused).rejects.toThrow('Este backup é de um portal em SQLite e este portal usa PostgreSQL')
	}, 60_000)

	it('says in pt-BR that pg_dump and pg_restore are missing or too old, on the screen and in the restore command', async () => {
		const portal = await portalOnPostgres()
		const backup = await createBackup(portal.ctx, 'manual', '2.1.0')
		await withoutPgTools(async () => {
			const availability = await backupAvailability(portal.db)
			expect(availability.disponivel).toBe(false)
			expect(availability.motivo).toStartWith('Backups em PostgreSQL precisam de pg_dump e pg_restore, que não foram encontrados')
			expect(availability.motivo).toContain('postgresql-client-')
			await expect(createBackup({ ...portal.ctx, clock: fixedClock('2026-11-20T13:00:00Z') }, 'manual')).rejects.toMatchObject({
				status: 503,
				message: availability.motivo
			})
			await portal.stopPortal()
			await expect(
				restoreBackup({ archive: join(portal.dataDir, 'backups', backup.filename), dataDir: portal.dataDir, databaseUrl: portal.url })
			).rejects.toThrow(availability.motivo!)
		})
		await portal.sql.end()
		// Only the first backup was written.
		expect(await Array.fromAsync(new Bun.Glob('backup-*').scan(join(portal.dataDir, 'backups')))).toHaveLength(1)
		// pg_dump refuses a server newer than itself: that is said before anything is tried.
		const tooOld = await findPgTools(990000)
		expect(tooOld).toEqual({
			disponivel: false,
			motivo: expect.stringMatching(/^pg_dump \d+ é mais antigo que o servidor PostgreSQL 99: instale o pacote postgresql-client-99/)
		})
	}, 60_000)
})
