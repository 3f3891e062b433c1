import { and, asc, eq, or, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'
import type { Db, DbOrTx } from '../../db/client'
import { companies, credits, users } from '../../db/schema'
import { logActivity } from '../activity'
import { invalidateUserSessions, type SessionUser } from '../auth'
import { type Clock, normalizeCnpj, todayIso } from '../core'
import { badRequest, conflict, forbidden, contains, notFound } from '../core/server'
import { API_SETTINGS_FIELDS, type ManagerView, type RepresentativeCreate, type RepresentativeUpdate, type RepresentativeView } from './model'
import { representatives } from './schema'

export const RESELLER_MESSAGES = {
	notFound: 'Representante não encontrado.',
	duplicateCnpj: 'Já existe um representante com este CNPJ.',
	duplicateUserCnpj: 'Já existe um usuário com este CNPJ.',
	onlyAdminChoosesManager: 'Apenas administradores podem escolher o gerente do representante.',
	invalidManager: 'Gerente inválido: escolha um usuário ativo do tipo gerente.',
	cnpjInUse: 'Não é possível alterar o CNPJ: o representante possui empresas ou créditos vinculados.',
	hasLogin: 'Não é possível excluir: o representante possui um usuário de acesso. Exclua o usuário em Usuários antes.',
	hasData: (empresas: number, lotes: number) =>
		`Não é possível excluir: o representante possui ${empresas} empresa(s) e ${lotes} lote(s) de créditos vinculados. Transfira-os para outro representante antes.`
}

/** CNPJs of the representatives a manager manages. */
export function managedRepresentativeCnpjs(db: DbOrTx, gerenteId: number): string[] {
	return db
		.select({ cnpj: representatives.cnpj })
		.from(representatives)
		.where(eq(representatives.gerente_id, gerenteId))
		.all()
		.map((r) => r.cnpj)
}

type Person = Pick<SessionUser, 'id' | 'cnpj' | 'tipo'>

/**
 * The one rule of whose data a user may see and change: null = every representative (administrador),
 * otherwise these CNPJs (a gerente's representatives, or the representante's own).
 */
export type RepresentativeScope = string[] | null

export function representativeScope(db: DbOrTx, user: Person): RepresentativeScope {
	if (user.tipo === 'administrador') return null
	if (user.tipo === 'gerente') return managedRepresentativeCnpjs(db, user.id)
	return [user.cnpj]
}

export function inRepresentativeScope(scope: RepresentativeScope, cnpj: string): boolean {
	return scope === null || scope.includes(cnpj)
}

/** True when the user may act for this representative. */
export function canActFor(db: DbOrTx, user: Person, representanteCnpj: string): boolean {
	return inRepresentativeScope(representativeScope(db, user), representanteCnpj)
}

/** The same rule as a SQL condition on any column holding a representative's CNPJ. */
export function representativeCondition(user: Person, column: SQL): SQL {
	if (user.tipo === 'administrador') return sql`1 = 1`
	if (user.tipo === 'gerente') return sql`${column} in (select cnpj from representatives where gerente_id = ${user.id})`
	return sql`${column} = ${user.cnpj}`
}

export function findRepresentativeByCnpj(db: DbOrTx, cnpj: string) {
	return db.select().from(representatives).where(eq(representatives.cnpj, cnpj)).get() ?? null
}

/** What a user may see: administrador all, gerente their representatives, representante their own record. */
function scopeCondition(user: SessionUser): SQL | undefined {
	if (user.tipo === 'administrador') return undefined
	if (user.tipo === 'gerente') return eq(representatives.gerente_id, user.id)
	return eq(representatives.cnpj, user.cnpj)
}

const gerente = alias(users, 'gerente')

/** Every field of the API in one statement: the manager's name by a join, the company count by a correlated count. */
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
			nempresas: sql<number>`(select count(*) from ${companies} where ${companies.cnpj_representante} = ${representatives.cnpj})`.mapWith(Number),
			data: representatives.data
		})
		.from(representatives)
		.leftJoin(gerente, eq(gerente.id, representatives.gerente_id))
}

type ViewRow = Awaited<ReturnType<ReturnType<typeof selectViews>['all']>>[number]

function toView({ gerente_nome, ...row }: ViewRow): RepresentativeView {
	return { ...row, gerente: gerente_nome == null ? null : { nome: gerente_nome } }
}

/** The representatives the user may see, by name; `search` matches name, CNPJ (with or without mask) or city. */
export function listRepresentatives(db: DbOrTx, user: SessionUser, search = ''): RepresentativeView[] {
	const conditions: (SQL | undefined)[] = [scopeCondition(user)]
	if (search) {
		const matches: SQL[] = [contains(representatives.nome, search), contains(representatives.cidade, search), contains(representatives.cnpj, search)]
		const bare = normalizeCnpj(search)
		if (bare && bare !== search) matches.push(contains(representatives.cnpj, bare))
		conditions.push(or(...matches))
	}
	return selectViews(db)
		.where(and(...conditions))
		.orderBy(asc(representatives.nome), asc(representatives.codigo))
		.all()
		.map(toView)
}

function getView(db: DbOrTx, codigo: number): RepresentativeView {
	const row = selectViews(db).where(eq(representatives.codigo, codigo)).get()
	if (!row) throw notFound(RESELLER_MESSAGES.notFound)
	return toView(row)
}

/** The signed-in representative's own record (GET /api/representatives/current). */
export function currentRepresentative(db: DbOrTx, user: SessionUser): RepresentativeView {
	const row = selectViews(db).where(eq(representatives.cnpj, user.cnpj)).get()
	if (!row) throw notFound('Nenhum representante cadastrado com o CNPJ deste usuário.')
	return toView(row)
}

/** A representative within the user's scope; anything else is "not found", so its existence is not revealed. */
function findScoped(db: DbOrTx, user: SessionUser, codigo: number) {
	const row = db
		.select()
		.from(representatives)
		.where(and(eq(representatives.codigo, codigo), scopeCondition(user)))
		.get()
	if (!row) throw notFound(RESELLER_MESSAGES.notFound)
	return row
}

/** Active users of type gerente, for the manager select (GET /api/managers). */
export function listManagers(db: DbOrTx): ManagerView[] {
	return db
		.select({ id: users.id, nome: users.nome })
		.from(users)
		.where(and(eq(users.tipo, 'gerente'), eq(users.ativo, true)))
		.orderBy(asc(users.nome), asc(users.id))
		.all()
}

function assertManager(db: DbOrTx, gerenteId: number) {
	const found = db
		.select({ id: users.id })
		.from(users)
		.where(and(eq(users.id, gerenteId), eq(users.tipo, 'gerente'), eq(users.ativo, true)))
		.get()
	if (!found) throw badRequest(RESELLER_MESSAGES.invalidManager)
}

/**
 * Creates a representative. Only an administrador chooses the manager; a gerente's new
 * representative is theirs.
 */
export function createRepresentative(db: Db, clock: Clock, user: SessionUser, input: RepresentativeCreate): RepresentativeView {
	let gerenteId = input.gerente_id ?? null
	if (user.tipo === 'gerente') {
		if (gerenteId !== null && gerenteId !== user.id) throw forbidden(RESELLER_MESSAGES.onlyAdminChoosesManager)
		gerenteId = user.id
	} else if (user.tipo !== 'administrador') {
		throw forbidden()
	}
	const codigo = db.transaction(
		(tx) => {
			if (gerenteId !== null && user.tipo === 'administrador') assertManager(tx, gerenteId)
			if (findRepresentativeByCnpj(tx, input.cnpj)) throw conflict(RESELLER_MESSAGES.duplicateCnpj, 'DUPLICATE_CNPJ')
			const created = tx
				.insert(representatives)
				.values({ ...input, gerente_id: gerenteId, ativar_api_asaas: input.ativar_api_asaas ?? 'N', data: todayIso(clock) })
				.returning({ codigo: representatives.codigo })
				.get()
			logActivity(tx, clock, {
				type: 'success',
				icon: 'Users',
				title: 'Representante criado',
				subtitle: input.nome,
				actor: user,
				entity: 'representative',
				entityId: created.codigo,
				representanteCnpj: input.cnpj
			})
			return created.codigo
		},
		{ behavior: 'immediate' }
	)
	return getView(db, codigo)
}

function countLinked(db: DbOrTx, cnpj: string) {
	const empresas = db.select({ n: sql<number>`count(*)` }).from(companies).where(eq(companies.cnpj_representante, cnpj)).get()?.n ?? 0
	const lotes = db.select({ n: sql<number>`count(*)` }).from(credits).where(eq(credits.representante_id, cnpj)).get()?.n ?? 0
	return { empresas: Number(empresas), lotes: Number(lotes) }
}

function loginOf(db: DbOrTx, cnpj: string) {
	return db.select().from(users).where(and(eq(users.cnpj, cnpj), eq(users.tipo, 'representante'))).get() ?? null
}

/**
 * Updates a representative within the user's scope. A representante changes only their API settings
 * (other fields are ignored); a gerente cannot change the manager. A new CNPJ is refused while companies
 * or credits point at the old one; the representative's login follows the new CNPJ.
 */
export function updateRepresentative(db: Db, clock: Clock, user: SessionUser, codigo: number, input: RepresentativeUpdate): RepresentativeView {
	db.transaction(
		(tx) => {
			const current = findScoped(tx, user, codigo)
			let changes: RepresentativeUpdate = { ...input }
			if (user.tipo === 'representante') {
				changes = Object.fromEntries(API_SETTINGS_FIELDS.filter((k) => k in input).map((k) => [k, input[k]]))
			} else if (user.tipo === 'gerente') {
				if ('gerente_id' in changes && changes.gerente_id !== current.gerente_id) throw forbidden(RESELLER_MESSAGES.onlyAdminChoosesManager)
				delete changes.gerente_id
			} else if (changes.gerente_id != null && changes.gerente_id !== current.gerente_id) {
				assertManager(tx, changes.gerente_id)
			}

			if (changes.cnpj !== undefined && changes.cnpj !== current.cnpj) {
				if (findRepresentativeByCnpj(tx, changes.cnpj)) throw conflict(RESELLER_MESSAGES.duplicateCnpj, 'DUPLICATE_CNPJ')
				const linked = countLinked(tx, current.cnpj)
				if (linked.empresas > 0 || linked.lotes > 0) throw conflict(RESELLER_MESSAGES.cnpjInUse, 'REPRESENTATIVE_IN_USE')
				const login = loginOf(tx, current.cnpj)
				if (login) {
					if (tx.select({ id: users.id }).from(users).where(eq(users.cnpj, changes.cnpj)).get()) {
						throw conflict(RESELLER_MESSAGES.duplicateUserCnpj, 'DUPLICATE_CNPJ')
					}
					tx.update(users).set({ cnpj: changes.cnpj, updated_at: clock.now().toISOString() }).where(eq(users.id, login.id)).run()
					invalidateUserSessions(tx, login.id)
				}
			} else {
				delete changes.cnpj
			}

			if (Object.keys(changes).length > 0) {
				tx.update(representatives).set(changes).where(eq(representatives.codigo, codigo)).run()
			}
			const own = user.tipo === 'representante'
			logActivity(tx, clock, {
				type: 'info',
				icon: 'Users',
				title: own ? 'Configurações de API atualizadas' : 'Representante atualizado',
				subtitle: changes.nome ?? current.nome,
				actor: user,
				entity: 'representative',
				entityId: codigo,
				representanteCnpj: changes.cnpj ?? current.cnpj
			})
		},
		{ behavior: 'immediate' }
	)
	return getView(db, codigo)
}

/** Deletes a representative that owns nothing: companies, credits or a login refuse it with 409. */
export function deleteRepresentative(db: Db, clock: Clock, user: SessionUser, codigo: number) {
	db.transaction(
		(tx) => {
			const current = findScoped(tx, user, codigo)
			const linked = countLinked(tx, current.cnpj)
			if (linked.empresas > 0 || linked.lotes > 0) {
				throw conflict(RESELLER_MESSAGES.hasData(linked.empresas, linked.lotes), 'REPRESENTATIVE_IN_USE')
			}
			if (loginOf(tx, current.cnpj)) throw conflict(RESELLER_MESSAGES.hasLogin, 'REPRESENTATIVE_HAS_LOGIN')
			tx.delete(representatives).where(eq(representatives.codigo, codigo)).run()
			logActivity(tx, clock, {
				type: 'warning',
				icon: 'Users',
				title: 'Representante excluído',
				subtitle: current.nome,
				actor: user,
				entity: 'representative',
				entityId: codigo,
				representanteCnpj: current.cnpj
			})
		},
		{ behavior: 'immediate' }
	)
}
