/**
 * Several real portal processes (apps/server/main.ts) on one PostgreSQL database, behind the round-robin front
 * (front.ts), with the Asaas and Evolution stand-ins on sockets: what the cluster tests, demo:cluster and
 * bench:cluster start. The process that imports this runs with DATABASE_URL set (its tables are PostgreSQL's):
 * each cluster gets a fresh database on that server, migrated and loaded with the demo data.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import postgres from 'postgres'
import { type Db, openPostgres } from '../../db/client'
import { DIALECT } from '../../db/dialect'
import { migratePostgres } from '../../db/migrate'
import { seedDemoData } from '../../db/seed'
import { configureDemo, startDemoStandins } from '../../scripts/demo-setup'
import { type Front, startFront } from './front'

const ROOT = resolve(import.meta.dir, '../..')

/** One portal process of the cluster. */
export interface Instance {
	index: number
	url: string
	pid: number
	/** Its log lines (stdout and stderr), parsed when they are JSON. */
	logs: { line: string; json: Record<string, unknown> | null }[]
	/** Whether it still runs. */
	alive(): boolean
	/** Sends it a signal: SIGKILL (kill -9), SIGSTOP and SIGCONT (a machine that freezes and wakes up). */
	signal(name: 'SIGKILL' | 'SIGSTOP' | 'SIGCONT' | 'SIGTERM'): void
}

export interface PortalCluster {
	instances: Instance[]
	front: Front
	/** The database, for a test's own reads. */
	db: Db
	databaseUrl: string
	asaas: ReturnType<typeof startDemoStandins>['asaas']
	evolution: ReturnType<typeof startDemoStandins>['evolution']
	asaasUrl: string
	evolutionUrl: string
	stop(): Promise<void>
}

export interface ClusterOptions {
	/** The PostgreSQL server to create the cluster's database on (a superuser URL). */
	serverUrl: string
	instances?: number
	/** Environment of every instance, over the cluster's own. */
	env?: Record<string, string>
	/** Serve the built site (dist/), as a real deployment does; the tests need the API only. */
	site?: boolean
	frontPort?: number
	/** See front.ts: every webhook delivery to every instance (the tests). */
	fanOutWebhooks?: boolean
	/** Write the instances' log lines to this process's output, prefixed with their number. */
	echoLogs?: boolean
}

export function freePort(): number {
	const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
	const port = probe.port as number
	probe.stop(true)
	return port
}

function withDatabase(url: string, name: string): string {
	const parsed = new URL(url)
	parsed.pathname = `/${name}`
	return parsed.toString()
}

export async function waitReady(url: string, timeoutMs = 60_000) {
	const deadline = Date.now() + timeoutMs
	for (;;) {
		try {
			if ((await fetch(`${url}/api/ready`)).status === 200) return
		} catch {}
		if (Date.now() > deadline) throw new Error(`A instância ${url} não ficou pronta em ${timeoutMs / 1000} s.`)
		await Bun.sleep(200)
	}
}

/**
 * One portal process (apps/server/main.ts) with `env`: its log lines kept (and echoed with its number), or, for a
 * benchmark, not read at all ('ignore').
 */
export function startInstance(index: number, env: Record<string, string>, logging: 'keep' | 'echo' | 'ignore' = 'keep'): Instance {
	const port = Number(env.PORT)
	const output = logging === 'ignore' ? 'ignore' : 'pipe'
	const proc = Bun.spawn([process.execPath, 'apps/server/main.ts'], { cwd: ROOT, env, stdout: output, stderr: output })
	const echo = logging === 'echo'
	const logs: Instance['logs'] = []
	const pump = async (stream: ReadableStream<Uint8Array>) => {
		const decoder = new TextDecoder()
		let rest = ''
		for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
			const lines = (rest + decoder.decode(chunk, { stream: true })).split('\n')
			rest = lines.pop() ?? ''
			for (const line of lines) {
				let json: Record<string, unknown> | null = null
				try {
					json = line.startsWith('{') ? (JSON.parse(line) as Record<string, unknown>) : null
				} catch {}
				logs.push({ line, json })
				if (echo) console.log(`[portal ${index + 1}] ${line}`)
			}
		}
	}
	if (proc.stdout instanceof ReadableStream) void pump(proc.stdout)
	if (proc.stderr instanceof ReadableStream) void pump(proc.stderr)
	return {
		index,
		url: `http://127.0.0.1:${port}`,
		pid: proc.pid,
		logs,
		alive: () => proc.exitCode === null && proc.signalCode === null,
		signal: (name) => proc.kill(name)
	}
}

export async function startPortalCluster(options: ClusterOptions): Promise<PortalCluster> {
	if (DIALECT !== 'postgres') throw new Error('O cluster do portal roda em PostgreSQL: defina DATABASE_URL antes de importar o harness.')
	const count = options.instances ?? 3
	const name = `portal_cluster_${process.pid}_${Date.now().toString(36)}`
	const admin = postgres(options.serverUrl, { max: 1, onnotice: () => {} })
	await admin.unsafe(`create database "${name}"`)
	await admin.end()
	const databaseUrl = withDatabase(options.serverUrl, name)
	// Migrated and loaded before any instance starts: they find it ready (and would migrate it once between them).
	const db = openPostgres(databaseUrl, { max: 4 })
	await migratePostgres(db)
	await seedDemoData(db)

	const standins = startDemoStandins({ asaas: freePort(), evolution: freePort() })
	const ports = Array.from({ length: count }, freePort)
	const front = startFront({
		upstreams: ports.map((p) => `http://127.0.0.1:${p}`),
		port: options.frontPort ?? freePort(),
		hostname: options.frontPort ? '0.0.0.0' : '127.0.0.1',
		fanOutWebhooks: options.fanOutWebhooks
	})
	const frontUrl = options.frontPort ? `http://localhost:${options.frontPort}` : front.url
	const dataRoot = mkdtempSync(join(tmpdir(), 'kportal-cluster-'))
	// One key for every instance: a secret one of them sealed, the others open.
	const secretKey = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex')
	const instances = ports.map((port, index) =>
		startInstance(
			index,
			{
				...(process.env as Record<string, string>),
				NODE_ENV: 'production',
				DATABASE_URL: databaseUrl,
				PORT: String(port),
				HOST: '127.0.0.1',
				DATA_DIR: join(dataRoot, `instance-${index + 1}`),
				DIST_DIR: options.site ? join(ROOT, 'dist') : join(dataRoot, 'no-site'),
				PUBLIC_URL: frontUrl,
				TRUST_PROXY: 'true',
				SECRET_KEY: secretKey,
				ASAAS_SANDBOX_URL: standins.asaasUrl,
				LICENCE_WORKERS: '0',
				DRAIN_SECONDS: '0',
				...options.env
			},
			options.echoLogs ? 'echo' : 'keep'
		)
	)
	await Promise.all(instances.map((i) => waitReady(i.url, 60_000)))
	await configureDemo(frontUrl, standins.evolutionUrl)

	return {
		instances,
		front,
		db,
		databaseUrl,
		asaas: standins.asaas,
		evolution: standins.evolution,
		asaasUrl: standins.asaasUrl,
		evolutionUrl: standins.evolutionUrl,
		async stop() {
			for (const instance of instances) {
				instance.signal('SIGCONT')
				instance.signal('SIGKILL')
			}
			await front.stop()
			await standins.asaas.stop()
			await standins.evolution.stop()
			await (db.$client as unknown as postgres.Sql).end()
			const again = postgres(options.serverUrl, { max: 1, onnotice: () => {} })
			await again.unsafe(`drop database if exists "${name}" with (force)`).catch(() => undefined)
			await again.end()
			rmSync(dataRoot, { recursive: true, force: true })
		}
	}
}
