import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync as makeTempDir, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { openDb } from '../../db/client'
import { migrateDb } from '../../db/migrate'
import { activities } from '../activity'
import { users } from '../auth'
import { DAY, HOUR, fixedClock } from '../core'
import { createSecretBox } from '../core/server'
import { saveSettings, settings } from '../settings'
import { backupDir, createBackup, integrityCheck, listBackups, runAutomaticBackup } from './backup'
import { HEARTBEAT_STALE_MS, PID_FILE, RestoreError, restoreBackup, runningServer } from './restore'

const ROOT = resolve(import.meta.dir, '../..')

/** The settings these tests save hold no secret: any key will do. */
const TEST_SECRETS = createSecretBox(new Uint8Array(32))

/** Temporary folders of this file, removed at the end. */
const temporary: string[] = []
function mkdtempSync(prefix: string) {
	const dir = makeTempDir(prefix)
	temporary.push(dir)
	return dir
}
afterAll(() => {
	for (const dir of temporary) rmSync(dir, { recursive: true, force: true })
})

/** A migrated database on disk with its administrador, as any portal that has started once has. */
async function freshDataDir() {
	const dataDir = mkdtempSync(join(tmpdir(), 'kportal-backup-'))
	const dbPath = join(dataDir, 'portal.sqlite')
	const db = openDb(dbPath)
	migrateDb(db)
	const at = '2026-11-20T12:00:00.000Z'
	await db
		.insert(users)
		.values({ cnpj: '11222333000181', nome: 'Ana', tipo: 'administrador', senha_hash: 'x', created_at: at, updated_at: at })
	return { dataDir, dbPath, db, config: { dataDir } }
}

async function addActivity(db: ReturnType<typeof openDb>, title: string) {
	await db.insert(activities).values({ created_at: new Date().toISOString(), type: 'info', icon: 'Building', title })
}

const dump = async (db: ReturnType<typeof openDb>) => ({
	activities: await db.select().from(activities),
	settings: await db.select().from(settings)
})

async function extractDb(archive: string, into: string): Promise<string> {
	const files = await new Bun.Archive(await Bun.file(archive).bytes()).files()
	const path = join(into, 'extracted.sqlite')
	await Bun.write(path, await files.get('portal.sqlite')!.bytes())
	return path
}

describe('backup and restore', () => {
	it('restores exactly the backed-up data: write, back up, write more, restore', async () => {
		const { dataDir, dbPath, db, config } = await freshDataDir()
		const clock = fixedClock('2026-11-20T12:00:00Z')
		await saveSettings(db, clock, TEST_SECRETS, [{ chave: 'app.moeda', valor: 'USD' }])
		for (let i = 0; i < 10; i++) await addActivity(db, `antes ${i}`)
		mkdirSync(join(dataDir, 'uploads', 'promo'), { recursive: true })
		writeFileSync(join(dataDir, 'uploads', 'promo', 'rep.png'), 'imagem antiga')
		const snapshot = await dump(db)

		const backup = await createBackup({ db, clock, config }, 'manual', '2.1.0')

		await saveSettings(db, clock, TEST_SECRETS, [
			{ chave: 'app.moeda', valor: 'EUR' },
			{ chave: 'app.idioma', valor: 'en-US' }
		])
		for (let i = 0; i < 5; i++) await addActivity(db, `depois ${i}`)
		writeFileSync(join(dataDir, 'uploads', 'promo', 'rep.png'), 'imagem nova')
		writeFileSync(join(dataDir, 'uploads', 'extra.png'), 'só depois')
		db.$client.close()

		const result = await restoreBackup({
			archive: join(backupDir(config), backup.filename),
			dataDir,
			now: new Date('2026-11-21T08:00:00Z')
		})
		expect(result.replacedDb).toBe(`${dbPath}.replaced-2026-11-21T08-00-00-000Z`)
		expect(result.restoredUploads).toBe(1)

		const restored = openDb(dbPath)
		expect(await dump(restored)).toEqual(snapshot)
		expect(restored.$client.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
		restored.$client.close()
		expect(readFileSync(join(dataDir, 'uploads', 'promo', 'rep.png'), 'utf8')).toBe('imagem antiga')
		expect(existsSync(join(dataDir, 'uploads', 'extra.png'))).toBe(false)
		// The replaced database and uploads are kept, complete.
		const replaced = new Database(result.replacedDb!, { readonly: true })
		expect((replaced.query('select count(*) as n from activities').get() as { n: number }).n).toBe(15)
		replaced.close()
		expect(readFileSync(join(result.replacedUploads!, 'extra.png'), 'utf8')).toBe('só depois')
	})

	it('a backup taken during 200 concurrent writes passes integrity_check and holds every write finished before it began', async () => {
		const { dataDir, dbPath, db, config } = await freshDataDir()
		const clock = fixedClock('2026-11-20T12:00:00Z')
		// Another process writes 200 rows, one transaction each, while this one takes the backup.
		const writer = Bun.spawn(
			[
				process.execPath,
				'-e',
				`import { Database } from 'bun:sqlite'
				const db = new Database(${JSON.stringify(dbPath)})
				db.exec('PRAGMA busy_timeout = 5000'); db.exec('PRAGMA synchronous = FULL')
				const insert = db.prepare("insert into activities (created_at, type, icon, title) values (?, 'info', 'Building', ?)")
				for (let i = 1; i <= 200; i++) {
					db.transaction(() => insert.run(new Date().toISOString(), 'escrita ' + i)).immediate()
					await Bun.sleep(2)
				}
				db.close()`
			],
			{ stdout: 'inherit', stderr: 'inherit' }
		)
		const count = () => (db.$client.query('select count(*) as n from activities').get() as { n: number }).n
		while (count() < 40 && writer.exitCode === null) await Bun.sleep(5)
		// Everything committed up to here must be in the backup.
		const finishedBefore = db.$client.query('select id, title from activities order by id').all() as { id: number; title: string }[]
		const backup = await createBackup({ db, clock, config }, 'manual')
		expect(await writer.exited).toBe(0)
		expect(count()).toBe(200)

		const work = mkdtempSync(join(tmpdir(), 'kportal-check-'))
		const copy = await extractDb(join(backupDir(config), backup.filename), work)
		expect(integrityCheck(copy)).toBe('ok')
		const inBackup = new Database(copy, { readonly: true })
		const rows = inBackup.query('select id, title from activities order by id').all() as { id: number; title: string }[]
		inBackup.close()
		expect(rows.length).toBeGreaterThanOrEqual(finishedBefore.length)
		expect(rows.slice(0, finishedBefore.length)).toEqual(finishedBefore)
		// A consistent snapshot: a prefix of the writes, with no gap.
		expect(rows.map((r) => r.title)).toEqual(rows.map((_, i) => `escrita ${i + 1}`))

		db.$client.close()
		await restoreBackup({ archive: join(backupDir(config), backup.filename), dataDir })
		const restored = new Database(dbPath, { readonly: true })
		expect(restored.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
		expect(restored.query('select id, title from activities order by id').all()).toEqual(rows)
		restored.close()
	}, 30_000)

	it('keeps the portal responsive while it copies and compresses a large database', async () => {
		const { db, config } = await freshDataDir()
		const insert = db.$client.prepare(
			"insert into activities (created_at, type, icon, title, subtitle) values ('2026-11-20', 'info', 'Building', ?, ?)"
		)
		db.$client.transaction(() => {
			for (let i = 0; i < 200_000; i++) insert.run(`atividade ${i}`, `${'x'.repeat(100)}${Math.random()}`)
		})()
		// What copying on the main thread would cost: the event loop stalls for all of it.
		const inline = performance.now()
		db.$client.prepare('VACUUM INTO ?').run(join(mkdtempSync(join(tmpdir(), 'kportal-inline-')), 'copy.sqlite'))
		const inlineMs = performance.now() - inline

		// The longest gap between 2 ms timer ticks during a backup; best of three, as a loaded machine adds its own stalls.
		const stalls: number[] = []
		for (let attempt = 0; attempt < 3; attempt++) {
			let last = performance.now()
			let longestStall = 0
			const ticker = setInterval(() => {
				const now = performance.now()
				longestStall = Math.max(longestStall, now - last)
				last = now
			}, 2)
			const backup = await createBackup({ db, clock: fixedClock(`2026-11-20T12:00:0${attempt}Z`), config }, 'manual')
			clearInterval(ticker)
			expect(backup.size).toBeGreaterThan(1_000_000)
			stalls.push(longestStall)
			if (longestStall < Math.max(25, inlineMs / 2)) break
		}
		expect(Math.min(...stalls)).toBeLessThan(Math.max(25, inlineMs / 2))
	}, 60_000)

	it('refuses a corrupt database and foreign entries, and leaves the live database alone', async () => {
		const { dataDir, dbPath, db, config } = await freshDataDir()
		await addActivity(db, 'vivo')
		const dir = backupDir(config)
		mkdirSync(dir, { recursive: true })
		const full = join(dir, 'full.sqlite')
		db.$client.prepare('VACUUM INTO ?').run(full)
		db.$client.close()
		const before = readFileSync(full)
		const liveBefore = readFileSync(dbPath)

		const corrupt = join(dir, 'corrupt.tar.gz')
		const pages = new Uint8Array(before)
		pages.fill(0x41, 4096, 8192)
		await Bun.Archive.write(corrupt, { 'portal.sqlite': pages, 'manifest.json': '{}' }, { compress: 'gzip' })
		const garbage = join(dir, 'garbage.tar.gz')
		await Bun.Archive.write(garbage, { 'portal.sqlite': 'not a database at all, just text' }, { compress: 'gzip' })
		const noDb = join(dir, 'nodb.tar.gz')
		await Bun.Archive.write(noDb, { 'manifest.json': '{}' }, { compress: 'gzip' })
		const foreign = join(dir, 'foreign.tar.gz')
		await Bun.Archive.write(foreign, { 'portal.sqlite': before, 'etc/cron.d/evil': 'x' }, { compress: 'gzip' })
		const traversal = join(dir, 'traversal.tar.gz')
		await Bun.Archive.write(traversal, { 'portal.sqlite': before, 'uploads/../../evil.sh': 'x' }, { compress: 'gzip' })
		const absolute = join(dir, 'absolute.tar.gz')
		await Bun.Archive.write(absolute, { 'portal.sqlite': before, '/tmp/evil.sh': 'x' }, { compress: 'gzip' })
		const notArchive = join(dir, 'plain.tar.gz')
		writeFileSync(notArchive, 'this is not gzip')

		for (const archive of [corrupt, garbage, noDb, foreign, traversal, absolute, notArchive]) {
			const error = await restoreBackup({ archive, dataDir }).then(
				() => null,
				(e) => e
			)
			expect(error, archive).toBeInstanceOf(RestoreError)
		}
		expect(readFileSync(dbPath).equals(liveBefore)).toBe(true)
		const live = new Database(dbPath, { readonly: true })
		expect((live.query('select title from activities').all() as { title: string }[]).map((r) => r.title)).toEqual(['vivo'])
		live.close()
		expect(readdirSync(dataDir).filter((n) => n.includes('replaced') || n.startsWith('.restore-'))).toEqual([])
		expect(existsSync(join(dataDir, '..', 'evil.sh'))).toBe(false)
		// Seven archives to open and check: well under a second on a quiet machine, several on a busy one.
	}, 30_000)

	it('the restore command works from the shell, and refuses while the server runs', async () => {
		const { dataDir, dbPath, db, config } = await freshDataDir()
		await addActivity(db, 'no backup')
		const backup = await createBackup({ db, clock: fixedClock('2026-11-20T12:00:00Z'), config }, 'manual')
		await addActivity(db, 'depois do backup')
		db.$client.close()
		// This portal is the SQLite one in dataDir, whichever database the suite runs on (postgres-backup.test.ts has its twin).
		const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }

		// A live process named in the pid file: the server is running.
		const sleeper = Bun.spawn(['sleep', '30'])
		const pidFile = (pid: number, host: string, beat: number) => writeFileSync(join(dataDir, PID_FILE), JSON.stringify({ pid, host, beat }))
		pidFile(sleeper.pid, hostname(), Date.now())
		const refused = Bun.spawnSync([process.execPath, 'scripts/restore.ts', backup.filename], { cwd: ROOT, env })
		expect(refused.exitCode).toBe(1)
		expect(refused.stderr.toString()).toContain('Pare o servidor antes de restaurar')
		// A portal in another container sharing the volume: only its heartbeat tells.
		pidFile(1, 'outro-container', Date.now() - 10_000)
		expect(Bun.spawnSync([process.execPath, 'scripts/restore.ts', backup.filename], { cwd: ROOT, env }).exitCode).toBe(1)
		// Left behind by a killed server: a stale heartbeat, or a dead process on this host.
		expect(runningServer(dataDir, Date.now() + HEARTBEAT_STALE_MS + 1)).toBeNull()
		sleeper.kill()
		await sleeper.exited
		pidFile(sleeper.pid, hostname(), Date.now())
		expect(runningServer(dataDir)).toBeNull()

		const ok = Bun.spawnSync([process.execPath, 'scripts/restore.ts', backup.filename], { cwd: ROOT, env })
		expect(ok.stderr.toString()).toBe('')
		expect(ok.exitCode).toBe(0)
		expect(ok.stdout.toString()).toContain('integrity_check = ok')
		const restored = new Database(dbPath, { readonly: true })
		expect((restored.query('select title from activities').all() as { title: string }[]).map((r) => r.title)).toEqual(['no backup'])
		restored.close()

		const usage = Bun.spawnSync([process.execPath, 'scripts/restore.ts'], { cwd: ROOT, env })
		expect(usage.exitCode).toBe(2)
		const missing = Bun.spawnSync([process.execPath, 'scripts/restore.ts', 'nao-existe.tar.gz'], { cwd: ROOT, env })
		expect(missing.exitCode).toBe(1)
	}, 30_000)
})

describe('restore takes only a backup of this portal (issue 13, points 4 and 5)', () => {
	/** An archive as the portal writes it, with the database given and the manifest of a backup (unless replaced). */
	async function archiveOf(
		dir: string,
		name: string,
		database: Uint8Array | string,
		manifest: unknown = { app: 'k-licencas', database: 'portal.sqlite' }
	) {
		const path = join(dir, name)
		const entries: Record<string, Uint8Array | string> = { 'portal.sqlite': database }
		if (manifest !== null) entries['manifest.json'] = JSON.stringify(manifest)
		await Bun.Archive.write(path, entries, { compress: 'gzip' })
		return path
	}

	/** The bytes of a database file after `prepare` runs on a fresh one. */
	function databaseBytes(dir: string, prepare: (db: Database) => void): Uint8Array {
		const path = join(mkdtempSync(join(dir, 'db-')), 'x.sqlite')
		const db = new Database(path)
		prepare(db)
		db.close()
		return readFileSync(path)
	}

	/** What the live database holds, read without changing it. */
	function liveData(path: string) {
		const live = new Database(path, { readonly: true })
		try {
			return {
				activities: live.query('select id, title from activities order by id').all(),
				users: live.query('select id, cnpj, tipo, ativo from users order by id').all()
			}
		} finally {
			live.close()
		}
	}

	const refusal = (archive: string, dataDir: string, maxBytes?: number) =>
		restoreBackup({ archive, dataDir, maxBytes }).then(
			() => null,
			(e: Error) => e
		)

	it('refuses an empty or foreign database, one from a newer portal, one without an active administrador, and a bomb', async () => {
		const { dataDir, dbPath, db, config } = await freshDataDir()
		await addActivity(db, 'vivo')
		const good = await createBackup({ db, clock: fixedClock('2026-11-20T12:00:00Z'), config }, 'manual')
		const portal = new Uint8Array(
			await (await new Bun.Archive(await Bun.file(join(backupDir(config), good.filename)).bytes()).files()).get('portal.sqlite')!.bytes()
		)
		db.$client.close()
		// The backup's worker may still hold its read connection, which changes how SQLite lays out the file on close:
		// what must not change is the live data.
		const liveBefore = liveData(dbPath)
		const work = mkdtempSync(join(tmpdir(), 'kportal-hostile-'))
		/** The portal's database with one change made to it. */
		const changed = (sql: string) => {
			const path = join(mkdtempSync(join(work, 'p-')), 'p.sqlite')
			writeFileSync(path, portal)
			const copy = new Database(path)
			copy.exec(sql)
			copy.close()
			return readFileSync(path)
		}

		/** A database of its own, holding only what `sql` makes. */
		const alone = (sql: string) => databaseBytes(work, (d) => d.exec(sql))
		const futureMigration = `insert into __drizzle_migrations (hash, created_at) values ('futuro', ${Date.now() + 10 ** 11})`
		// What it is, the database archived, what the refusal says, and the manifest when not the portal's own.
		const cases: [string, Uint8Array, RegExp, unknown?][] = [
			['vazio', alone('pragma user_version = 1'), /faltam as tabelas/],
			['outro sistema', alone('create table clientes (id integer primary key)'), /faltam as tabelas/],
			['mais nova', changed(futureMigration), /versão mais nova/],
			['sem administrador', changed('update users set ativo = 0'), /nenhum administrador ativo/],
			['sem migrações', changed('delete from __drizzle_migrations'), /nenhuma migração/],
			['sem manifesto', portal, /não é um backup do K-Licenças/, null],
			['manifesto alheio', portal, /não é um backup do K-Licenças/, { app: 'outro' }]
		]
		for (const [i, [what, database, message, manifest]] of cases.entries()) {
			const error = await refusal(await archiveOf(work, `caso-${i}.tar.gz`, database, manifest), dataDir)
			expect(error, what).toBeInstanceOf(RestoreError)
			expect(error!.message, what).toMatch(message)
		}
		// A bomb: 64 MB of zeros in a few kilobytes; with a 4 MB cap it stops after 4 MB.
		const bomb = await archiveOf(work, 'bomb.tar.gz', new Uint8Array(64 * 1024 * 1024))
		expect(statSync(bomb).size).toBeLessThan(200_000)
		const bombError = await refusal(bomb, dataDir, 4 * 1024 * 1024)
		expect(bombError).toBeInstanceOf(RestoreError)
		expect(bombError!.message).toContain('passa de 4 MB')

		expect(liveData(dbPath)).toEqual(liveBefore)
		expect(readdirSync(dataDir).filter((n) => n.includes('replaced') || n.startsWith('.restore-'))).toEqual([])
		// The portal's own backup still restores.
		expect(await refusal(join(backupDir(config), good.filename), dataDir)).toBeNull()
	}, 30_000)

	it('leaves the database, its WAL and SHM, the uploads and the replaced copies readable by the owner only', async () => {
		const mask = process.umask(0o022)
		try {
			const { dataDir, dbPath, db, config } = await freshDataDir()
			mkdirSync(join(dataDir, 'uploads', 'promo'), { recursive: true, mode: 0o755 })
			writeFileSync(join(dataDir, 'uploads', 'promo', 'rep.png'), 'imagem', { mode: 0o644 })
			const backup = await createBackup({ db, clock: fixedClock('2026-11-20T12:00:00Z'), config }, 'manual')
			db.$client.close()
			const result = await restoreBackup({ archive: join(backupDir(config), backup.filename), dataDir })
			// The server opens the restored database: its WAL and SHM appear beside it.
			const reopened = openDb(dbPath)
			await addActivity(reopened, 'depois')
			const paths = [
				dbPath,
				`${dbPath}-wal`,
				`${dbPath}-shm`,
				result.replacedDb!,
				join(dataDir, 'uploads'),
				join(dataDir, 'uploads', 'promo'),
				join(dataDir, 'uploads', 'promo', 'rep.png'),
				result.replacedUploads!,
				join(result.replacedUploads!, 'promo', 'rep.png')
			]
			for (const path of paths) {
				expect(existsSync(path), path).toBe(true)
				expect((statSync(path).mode & 0o077).toString(8), path).toBe('0')
			}
			reopened.$client.close()
		} finally {
			process.umask(mask)
		}
	})
})

describe('automatic backups', () => {
	it('runs every app.intervalo_backup hours while app.backup_automatico is on, keeping the newest app.backups_manter', async () => {
		const { db, config } = await freshDataDir()
		const clock = fixedClock('2026-11-20T00:00:00Z')
		const ctx = { db, clock, config }
		const first = await runAutomaticBackup(ctx)
		expect(first?.filename).toBe('backup-automatico-2026-11-20T00-00-00-000Z.tar.gz')
		clock.advance(23 * HOUR)
		expect(await runAutomaticBackup(ctx)).toBeNull()
		clock.advance(HOUR)
		expect((await runAutomaticBackup(ctx))?.filename).toBe('backup-automatico-2026-11-21T00-00-00-000Z.tar.gz')

		await saveSettings(db, clock, TEST_SECRETS, [
			{ chave: 'app.intervalo_backup', valor: '1' },
			{ chave: 'app.backups_manter', valor: '2' }
		])
		await createBackup(ctx, 'manual')
		for (let i = 0; i < 3; i++) {
			clock.advance(HOUR)
			expect(await runAutomaticBackup(ctx)).not.toBeNull()
		}
		const names = listBackups(config).map((b) => `${b.type} ${b.created}`)
		expect(names).toEqual(['automático 2026-11-21T03:00:00.000Z', 'automático 2026-11-21T02:00:00.000Z', 'manual 2026-11-21T00:00:00.000Z'])

		await saveSettings(db, clock, TEST_SECRETS, [{ chave: 'app.backup_automatico', valor: 'false' }])
		clock.advance(DAY)
		expect(await runAutomaticBackup(ctx)).toBeNull()
		expect(listBackups(config)).toHaveLength(3)
	})
})
