import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A throw-away PostgreSQL server for the tests and the benchmarks: Debian's `postgresql` package (installed with
 * apt-get when missing and the process may), a fresh cluster in a temporary folder, listening on 127.0.0.1 only, with
 * trust authentication and no fsync (its data dies with it). As root, the cluster runs as the package's `postgres`
 * user, since PostgreSQL refuses to run as root.
 */
export interface PostgresCluster {
	/** A superuser URL of the cluster's `postgres` database. */
	url: string
	stop(): Promise<void>
	/** The same, synchronous: for a process's `exit` handler. */
	stopSync(): void
}

function binDir(): string | null {
	const root = '/usr/lib/postgresql'
	if (!existsSync(root)) return null
	const versions = readdirSync(root)
		.filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
		.sort((a, b) => Number(b) - Number(a))
	return versions.length ? join(root, versions[0], 'bin') : null
}

const isRoot = () => process.getuid?.() === 0

async function run(cmd: string[], asPostgres = false): Promise<void> {
	const full = asPostgres && isRoot() ? ['runuser', '-u', 'postgres', '--', ...cmd] : cmd
	const proc = Bun.spawn(full, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
	const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
	if (code !== 0) throw new Error(`${full.join(' ')} falhou (${code}): ${err.trim().slice(-2000)}`)
}

/** The PostgreSQL server programs, installed from Debian's packages when they are missing. */
export async function ensurePostgres(): Promise<string> {
	const found = binDir()
	if (found) return found
	if (isRoot() && existsSync('/usr/bin/apt-get')) {
		console.log('PostgreSQL não encontrado: instalando o pacote postgresql do Debian (apt-get)...')
		await run(['apt-get', 'update', '-qq'])
		await run(['apt-get', 'install', '-y', '-qq', 'postgresql'])
		const installed = binDir()
		if (installed) return installed
	}
	throw new Error(
		'Os testes em PostgreSQL precisam do servidor PostgreSQL (Debian/Ubuntu: "sudo apt-get install -y postgresql"), ' +
			'ou de TEST_POSTGRES_URL apontando para um servidor de testes.'
	)
}

function freePort(): number {
	const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
	const port = probe.port as number
	probe.stop(true)
	return port
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
	const bin = await ensurePostgres()
	const dir = mkdtempSync(join(tmpdir(), 'portal-pg-'))
	if (isRoot()) {
		const { uid, gid } = await postgresUser()
		chownSync(dir, uid, gid)
	}
	const data = join(dir, 'data')
	await run([join(bin, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8'], true)
	const port = freePort()
	const options = [
		`-p ${port}`,
		`-k ${dir}`,
		'-c listen_addresses=127.0.0.1',
		'-c fsync=off',
		'-c synchronous_commit=off',
		'-c full_page_writes=off',
		'-c max_connections=300'
	].join(' ')
	await run([join(bin, 'pg_ctl'), '-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', 'start'], true)
	return {
		url: `postgres://postgres@127.0.0.1:${port}/postgres`,
		async stop() {
			await run([join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'], true).catch(() => {})
			rmSync(dir, { recursive: true, force: true })
		},
		stopSync() {
			const stop = [join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop']
			Bun.spawnSync(isRoot() ? ['runuser', '-u', 'postgres', '--', ...stop] : stop)
			rmSync(dir, { recursive: true, force: true })
		}
	}
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
	const proc = Bun.spawn(['id', '-u', 'postgres'], { stdout: 'pipe' })
	const uid = Number((await new Response(proc.stdout).text()).trim())
	const gproc = Bun.spawn(['id', '-g', 'postgres'], { stdout: 'pipe' })
	const gid = Number((await new Response(gproc.stdout).text()).trim())
	if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error('O usuário postgres do pacote PostgreSQL não existe.')
	return { uid, gid }
}
