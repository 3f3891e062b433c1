/**
 * The data of bench:cluster, on SQLite (argv: folder): the licence benchmark's companies and terminals
 * (seed-licensing.ts), and signed-in work for the mixed load: representatives with a login and credits. Writes
 * folder/seed.sqlite (copied to PostgreSQL by the benchmark), folder/keys.json (licence checks) and folder/users.json.
 */
import { join } from 'node:path'
import { openDb } from '../../db/client'
import { hashPassword, users } from '../../modules/auth'
import { rebuildCreditBalances, credits } from '../../modules/credits'
import { seedLicensingBench } from './seed-licensing'

export const BENCH_PASSWORD = 'bench-senha-123'
const [folder, companies = '20000', sessions = '16'] = process.argv.slice(2)
const path = join(folder, 'seed.sqlite')
const { reps, keys } = seedLicensingBench(path, { representatives: 200, companies: Number(companies) })
const db = openDb(path)
const now = new Date().toISOString()
const hash = await hashPassword(BENCH_PASSWORD)
const signedIn = reps.slice(0, Number(sessions))
await db.insert(users).values(
	signedIn.map((cnpj, i) => ({
		cnpj,
		nome: `Representante ${i}`,
		tipo: 'representante' as const,
		senha_hash: hash,
		created_at: now,
		updated_at: now
	}))
)
// Credits enough for every transfer the load makes.
await db.insert(credits).values(
	signedIn.map((cnpj) => ({
		valor: 1_000_000,
		valor_original: 1_000_000,
		representante_id: cnpj,
		ativo: 1,
		data_compra: now.slice(0, 10),
		valor_unitario_centavos: 5000,
		origem: 'admin' as const
	}))
)
await rebuildCreditBalances(db)
db.$client.close()
// Each signed-in representative's companies (seed-licensing gives company i to representative i mod 200).
const companiesOf = (r: number) => Array.from({ length: Math.floor(Number(companies) / reps.length) }, (_, k) => r + 1 + k * reps.length)
await Bun.write(join(folder, 'keys.json'), JSON.stringify(keys))
await Bun.write(
	join(folder, 'users.json'),
	JSON.stringify(signedIn.map((cnpj, r) => ({ cnpj, senha: BENCH_PASSWORD, empresas: companiesOf(r) })))
)
console.log('seeded')
