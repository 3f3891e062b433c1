/** Seeds a benchmark database: `representatives` resellers, `companies` companies, 2 terminals per company. */
import { Database } from 'bun:sqlite'
import { openDb } from '../../db/client'
import { migrateDb } from '../../db/migrate'
import { SEED_CITIES, SEED_KINDS, SEED_NAMES } from '../../db/seed-words'
import { newLicenceKey } from '../../modules/companies'
import { completeCnpj } from '../../modules/core'

export function seedLicensingBench(path: string, counts: { representatives: number; companies: number }) {
	migrateDb(openDb(path))
	const db = new Database(path, { strict: true })
	db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA foreign_keys = OFF')
	const today = new Date()
	const iso = (days: number) => new Date(today.getTime() + days * 86_400_000).toISOString().slice(0, 10)
	const reps: string[] = []
	db.transaction(() => {
		const insert = db.prepare('insert into representatives (nome, cnpj, data) values ($nome, $cnpj, $data)')
		for (let r = 0; r < counts.representatives; r++) {
			const cnpj = completeCnpj(`7${String(r).padStart(11, '0')}`)
			reps.push(cnpj)
			insert.run({ nome: `Representante ${r}`, cnpj, data: '2025-01-01' })
		}
	})()
	const companyInsert = db.prepare(
		`insert into companies (codigo, razao, cnpj, cnpj_representante, cidade, uf, nterminais, terminal_count, serial, validade_licenca, data, bloqueado, bloqueadopdv, bloqueado_kchef, bloqueado_katelie, bloqueado_kprevenda, exibir_aviso)
		 values ($codigo, $razao, $cnpj, $rep, $cidade, 'CE', 3, 2, $serial, $validade, '2025-01-01', $b, 'N', 'N', $b, 'N', $aviso)`
	)
	const terminalInsert = db.prepare('insert into terminals (fk_empresa, nome_computador, mac, data) values ($empresa, $nome, $mac, $data)')
	const keys: { cnpj: string; chave: string; mac: string }[] = []
	const BATCH = 10_000
	for (let start = 0; start < counts.companies; start += BATCH) {
		db.transaction(() => {
			for (let i = start; i < Math.min(start + BATCH, counts.companies); i++) {
				const codigo = i + 1
				const cnpj = completeCnpj(`8${String(i).padStart(11, '0')}`)
				const serial = newLicenceKey()
				companyInsert.run({
					codigo,
					razao: `${SEED_KINDS[i % SEED_KINDS.length]} ${SEED_NAMES[(i * 7) % SEED_NAMES.length]} ${i}`,
					cnpj,
					rep: reps[i % reps.length],
					cidade: SEED_CITIES[i % SEED_CITIES.length][0],
					serial,
					validade: i % 11 === 0 ? null : iso(-200 + (i % 600)),
					b: i % 13 === 0 ? 'S' : 'N',
					aviso: i % 5 === 0 ? 'S' : 'N'
				})
				for (let t = 0; t < 2; t++) {
					const mac = (0x100000000000 + codigo * 2 + t).toString(16).toUpperCase().padStart(12, '0')
					terminalInsert.run({ empresa: codigo, nome: `CAIXA-${t + 1}`, mac, data: '2025-06-01T12:00:00.000Z' })
					if (i % 13 !== 0 && i % 11 !== 0 && t === 0) keys.push({ cnpj, chave: serial, mac })
				}
			}
		})()
	}
	db.exec('ANALYZE')
	db.close()
	return { reps, keys }
}
