/**
 * Demo data so the portal can be tried at once: a manager, three representatives (one with an
 * alphanumeric CNPJ), companies in every licence state, terminals and credit batches.
 * Usage: bun run seed:demo   (uses DATA_DIR like the server; refuses to run twice)
 */
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { eq } from 'drizzle-orm'
import { hashPassword } from '../modules/auth'
import { rebuildCreditBalances } from '../modules/credits'
import { completeCnpj, DAY, isoDateInSaoPaulo, systemClock } from '../modules/core'
import { databaseOwnerOnly } from '../modules/core/server'
import { type Db, openDb } from './client'
import { migrateDb } from './migrate'
import { writeTransaction } from './transaction'
import { SEED_CITIES, SEED_KINDS, SEED_NAMES } from './seed-words'
import { newLicenceKey } from '../modules/companies'
import { activities, companies, credits, downloads, generalNotices, individualNotices, representatives, terminals, users } from './schema'

export const DEMO_PASSWORD = 'demo1234'
export const DEMO_ACCOUNTS = {
	administrador: { cnpj: completeCnpj('990000000001'), nome: 'Ana Administradora' },
	gerente: { cnpj: completeCnpj('990000000002'), nome: 'Gabriel Gerente' },
	representante: { cnpj: completeCnpj('990000000003'), nome: 'Rafael Representações' }
}

// The demo's own cities, kinds and names: the first of the seeds' words, so the demo companies keep their names.
const CITIES = SEED_CITIES.slice(0, 6)
const KINDS = SEED_KINDS.slice(0, 8)
const NAMES = SEED_NAMES.slice(0, 10)

/** (85) 9XXXX-XXXX, a different number per company. */
function demoMobile(n: number) {
	const digits = String(81_000_000 + n * 7_919)
	return `(85) 9${digits.slice(0, 4)}-${digits.slice(4)}`
}

export async function seedDemo(dbPath: string) {
	const db = openDb(dbPath)
	// Owner-only, as the server keeps it: the WAL and SHM SQLite creates later take the database file's mode.
	databaseOwnerOnly(dbPath)
	migrateDb(db)
	const result = await seedDemoData(db)
	databaseOwnerOnly(dbPath)
	return result
}

/** The demo data on a migrated database of either kind (PostgreSQL's for demo:cluster); refuses to run twice. */
export async function seedDemoData(db: Db) {
	if ((await db.select().from(users).where(eq(users.cnpj, DEMO_ACCOUNTS.gerente.cnpj)))[0]) {
		return { created: false as const }
	}
	const now = systemClock.now()
	const iso = now.toISOString()
	const day = (offset: number) => isoDateInSaoPaulo(new Date(now.getTime() + offset * DAY))
	const hash = await hashPassword(DEMO_PASSWORD)

	await writeTransaction(db, async (tx) => {
		const user = async (cnpj: string, nome: string, tipo: 'administrador' | 'gerente' | 'representante', email: string) =>
			(await tx.insert(users).values({ cnpj, nome, tipo, email, senha_hash: hash, created_at: iso, updated_at: iso }).returning())[0]

		await user(DEMO_ACCOUNTS.administrador.cnpj, DEMO_ACCOUNTS.administrador.nome, 'administrador', 'ana@ksistemas.com.br')
		const gerente = await user(DEMO_ACCOUNTS.gerente.cnpj, DEMO_ACCOUNTS.gerente.nome, 'gerente', 'gabriel@ksistemas.com.br')

		const reps = [
			{ ...DEMO_ACCOUNTS.representante, cidade: 'Fortaleza', uf: 'CE', gerente: gerente.id, email: 'rafael@representacoes.com.br' },
			{
				cnpj: completeCnpj('990000000004'),
				nome: 'Sul Revendas de Software',
				cidade: 'Curitiba',
				uf: 'PR',
				gerente: gerente.id,
				email: 'contato@sulrevendas.com.br'
			},
			{
				cnpj: completeCnpj('99ABC0000005'),
				nome: 'Norte Sistemas e Automação',
				cidade: 'Belém',
				uf: 'PA',
				gerente: null,
				email: 'vendas@nortesistemas.com.br'
			}
		]
		for (const rep of reps) {
			await user(rep.cnpj, rep.nome, 'representante', rep.email)
			await tx.insert(representatives).values({
				nome: rep.nome,
				cnpj: rep.cnpj,
				cidade: rep.cidade,
				uf: rep.uf,
				email: rep.email,
				fone: '(85) 3222-1100',
				whatsapp: '5585999990000',
				gerente_id: rep.gerente,
				data: day(-400)
			})
		}

		// Licence states, in turn: active, expiring soon, expired, blocked, no licence, trust release, maintenance.
		const states = ['ativa', 'expirando', 'expirada', 'bloqueada', 'sem_licenca', 'confianca', 'manutencao'] as const
		let n = 0
		for (const [repIndex, rep] of reps.entries()) {
			// The third representative starts with no credits at all, so a journey can count from zero.
			const hasCredits = repIndex < 2
			for (let i = 0; i < 14; i++, n++) {
				const state = states[n % states.length]
				const [cidade, uf] = CITIES[n % CITIES.length]
				const validade =
					state === 'ativa' || state === 'manutencao' || state === 'bloqueada'
						? day(20 + ((n * 7) % 300))
						: state === 'expirando'
							? day(1 + (n % 5))
							: state === 'expirada' || state === 'confianca'
								? day(-(1 + (n % 40)))
								: null
				const blocked = state === 'bloqueada' ? 'S' : 'N'
				const company = (
					await tx
						.insert(companies)
						.values({
							razao: `${KINDS[n % KINDS.length]} ${NAMES[n % NAMES.length]} ${n + 1} Ltda`,
							cnpj: completeCnpj(String(880000000000 + n * 37)),
							cnpj_representante: rep.cnpj,
							endereco: `Rua ${NAMES[(n + 3) % NAMES.length]}, ${100 + n}`,
							bairro: 'Centro',
							cidade,
							uf,
							cep: '60000-000',
							// Each client its own mobile (WhatsApp notifications), one in ten none.
							fone: n % 10 === 7 ? null : demoMobile(n),
							email: `contato${n + 1}@cliente.com.br`,
							nterminais: 1 + (n % 4),
							serial: newLicenceKey(),
							validade_licenca: validade,
							validade_certificado: state === 'sem_licenca' ? null : day(60 + (n % 200)),
							valor_mensal_centavos: 9900 + (n % 5) * 2500,
							dia_venc: 1 + (n % 28),
							data: day(-300 + n),
							manutencao: state === 'manutencao' ? 'S' : 'N',
							exibir_aviso: n % 5 === 0 ? 'S' : 'N',
							avisos: n % 5 === 0 ? 'Sua licença vence em breve. Fale com seu representante.' : null,
							liberacao_confianca_data: state === 'confianca' ? iso : null,
							liberacao_confianca_expira: state === 'confianca' ? new Date(now.getTime() + DAY).toISOString() : null,
							bloqueado: blocked,
							bloqueadopdv: blocked,
							// A few companies have one system blocked (not paid for); "bloqueada" ones have all five.
							bloqueado_kchef: state === 'bloqueada' || n % 9 === 4 ? 'S' : 'N',
							bloqueado_katelie: state === 'bloqueada' || n % 11 === 5 ? 'S' : 'N',
							bloqueado_kprevenda: state === 'bloqueada' || n % 13 === 6 ? 'S' : 'N'
						})
						.returning()
				)[0]
				const terminalCount = Math.min(company.nterminais, n % 3)
				for (let t = 0; t < terminalCount; t++) {
					await tx.insert(terminals).values({
						fk_empresa: company.codigo,
						nome_computador: `CAIXA-${String(t + 1).padStart(2, '0')}`,
						mac: (0xa0b1c2000000 + n * 16 + t).toString(16).toUpperCase().padStart(12, '0'),
						data: new Date(now.getTime() - (n + t) * DAY).toISOString()
					})
				}
				await tx.update(companies).set({ terminal_count: terminalCount }).where(eq(companies.codigo, company.codigo))

				if (hasCredits && i < 3) {
					await tx.insert(credits).values({
						valor: 2 + i,
						representante_id: rep.cnpj,
						fk_empresa: company.codigo,
						empresa_razao: company.razao,
						sistema: 'K-PDV',
						ativo: 1,
						data_compra: day(-60 + i),
						data_uso: day(-30 + i),
						valor_unitario_centavos: 5000,
						origem: 'transferencia'
					})
				}
			}
			for (const [valor, ago] of hasCredits
				? ([
						[10, 90],
						[25, 40],
						[5, 3]
					] as const)
				: []) {
				await tx
					.insert(credits)
					.values({ valor, representante_id: rep.cnpj, data_compra: day(-ago), valor_unitario_centavos: 5000, origem: 'admin' })
			}
		}
		await tx.insert(generalNotices).values([
			{
				titulo: 'Nova versão do K-PDV',
				texto: 'A versão 5.2 do K-PDV está disponível em Downloads, com emissão de NFC-e mais rápida.',
				urgente: 0,
				ativo: 1,
				data: day(-2),
				created_at: iso,
				updated_at: iso
			},
			{
				titulo: 'Manutenção programada',
				texto: 'O portal ficará indisponível no domingo das 2h às 4h para manutenção.',
				urgente: 1,
				ativo: 1,
				data: day(-1),
				created_at: iso,
				updated_at: iso
			}
		])
		await tx.insert(individualNotices).values({
			representante_id: reps[0].cnpj,
			titulo: 'Meta do mês',
			texto: 'Faltam 5 renovações para a meta de novembro. Bom trabalho!',
			urgente: 0,
			ativo: 1,
			data: day(-3),
			created_at: iso,
			updated_at: iso
		})
		await tx.insert(downloads).values([
			{
				titulo: 'K-PDV 5.2 — instalador completo',
				link: 'https://downloads.ksistemas.com.br/kpdv/kpdv-5.2-setup.exe',
				ativo: 1,
				data: new Date(now.getTime() - 2 * DAY).toISOString()
			},
			{
				titulo: 'K-CHEF 3.8 — atualização',
				link: 'https://downloads.ksistemas.com.br/kchef/kchef-3.8-update.exe',
				ativo: 1,
				data: new Date(now.getTime() - 20 * DAY).toISOString()
			},
			{
				titulo: 'K-RETA 2.1 (versão antiga)',
				link: 'https://downloads.ksistemas.com.br/kreta/kreta-2.1.exe',
				ativo: 0,
				data: new Date(now.getTime() - 200 * DAY).toISOString()
			}
		])
		await tx.insert(activities).values({
			created_at: iso,
			type: 'info',
			icon: 'Building',
			title: 'Dados de demonstração carregados',
			subtitle: `${n} empresas, ${reps.length} representantes`
		})
	})
	await rebuildCreditBalances(db)
	return { created: true as const }
}

if (import.meta.main) {
	// What this command writes is for the portal's user only, as the server's own files are.
	process.umask(0o077)
	const dataDir = resolve(process.env.DATA_DIR ?? './data')
	mkdirSync(dataDir, { recursive: true, mode: 0o700 })
	const result = await seedDemo(join(dataDir, 'portal.sqlite'))
	if (!result.created) {
		console.log('Os dados de demonstração já foram carregados neste banco.')
	} else {
		console.log('Dados de demonstração carregados. Contas (senha de todas: demo1234):')
		for (const [tipo, account] of Object.entries(DEMO_ACCOUNTS)) console.log(`  ${tipo.padEnd(14)} CNPJ ${account.cnpj}  ${account.nome}`)
		console.log('  representante  CNPJ 99ABC000000536  Norte Sistemas e Automação (sem créditos)')
	}
}
