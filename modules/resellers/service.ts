import { constraintViolation } from '../../db/errors'
import { type SQL, type SQLWrapper, and, asc, eq, or, sql } from 'drizzle-orm'
import { alias } from '../../db/columns'
import type { Db, DbOrTx } from '../../db/client'
import { logActivity } from '../activity'
import { type SessionUser, invalidateUserSessions, users } from '../auth'
import { type Clock, can, formatBrDate, csvFilename, formatCnpj, formatPhone, normalizeCnpj, todayIso } from '../core'
import {
	type CsvColumn,
	badRequest,
	conflict,
	forbidden,
	contains,
	csvColumnsResponse,
	notFound,
	writeTransaction,
	sortedBy
} from '../core/server'
import {
	API_SETTINGS_FIELDS,
	type ManagerView,
	type RepresentativeCreate,
	type RepresentativeListQuery,
	type RepresentativeUpdate,
	type RepresentativeView
} from './model'
import { representatives } from './schema'

export const RESELLER_MESSAGES = {
	notFound: 'Representante não encontrado.',
	duplicateCnpj: 'Já existe um representante com este CNPJ.',
	duplicateUserCnpj: 'Já existe um usuário com este CNPJ.',
	onlyAdminChoosesManager: 'Apenas administradores podem escolher o gerente do representante.',
	onlyAdminBindsInstance:
		'Apenas administradores vinculam uma instância do WhatsApp (Evolution) a um representante: peça ao administrador.',
	instanceTaken: 'Esta instância do WhatsApp (Evolution) já está vinculada a outro representante.',
	invalidManager: 'Gerente inválido: escolha um usuário ativo do tipo gerente.',
	cnpjInUse: 'Não é possível alterar o CNPJ: o representante possui empresas ou créditos vinculados.',
	hasLogin: 'Não é possível excluir: o representante possui um usuário de acesso. Exclua o usuário em Usuários antes.',
	hasRecords:
		'Não é possível excluir: o representante possui registros financeiros (compras de créditos, carnês ou configuração do Asaas).',
	hasData: (empresas: number, lotes: number) =>
		`Não é possível excluir: o representante possui ${empresas} empresa(s) e ${lotes} lote(s) de créditos vinculados. Transfira-os para outro representante antes.`
}

type Person = Pick<SessionUser, 'id' | 'cnpj' | 'tipo'>

/**
 * Whose data a user may see and change: every representative (administrador), the representatives a gerente
 * manages, or the representante's own CNPJ. The one definition of that rule, rendered three ways.
 */
export interface RepresentativeScope {
	/** True for an administrador: every representative. */
	readonly all: boolean
	/** The CNPJs in scope, or null for every representative (read from the database on first use). */
	cnpjs(): Promise<readonly string[] | null>
	includes(cnpj: string): Promise<boolean>
	/** The same rule as a SQL condition on a column holding a representative's CNPJ. */
	on(column: SQLWrapper): SQL
}

export function representativeScope(db: DbOrTx, user: Person): RepresentativeScope {
	if (user.tipo === 'administrador') return { all: true, cnpjs: async () => null, includes: async () => true, on: () => sql`1 = 1` }
	if (user.tipo === 'representante') {
		return {
			all: false,
			cnpjs: async () => [user.cnpj],
			includes: async (cnpj) => cnpj === user.cnpj,
			on: (column) => sql`${column} = ${user.cnpj}`
		}
	}
	let managed: string[] | null = null
	const list = async () =>
		(managed ??= (await db.select({ cnpj: representatives.cnpj }).from(representatives).where(eq(representatives.gerente_id, user.id))).map(
			(r) => r.cnpj
		))
	return {
		all: false,
		cnpjs: list,
		includes: async (cnpj) => (await list()).includes(cnpj),
		// A subquery, not the list: a gerente may manage thousands of representatives.
		on: (column) =>
			sql`${column} in (select ${representatives.cnpj} from ${representatives} where ${representatives.gerente_id} = ${user.id})`
	}
}

/**
 * What other modules hold for each representative. Companies and credits sit above this module (they ask it
 * for the scope), so the composition root hands their counters in.
 */
export interface RepresentativeHoldings {
	empresas(db: DbOrTx, cnpjs: string[]): Promise<Map<string, number>>
	/** The company count of the representative in `cnpj`, as SQL (the list sorts by it). */
	empresasSql(cnpj: SQLWrapper): SQL
	lotes(db: DbOrTx, cnpjs: string[]): Promise<Map<string, number>>
}

/** A representante signs in with the CNPJ of its representative record: create a minimal one when none exists. */
export async function ensureRepresentativeRecord(
	tx: DbOrTx,
	clock: Clock,
	user: { cnpj: string; nome: string; email: string | null }
): Promise<boolean> {
	const existing = (await tx.select({ codigo: representatives.codigo }).from(representatives).where(eq(representatives.cnpj, user.cnpj)))[0]
	if (existing) return false
	await tx.insert(representatives).values({ cnpj: user.cnpj, nome: user.nome, email: user.email, data: todayIso(clock) })
	return true
}

export async function findRepresentativeByCnpj(db: DbOrTx, cnpj: string) {
	return (await db.select().from(representatives).where(eq(representatives.cnpj, cnpj)))[0] ?? null
}

const gerente = alias(users, 'gerente')

/** Every field of the API but the company count in one statement; the manager's name comes by a join. */
function selectViews(db: DbOrTx) {
	return db
		.select({
			codigo: representatives.codigo,
			nome: representatives.nome,
			cnpj: representatives.cnpj,
			endereco: representatives.endereco,
			bairro: representatives.bairro,
			cidade: representatives.cidade,
			uf: representatives.uf,
			cep: representatives.cep,
			fone: representatives.fone,
			whatsapp: representatives.whatsapp,
			email: representatives.email,
			gerente_id: representatives.gerente_id,
			gerente_nome: gerente.nome,
			plink: representatives.plink,
			ativar_api_asaas: representatives.ativar_api_asaas,
			evo_instancia: representatives.evo_instancia,
			data: representatives.data
		})
		.from(representatives)
		.leftJoin(gerente, eq(gerente.id, representatives.gerente_id))
}

type ViewRow = Awaited<ReturnType<ReturnType<typeof selectViews>['all']>>[number]

/** The rows as the API shows them, with each one's company count (one query for the whole list). */
async function toViews(db: DbOrTx, holdings: RepresentativeHoldings, rows: ViewRow[]): Promise<RepresentativeView[]> {
	const empresas =
		rows.length > 0
			? await holdings.empresas(
					db,
					rows.map((r) => r.cnpj)
				)
			: new Map<string, number>()
	return rows.map(({ gerente_nome, ...row }) => ({
		...row,
		nempresas: empresas.get(row.cnpj) ?? 0,
		gerente: gerente_nome == null ? null : { nome: gerente_nome }
	}))
}

/** The representatives the user may see, in the chosen order; `search` matches name, CNPJ (with or without mask) or city. */
export async function listRepresentatives(
	db: DbOrTx,
	holdings: RepresentativeHoldings,
	user: SessionUser,
	query: RepresentativeListQuery = { search: '', sort: 'nome', order: 'asc' }
): Promise<RepresentativeView[]> {
	const conditions: (SQL | undefined)[] = [representativeScope(db, user).on(representatives.cnpj)]
	const search = query.search
	if (search) {
		const matches: SQL[] = [
			contains(representatives.nome, search),
			contains(representatives.cidade, search),
			contains(representatives.cnpj, search)
		]
		const bare = normalizeCnpj(search)
		if (bare && bare !== search) matches.push(contains(representatives.cnpj, bare))
		conditions.push(or(...matches))
	}
	const column = query.sort === 'nempresas' ? holdings.empresasSql(representatives.cnpj) : representatives[query.sort]
	const rows = await selectViews(db)
		.where(and(...conditions))
		.orderBy(sortedBy(column, query.order), sortedBy(representatives.codigo, query.order))
	return toViews(db, holdings, rows)
}

const REPRESENTATIVE_CSV_COLUMNS: CsvColumn<RepresentativeView>[] = [
	['Nome', (r) => r.nome],
	['CNPJ', (r) => formatCnpj(r.cnpj)],
	['E-mail', (r) => r.email],
	['Telefone', (r) => (r.fone ? formatPhone(r.fone) : '')],
	['WhatsApp', (r) => (r.whatsapp ? formatPhone(r.whatsapp) : '')],
	['Cidade', (r) => r.cidade],
	['UF', (r) => r.uf],
	['Gerente', (r) => r.gerente?.nome ?? ''],
	['Empresas', (r) => r.nempresas],
	['API Asaas', (r) => (r.ativar_api_asaas === 'S' ? 'Ativa' : 'Inativa')],
	['Cadastro', (r) => formatBrDate(r.data)]
]

/** GET /api/representatives/export: the filtered list, in its order, as a pt-BR spreadsheet. */
export async function exportRepresentatives(
	db: DbOrTx,
	holdings: RepresentativeHoldings,
	clock: Clock,
	user: SessionUser,
	query: RepresentativeListQuery
): Promise<Response> {
	const rows = await listRepresentatives(db, holdings, user, query)
	return csvColumnsResponse(csvFilename('representantes', todayIso(clock)), REPRESENTATIVE_CSV_COLUMNS, rows)
}

async function getView(db: DbOrTx, holdings: RepresentativeHoldings, codigo: number): Promise<RepresentativeView> {
	const row = (await selectViews(db).where(eq(representatives.codigo, codigo)))[0]
	if (!row) throw notFound(RESELLER_MESSAGES.notFound)
	return (await toViews(db, holdings, [row]))[0]
}

/** The signed-in representative's own record (GET /api/representatives/current). */
export async function currentRepresentative(db: DbOrTx, holdings: RepresentativeHoldings, user: SessionUser): Promise<RepresentativeView> {
	const row = (await selectViews(db).where(eq(representatives.cnpj, user.cnpj)))[0]
	if (!row) throw notFound('Nenhum representante cadastrado com o CNPJ deste usuário.')
	return (await toViews(db, holdings, [row]))[0]
}

/** A representative within the user's scope; anything else is "not found", so its existence is not revealed. */
async function findScoped(db: DbOrTx, user: SessionUser, codigo: number) {
	const row = (
		await db
			.select()
			.from(representatives)
			.where(and(eq(representatives.codigo, codigo), representativeScope(db, user).on(representatives.cnpj)))
	)[0]
	if (!row) throw notFound(RESELLER_MESSAGES.notFound)
	return row
}

/** Active users of type gerente, for the manager select (GET /api/managers). */
export async function listManagers(db: DbOrTx): Promise<ManagerView[]> {
	return await db
		.select({ id: users.id, nome: users.nome })
		.from(users)
		.where(and(eq(users.tipo, 'gerente'), eq(users.ativo, true)))
		.orderBy(asc(users.nome), asc(users.id))
}

async function assertManager(db: DbOrTx, gerenteId: number) {
	const found = (
		await db
			.select({ id: users.id })
			.from(users)
			.where(and(eq(users.id, gerenteId), eq(users.tipo, 'gerente'), eq(users.ativo, true)))
	)[0]
	if (!found) throw badRequest(RESELLER_MESSAGES.invalidManager)
}

/**
 * Binding a WhatsApp instance to representative `codigo` (null: a new one): only an administrador binds one, and one
 * instance belongs to one representative at most (compared without case), since whoever holds it sends as its number.
 * Nothing to check when the instance does not change.
 */
async function assertInstanceBinding(
	tx: DbOrTx,
	user: SessionUser,
	instance: string | null,
	current: { codigo: number; evo_instancia: string | null } | null
) {
	if ((instance ?? null) === (current?.evo_instancia ?? null)) return
	if (!can(user.tipo, 'representatives.bindInstance')) throw forbidden(RESELLER_MESSAGES.onlyAdminBindsInstance)
	if (instance === null) return
	const holder = (
		await tx
			.select({ codigo: representatives.codigo })
			.from(representatives)
			.where(sql`lower(${representatives.evo_instancia}) = lower(${instance})`)
	).find((r) => r.codigo !== current?.codigo)
	if (holder) throw conflict(RESELLER_MESSAGES.instanceTaken, 'INSTANCE_TAKEN')
}

/**
 * Creates a representative. Only an administrador chooses the manager and binds a WhatsApp instance; a gerente's new
 * representative is theirs.
 */
export async function createRepresentative(
	db: Db,
	holdings: RepresentativeHoldings,
	clock: Clock,
	user: SessionUser,
	input: RepresentativeCreate
): Promise<RepresentativeView> {
	let gerenteId = input.gerente_id ?? null
	if (!can(user.tipo, 'representatives.manage')) throw forbidden()
	if (!can(user.tipo, 'representatives.chooseManager')) {
		if (gerenteId !== null && gerenteId !== user.id) throw forbidden(RESELLER_MESSAGES.onlyAdminChoosesManager)
		gerenteId = user.id
	}
	const codigo = await writeTransaction(db, async (tx) => {
		if (gerenteId !== null && can(user.tipo, 'representatives.chooseManager')) await assertManager(tx, gerenteId)
		await assertInstanceBinding(tx, user, input.evo_instancia ?? null, null)
		if (await findRepresentativeByCnpj(tx, input.cnpj)) throw conflict(RESELLER_MESSAGES.duplicateCnpj, 'DUPLICATE_CNPJ')
		const created = (
			await tx
				.insert(representatives)
				.values({ ...input, gerente_id: gerenteId, ativar_api_asaas: input.ativar_api_asaas ?? 'N', data: todayIso(clock) })
				.returning({ codigo: representatives.codigo })
		)[0]
		await logActivity(
			tx,
			clock,
			'representatives.created',
			{ nome: input.nome },
			{ actor: user, entityId: created.codigo, representanteCnpj: input.cnpj }
		)
		return created.codigo
	})
	return getView(db, holdings, codigo)
}

async function countLinked(db: DbOrTx, holdings: RepresentativeHoldings, cnpj: string) {
	return {
		empresas: (await holdings.empresas(db, [cnpj])).get(cnpj) ?? 0,
		lotes: (await holdings.lotes(db, [cnpj])).get(cnpj) ?? 0
	}
}

async function loginOf(db: DbOrTx, cnpj: string) {
	return (
		(
			await db
				.select()
				.from(users)
				.where(and(eq(users.cnpj, cnpj), eq(users.tipo, 'representante')))
		)[0] ?? null
	)
}

/**
 * Updates a representative within the user's scope. A representante changes only their API settings
 * (other fields are ignored); a gerente cannot change the manager; only an administrador changes the WhatsApp instance. A new CNPJ is refused while companies
 * or credits point at the old one; the representative's login follows the new CNPJ.
 */
export async function updateRepresentative(
	db: Db,
	holdings: RepresentativeHoldings,
	clock: Clock,
	user: SessionUser,
	codigo: number,
	input: RepresentativeUpdate
): Promise<RepresentativeView> {
	await writeTransaction(db, async (tx) => {
		const current = await findScoped(tx, user, codigo)
		if ('evo_instancia' in input) await assertInstanceBinding(tx, user, input.evo_instancia ?? null, current)
		let changes: RepresentativeUpdate = { ...input }
		if (!can(user.tipo, 'representatives.manage')) {
			changes = Object.fromEntries(API_SETTINGS_FIELDS.filter((k) => k in input).map((k) => [k, input[k]]))
		} else if (!can(user.tipo, 'representatives.chooseManager')) {
			if ('gerente_id' in changes && changes.gerente_id !== current.gerente_id) throw forbidden(RESELLER_MESSAGES.onlyAdminChoosesManager)
			delete changes.gerente_id
		} else if (changes.gerente_id != null && changes.gerente_id !== current.gerente_id) {
			await assertManager(tx, changes.gerente_id)
		}

		if (changes.cnpj !== undefined && changes.cnpj !== current.cnpj) {
			if (await findRepresentativeByCnpj(tx, changes.cnpj)) throw conflict(RESELLER_MESSAGES.duplicateCnpj, 'DUPLICATE_CNPJ')
			const linked = await countLinked(tx, holdings, current.cnpj)
			if (linked.empresas > 0 || linked.lotes > 0) throw conflict(RESELLER_MESSAGES.cnpjInUse, 'REPRESENTATIVE_IN_USE')
			const login = await loginOf(tx, current.cnpj)
			if (login) {
				if ((await tx.select({ id: users.id }).from(users).where(eq(users.cnpj, changes.cnpj)))[0]) {
					throw conflict(RESELLER_MESSAGES.duplicateUserCnpj, 'DUPLICATE_CNPJ')
				}
				await tx.update(users).set({ cnpj: changes.cnpj, updated_at: clock.now().toISOString() }).where(eq(users.id, login.id))
				await invalidateUserSessions(tx, login.id)
			}
		} else {
			delete changes.cnpj
		}

		if (Object.keys(changes).length > 0) {
			await tx.update(representatives).set(changes).where(eq(representatives.codigo, codigo))
		}
		const own = !can(user.tipo, 'representatives.manage')
		await logActivity(
			tx,
			clock,
			own ? 'representatives.api-settings-updated' : 'representatives.updated',
			{ nome: changes.nome ?? current.nome },
			{ actor: user, entityId: codigo, representanteCnpj: changes.cnpj ?? current.cnpj }
		)
	})
	return getView(db, holdings, codigo)
}

/** Deletes a representative that owns nothing: companies, credits or a login refuse it with 409. */
export async function deleteRepresentative(db: Db, holdings: RepresentativeHoldings, clock: Clock, user: SessionUser, codigo: number) {
	await writeTransaction(db, async (tx) => {
		const current = await findScoped(tx, user, codigo)
		const linked = await countLinked(tx, holdings, current.cnpj)
		if (linked.empresas > 0 || linked.lotes > 0) {
			throw conflict(RESELLER_MESSAGES.hasData(linked.empresas, linked.lotes), 'REPRESENTATIVE_IN_USE')
		}
		if (await loginOf(tx, current.cnpj)) throw conflict(RESELLER_MESSAGES.hasLogin, 'REPRESENTATIVE_HAS_LOGIN')
		try {
			await tx.delete(representatives).where(eq(representatives.codigo, codigo))
		} catch (error) {
			// Billing and purchases keep the representative's CNPJ: the database refuses to orphan them.
			if (constraintViolation(error) === 'foreign_key') throw conflict(RESELLER_MESSAGES.hasRecords, 'REPRESENTATIVE_IN_USE')
			throw error
		}
		await logActivity(
			tx,
			clock,
			'representatives.deleted',
			{ nome: current.nome },
			{ actor: user, entityId: codigo, representanteCnpj: current.cnpj }
		)
	})
}

/** Switches a representative's Asaas integration (ativar_api_asaas), as their financial settings screen does. */
export async function setAsaasActivation(db: DbOrTx, cnpj: string, on: boolean) {
	await db
		.update(representatives)
		.set({ ativar_api_asaas: on ? 'S' : 'N' })
		.where(eq(representatives.cnpj, cnpj))
}
