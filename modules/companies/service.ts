import { sqlRows } from '../../db/query'
import { type SQL, type SQLWrapper, and, count, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, ne, or, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { DIALECT } from '../../db/dialect'
import { logActivity } from '../activity'
import type { SessionUser } from '../auth'
import {
	type Clock,
	HOUR,
	LICENCE_HORIZON_YEARS,
	can,
	addDaysIso,
	formatBrDate,
	csvFilename,
	csvMoney,
	formatCnpj,
	inOrderOf,
	isIsoDate,
	licenceHorizon,
	normalizeCnpj,
	pagination,
	todayIso
} from '../core'
import {
	type CsvColumn,
	conflict,
	csvColumnsResponse,
	pageIds,
	forbidden,
	contains,
	ftsPhrases,
	trigramMatch,
	notFound,
	unprocessable,
	writeTransaction,
	searchedPage,
	sortedBy,
	type FoldedColumn
} from '../core/server'
import { type RepresentativeScope, findRepresentativeByCnpj, promoUrl, representativeScope, representatives } from '../resellers'
import {
	type BulkAction,
	type Company,
	type CompanyBody,
	type CompanyBulkBody,
	type CompanyFilter,
	type CompanyListQuery,
	type CompanyPatch,
	type CompanyView,
	EXPIRING_SOON_DAYS,
	FLAG_COLUMNS,
	SYSTEM_CATALOGUE,
	TRUST_RELEASE_HOURS,
	extendedLicence,
	licenceBadge,
	licenceState
} from './model'
import { companies } from './schema'

export type CompanyRow = typeof companies.$inferSelect

/** The companies of a scope, as a condition on the companies table. */
export function scopeCondition(scope: RepresentativeScope): SQL {
	return scope.on(companies.cnpj_representante)
}

export async function findCompany(db: DbOrTx, codigo: number) {
	return (await db.select().from(companies).where(eq(companies.codigo, codigo)))[0] ?? null
}

/** The company, when it is in the user's scope; otherwise `notFound(missing)`, the same answer as for no company. */
export async function companyInScope(
	db: DbOrTx,
	scope: RepresentativeScope,
	codigo: number,
	missing = 'Empresa não encontrada.'
): Promise<CompanyRow> {
	const company = await findCompany(db, codigo)
	if (!company || !(await scope.includes(company.cnpj_representante))) throw notFound(missing)
	return company
}

const anyBlocked = or(...FLAG_COLUMNS.map((column) => eq(companies[column], 'S')))!
const noneBlocked = and(...FLAG_COLUMNS.map((column) => eq(companies[column], 'N')))!

/** What a search of 3+ characters looks for: the text as typed, and its bare CNPJ form when that differs. */
function searchTerms(search: string): string[] | null {
	const bare = normalizeCnpj(search)
	const terms = [search, ...(bare && bare !== search.toUpperCase() ? [bare] : [])].filter((t) => t.length >= 3)
	return terms.length > 0 ? terms : null
}

/** PostgreSQL's folded copy of what companies_fts indexes (db/migrations-pg, 0008). */
const companiesFolded: FoldedColumn = { column: sql`${companies}.busca`, parts: ['razao', 'cidade', 'cnpj'] }

/**
 * Companies with a razão social, city or CNPJ that contains one of `terms` (3+ characters), accents and case aside,
 * through the trigram index; `names` leaves the CNPJ column out.
 */
function companiesMatching(terms: string[], names = false): SQL {
	return trigramMatch(terms, companiesFolded, {
		table: 'companies_fts',
		rowid: companies.codigo,
		columns: names ? ['razao', 'cidade'] : undefined
	})
}

/** A search that is clearly the start of a CNPJ: 8+ digits, or typed with the CNPJ mask (12.ABC.345...). */
function cnpjPrefix(search: string): string | null {
	const bare = normalizeCnpj(search)
	if (!/^[0-9A-Z]{8,14}$/.test(bare)) return null
	return /^\d+$/.test(bare) || /^[0-9A-Za-z]{2}\.[0-9A-Za-z]{3}/.test(search.trim()) ? bare : null
}

/**
 * Search by razão social, city or CNPJ (with or without mask): the start of a CNPJ walks the CNPJ index,
 * anything else of 3+ characters uses the trigram index, and shorter text a scan.
 */
export function searchCondition(search: string): SQL | undefined {
	if (!search) return undefined
	const prefix = cnpjPrefix(search)
	if (prefix) {
		// The CNPJ index for the CNPJ, and names or cities that happen to contain the same characters.
		return or(and(gte(companies.cnpj, prefix), lt(companies.cnpj, `${prefix}\uffff`)), companiesMatching([search], true))
	}
	const terms = searchTerms(search)
	if (terms) return companiesMatching(terms)
	const bare = normalizeCnpj(search)
	return or(contains(companies.razao, search), contains(companies.cidade, search), contains(companies.cnpj, bare || search))
}

/** The status and notice filters of 1-core §2.8, classified as §4 says, in SQL. */
function filterConditions(query: CompanyFilter, today: string): SQL[] {
	const out: SQL[] = []
	switch (query.status) {
		case 'bloqueadas':
			out.push(anyBlocked)
			break
		case 'expiradas':
			out.push(noneBlocked, isNotNull(companies.validade_licenca), lte(companies.validade_licenca, today))
			break
		case 'ativas':
			out.push(noneBlocked, gt(companies.validade_licenca, today))
			break
		case 'expiring_soon':
			out.push(noneBlocked, gt(companies.validade_licenca, today), lte(companies.validade_licenca, addDaysIso(today, EXPIRING_SOON_DAYS)))
			break
		case 'no-license':
			out.push(noneBlocked, isNull(companies.validade_licenca))
			break
	}
	if (query.avisos === 'com') out.push(eq(companies.exibir_aviso, 'S'))
	if (query.avisos === 'sem') out.push(eq(companies.exibir_aviso, 'N'))
	return out
}

/** Companies joined to their representative, for toCompanyJson: filter it with `.where`. */
const companiesWithRepresentative = (db: DbOrTx) =>
	db
		.select({ company: companies, representanteNome: representatives.nome, representantePromo: representatives.promo })
		.from(companies)
		.leftJoin(representatives, eq(representatives.cnpj, companies.cnpj_representante))

/** The company as the API shows it (1-core §3): money in reais, the representative's name and promo image. */
export function toCompanyJson(row: { company: CompanyRow; representanteNome: string | null; representantePromo: string | null }): Company {
	const { valor_mensal_centavos, ...rest } = row.company
	return {
		...rest,
		valor_mensal: valor_mensal_centavos / 100,
		promo: promoUrl(row.representantePromo),
		representante: row.representanteNome ? { nome: row.representanteNome } : null
	}
}

/** The companies of a list view: the scope, the search and the filters, as one condition. */
function viewCondition(scope: RepresentativeScope, filter: CompanyFilter, today: string) {
	const filters = filterConditions(filter, today)
	return { where: and(scopeCondition(scope), searchCondition(filter.search), ...filters), filtered: filters.length > 0 }
}

/**
 * The order of a view: its column, then the code, both in the chosen direction, so SQLite walks the column's
 * index (which ends in the rowid, the code) forwards or backwards instead of sorting.
 */
function viewOrder(view: Pick<CompanyView, 'sort' | 'order'>) {
	return [sortedBy(companies[view.sort], view.order), sortedBy(companies.codigo, view.order)]
}

/** The companies of these codes with their representative, in the codes' order. */
async function companiesByIds(db: DbOrTx, ids: number[]) {
	return await inOrderOf(
		ids,
		async (page) => await companiesWithRepresentative(db).where(inArray(companies.codigo, page)),
		(row) => row.company.codigo
	)
}

/** How many companies a view (`where`) holds. */
async function countView(db: DbOrTx, scope: RepresentativeScope, query: CompanyListQuery, where: SQL | undefined, filtered: boolean) {
	const terms = query.search && !cnpjPrefix(query.search) ? searchTerms(query.search) : null
	// Without scope or filters, SQLite's full-text index alone knows how many companies match.
	if (terms && scope.all && !filtered && DIALECT === 'sqlite')
		return (
			(await sqlRows<{ n: number }>(db, sql`select count(*) as n from companies_fts where companies_fts match ${ftsPhrases(terms)}`))[0]
				?.n ?? 0
		)
	return (await db.select({ n: count() }).from(companies).where(where))[0]?.n ?? 0
}

/**
 * One page of companies. The page is chosen on (sort column, código) alone and only its rows are then read
 * with their representative, so a search matching thousands of companies never sorts whole rows. On PostgreSQL a
 * search's page and total come from one pass over its matches (searchedPage).
 */
export async function listCompanies(db: DbOrTx, clock: Clock, scope: RepresentativeScope, query: CompanyListQuery) {
	const { where, filtered } = viewCondition(scope, query, todayIso(clock))
	const offset = (query.page - 1) * query.limit
	const page =
		query.search && DIALECT === 'postgres'
			? await searchedPage(db, companies.codigo, { column: companies[query.sort], order: query.order }, where, query.limit, offset)
			: {
					total: await countView(db, scope, query, where, filtered),
					ids: await pageIds(db, companies.codigo, where, viewOrder(query), query.limit, offset)
				}
	return { companies: (await companiesByIds(db, page.ids)).map(toCompanyJson), pagination: pagination(query.page, query.limit, page.total) }
}

type CompanyCsvRow = Awaited<ReturnType<typeof companiesByIds>>[number]

/** The export's columns; the status is the licence badge as of `today` and `now`. */
function companyCsvColumns(today: string, now: Date): CsvColumn<CompanyCsvRow>[] {
	return [
		['Empresa', (r) => r.company.razao],
		['CNPJ', (r) => formatCnpj(r.company.cnpj)],
		['Representante', (r) => r.representanteNome],
		['Cidade', (r) => r.company.cidade],
		['UF', (r) => r.company.uf],
		['Validade da licença', (r) => formatBrDate(r.company.validade_licenca)],
		['Validade do certificado', (r) => formatBrDate(r.company.validade_certificado)],
		['Status', (r) => licenceBadge(r.company, today, now).label],
		[
			'Sistemas bloqueados',
			(r) =>
				SYSTEM_CATALOGUE.filter((s) => r.company[s.flag] === 'S')
					.map((s) => s.name)
					.join(', ')
		],
		['Terminais em uso', (r) => r.company.terminal_count],
		['Terminais permitidos', (r) => r.company.nterminais],
		['Manutenção', (r) => (r.company.manutencao === 'S' ? 'Sim' : 'Não')],
		['Avisos', (r) => (r.company.exibir_aviso === 'S' ? 'Sim' : 'Não')],
		['Valor mensal (R$)', (r) => csvMoney(r.company.valor_mensal_centavos / 100)]
	]
}

/** GET /api/companies/export: the whole filtered view, in its order, as a pt-BR spreadsheet, read 1,000 at a time. */
export function exportCompanies(db: DbOrTx, clock: Clock, scope: RepresentativeScope, view: CompanyView): Response {
	const today = todayIso(clock)
	const { where } = viewCondition(scope, view, today)
	return csvColumnsResponse(csvFilename('empresas', today), companyCsvColumns(today, clock.now()), async (offset, limit) =>
		companiesByIds(db, await pageIds(db, companies.codigo, where, viewOrder(view), limit, offset))
	)
}

export async function getCompanyJson(db: DbOrTx, codigo: number): Promise<Company> {
	const row = (await companiesWithRepresentative(db).where(eq(companies.codigo, codigo)))[0]
	if (!row) throw notFound('Empresa não encontrada.')
	return toCompanyJson(row)
}

export function newLicenceKey(): string {
	return Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64url')
}

const REP_FIELD_MESSAGE = 'Representantes não podem alterar este campo'

/** Licence and certificate dates are set by an administrador; everyone else extends a licence with credits. */
function assertMayWriteDates(user: SessionUser) {
	if (can(user.tipo, 'companies.dates')) return
	throw forbidden(
		user.tipo === 'representante'
			? 'Somente visualização para representantes: as datas de validade não podem ser alteradas.'
			: 'Apenas administradores alteram as datas de validade.'
	)
}

/**
 * A licence date may reach at most 20 years ahead, whoever writes it (the dates dialog, the company form, a credit
 * transfer): 100,000 credits once pushed one past year 9999, and the company then answered 500.
 */
function assertWithinLicenceHorizon(clock: Clock, date: string | null | undefined) {
	if (!date) return
	const horizon = licenceHorizon(todayIso(clock))
	if (!isIsoDate(date) || date > horizon) {
		throw unprocessable(
			`A validade da licença não pode passar de ${formatBrDate(horizon)} (${LICENCE_HORIZON_YEARS} anos à frente).`,
			'LICENCE_HORIZON'
		)
	}
}

/** Only who may switch maintenance sets it; anyone else keeps the company's value (off for a new one). */
function maintenanceFor(user: SessionUser, requested: 'S' | 'N' | undefined, current: 'S' | 'N' = 'N'): 'S' | 'N' {
	if (can(user.tipo, 'companies.maintenance')) return requested ?? current
	if (requested !== undefined && requested !== current) throw forbidden('Apenas administradores alteram a manutenção.')
	return current
}

/** The representative a new or edited company belongs to, checked against who is asking. */
async function ownerFor(
	db: DbOrTx,
	user: SessionUser,
	scope: RepresentativeScope,
	requested: string | undefined,
	current?: string
): Promise<string> {
	if (!can(user.tipo, 'companies.assign')) {
		if (requested && requested !== user.cnpj) throw forbidden(REP_FIELD_MESSAGE)
		return current ?? user.cnpj
	}
	const owner = requested ?? current
	if (!owner) throw unprocessable('Selecione o representante da empresa.')
	if (!(await findRepresentativeByCnpj(db, owner))) throw unprocessable('Representante não encontrado.')
	if (!(await scope.includes(owner))) throw forbidden('Você só pode atribuir empresas aos seus representantes.')
	return owner
}

async function assertUniqueCnpj(db: DbOrTx, cnpj: string, except?: number) {
	const existing = (await db.select({ codigo: companies.codigo }).from(companies).where(eq(companies.cnpj, cnpj)))[0]
	if (existing && existing.codigo !== except) throw conflict('Já existe uma empresa cadastrada com este CNPJ.', 'DUPLICATE_CNPJ')
}

function values(body: CompanyBody) {
	const { valor_mensal, cnpj_representante: _owner, manutencao: _m, ...rest } = body
	return { ...rest, valor_mensal_centavos: valor_mensal }
}

export function createCompany(db: DbOrTx, clock: Clock, user: SessionUser, body: CompanyBody): Promise<number> {
	const scope = representativeScope(db, user)
	return writeTransaction(db, async (tx) => {
		const owner = await ownerFor(tx, user, scope, body.cnpj_representante)
		if (body.validade_licenca || body.validade_certificado) assertMayWriteDates(user)
		assertWithinLicenceHorizon(clock, body.validade_licenca)
		await assertUniqueCnpj(tx, body.cnpj)
		const created = (
			await tx
				.insert(companies)
				.values({
					...values(body),
					cnpj_representante: owner,
					manutencao: maintenanceFor(user, body.manutencao),
					serial: newLicenceKey(),
					data: todayIso(clock)
				})
				.returning({ codigo: companies.codigo })
		)[0]
		await logActivity(
			tx,
			clock,
			'companies.created',
			{ razao: body.razao },
			{ actor: user, entityId: created.codigo, representanteCnpj: owner }
		)
		return created.codigo
	})
}

export async function updateCompany(db: DbOrTx, clock: Clock, user: SessionUser, codigo: number, body: CompanyBody) {
	const scope = representativeScope(db, user)
	await writeTransaction(db, async (tx) => {
		const current = await companyInScope(tx, scope, codigo)
		const owner = await ownerFor(tx, user, scope, body.cnpj_representante, current.cnpj_representante)
		if (body.validade_licenca !== current.validade_licenca || body.validade_certificado !== current.validade_certificado) {
			assertMayWriteDates(user)
		}
		if (body.validade_licenca !== current.validade_licenca) assertWithinLicenceHorizon(clock, body.validade_licenca)
		if (body.nterminais < current.terminal_count) {
			throw conflict(
				`A empresa já usa ${current.terminal_count} terminais: exclua terminais antes de reduzir o limite.`,
				'TERMINALS_IN_USE'
			)
		}
		await assertUniqueCnpj(tx, body.cnpj, codigo)
		await tx
			.update(companies)
			.set({
				...values(body),
				cnpj_representante: owner,
				manutencao: maintenanceFor(user, body.manutencao, current.manutencao),
				...byHand(FLAG_COLUMNS.some((f) => body[f] !== current[f]))
			})
			.where(eq(companies.codigo, codigo))
		await logActivity(tx, clock, 'companies.updated', { razao: body.razao }, { actor: user, entityId: codigo, representanteCnpj: owner })
	})
}

/** PATCH: dates (administrador), block flags or notice display (anyone in scope). */
export async function patchCompany(db: DbOrTx, clock: Clock, user: SessionUser, codigo: number, patch: CompanyPatch) {
	const scope = representativeScope(db, user)
	const touchesDates = patch.validade_licenca !== undefined || patch.validade_certificado !== undefined
	if (touchesDates) assertMayWriteDates(user)
	assertWithinLicenceHorizon(clock, patch.validade_licenca)
	const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined))
	if (Object.keys(changes).length === 0) throw unprocessable('Nada para alterar.')
	await writeTransaction(db, async (tx) => {
		const current = await companyInScope(tx, scope, codigo)
		const flagsChanged = FLAG_COLUMNS.filter((f) => f in changes)
		await tx
			.update(companies)
			.set({ ...changes, ...byHand(flagsChanged.length > 0) })
			.where(eq(companies.codigo, codigo))
		const meta = companyMeta(user, current)
		const razao = current.razao
		if (touchesDates) {
			const licenca = patch.validade_licenca === undefined ? current.validade_licenca : patch.validade_licenca
			const certificado = patch.validade_certificado === undefined ? current.validade_certificado : patch.validade_certificado
			await logActivity(tx, clock, 'companies.dates-updated', { razao, licenca, certificado }, meta)
		} else if (flagsChanged.length > 0) {
			const blocked = flagsChanged.some((f) => changes[f] === 'S')
			const event = flagsChanged.every((f) => changes[f] === 'S')
				? 'companies.systems-blocked'
				: flagsChanged.every((f) => changes[f] === 'N')
					? 'companies.systems-unblocked'
					: 'companies.systems-changed'
			await logActivity(tx, clock, event, { razao, blocked }, meta)
		} else {
			await logActivity(
				tx,
				clock,
				changes.exibir_aviso === 'S' ? 'companies.notice-display-on' : 'companies.notice-display-off',
				{ razao },
				meta
			)
		}
	})
}

/**
 * A person who sets the block flags takes the block into their own hands: a block for non-payment stops being one
 * (payment-block.ts), so a payment never lifts what a person decided.
 */
const byHand = (flagsWritten: boolean) => (flagsWritten ? { bloqueio_inadimplencia: null } : {})

/** Who changed a company, and whose company it is: the activity line's filing. */
const companyMeta = (user: SessionUser, company: { codigo: number; cnpj_representante: string }) => ({
	actor: user,
	entityId: company.codigo,
	representanteCnpj: company.cnpj_representante
})

export async function deleteCompany(db: DbOrTx, clock: Clock, user: SessionUser, codigo: number) {
	const scope = representativeScope(db, user)
	await writeTransaction(db, async (tx) => {
		const current = await companyInScope(tx, scope, codigo)
		await tx.delete(companies).where(eq(companies.codigo, codigo))
		await logActivity(tx, clock, 'companies.deleted', { razao: current.razao }, companyMeta(user, current))
	})
}

/**
 * Liberação em confiança: 24 hours of use for a company whose licence date has passed,
 * granted once per expiry (a second release for the same expiry is refused).
 */
export function trustRelease(db: DbOrTx, clock: Clock, user: SessionUser, codigo: number): Promise<{ expira: string }> {
	const scope = representativeScope(db, user)
	return writeTransaction(db, async (tx) => releaseOnTrust(tx, clock, await companyInScope(tx, scope, codigo), { actor: user }))
}

/**
 * The same release asked for by the client on the WhatsApp bot (its option 6), from a phone registered for the
 * company: audited as done by the bot.
 */
export function trustReleaseByBot(db: DbOrTx, clock: Clock, codigo: number): Promise<{ expira: string }> {
	return writeTransaction(db, async (tx) => {
		const company = await findCompany(tx, codigo)
		if (!company) throw notFound('Empresa não encontrada.')
		return releaseOnTrust(tx, clock, company, { actorName: 'Bot WhatsApp', via: 'bot' })
	})
}

async function releaseOnTrust(
	tx: DbOrTx,
	clock: Clock,
	company: CompanyRow,
	by: { actor?: SessionUser; actorName?: string; via?: 'bot' }
): Promise<{ expira: string }> {
	const { state } = licenceState(company, todayIso(clock), clock.now().getTime())
	if (state !== 'expirada' && state !== 'liberada') {
		throw unprocessable('A licença não está vencida ou empresa não encontrada.', 'NOT_EXPIRED')
	}
	// One release per expiry: a release taken on or after this licence date was for this expiry.
	if (company.liberacao_confianca_data && company.liberacao_confianca_data.slice(0, 10) >= company.validade_licenca!) {
		throw conflict(
			state === 'liberada'
				? 'A empresa já está liberada em confiança. A liberação vale por 24 horas.'
				: 'A liberação em confiança já foi usada para este vencimento. Renove a licença com créditos.',
			'ALREADY_RELEASED'
		)
	}
	const now = clock.now()
	const expira = new Date(now.getTime() + TRUST_RELEASE_HOURS * HOUR).toISOString()
	await tx
		.update(companies)
		.set({ liberacao_confianca_data: now.toISOString(), liberacao_confianca_expira: expira })
		.where(eq(companies.codigo, company.codigo))
	await logActivity(
		tx,
		clock,
		'companies.trust-released',
		{ razao: company.razao, horas: TRUST_RELEASE_HOURS, ...(by.via ? { via: by.via } : {}) },
		{ actor: by.actor, actorName: by.actorName, entityId: company.codigo, representanteCnpj: company.cnpj_representante }
	)
	return { expira }
}

export function setMaintenance(
	db: DbOrTx,
	clock: Clock,
	user: SessionUser,
	codigo: number | 'all',
	manutencao: 'S' | 'N'
): Promise<number> {
	return writeTransaction(db, async (tx) => {
		let changed: number
		let subtitle: string
		if (codigo === 'all') {
			changed = (await tx.update(companies).set({ manutencao }).returning({ codigo: companies.codigo })).length
			subtitle = `Todas as empresas (${changed})`
		} else {
			const company = await findCompany(tx, codigo)
			if (!company) throw notFound('Empresa não encontrada.')
			await tx.update(companies).set({ manutencao }).where(eq(companies.codigo, codigo))
			changed = 1
			subtitle = company.razao
		}
		await logActivity(
			tx,
			clock,
			manutencao === 'S' ? 'companies.maintenance-on' : 'companies.maintenance-off',
			{ alvo: subtitle },
			{
				actor: user,
				entityId: codigo === 'all' ? undefined : codigo
			}
		)
		return changed
	})
}

/** A new licence key; the old one stops working at once. */
export function regenerateKey(db: DbOrTx, clock: Clock, user: SessionUser, codigo: number): Promise<string> {
	return writeTransaction(db, async (tx) => {
		const company = await findCompany(tx, codigo)
		if (!company) throw notFound('Empresa não encontrada.')
		const serial = newLicenceKey()
		await tx.update(companies).set({ serial }).where(eq(companies.codigo, codigo))
		await logActivity(tx, clock, 'companies.key-regenerated', { razao: company.razao }, companyMeta(user, company))
		return serial
	})
}

/** Chosen companies (distinct codes) must all exist and be in the scope; one that is not answers as missing. */
async function assertAllInScope(tx: DbOrTx, scope: RepresentativeScope, ids: number[]) {
	const found = await tx.select({ rep: companies.cnpj_representante }).from(companies).where(inArray(companies.codigo, ids))
	if (found.length !== ids.length) throw notFound('Empresa não encontrada.')
	for (const c of found) if (!(await scope.includes(c.rep))) throw notFound('Empresa não encontrada.')
}

/** The representative's notice (title and text) shown by the chosen companies' systems; all must be theirs. */
export function setCompanyNotice(
	db: DbOrTx,
	clock: Clock,
	user: SessionUser,
	codigos: number[],
	notice: { titulo: string; texto: string } | null
) {
	const scope = representativeScope(db, user)
	const ids = [...new Set(codigos)]
	return writeTransaction(db, async (tx) => {
		await assertAllInScope(tx, scope, ids)
		await tx
			.update(companies)
			.set(
				notice
					? { aviso_titulo: notice.titulo, avisos: notice.texto, exibir_aviso: 'S' }
					: { aviso_titulo: null, avisos: null, exibir_aviso: 'N' }
			)
			.where(inArray(companies.codigo, ids))
		const meta = { actor: user, representanteCnpj: user.tipo === 'representante' ? user.cnpj : null }
		if (notice) await logActivity(tx, clock, 'companies.notice-sent', { titulo: notice.titulo, empresas: ids.length }, meta)
		else await logActivity(tx, clock, 'companies.notices-removed', { empresas: ids.length }, meta)
		return ids.length
	})
}

/**
 * Adds licence days to a company: counted from its current licence date, or from today when it has
 * none (1-core §2.11). Call inside the transaction that spends the credits.
 */
export async function extendLicence(
	tx: DbOrTx,
	clock: Clock,
	codigo: number,
	credits: number,
	daysPerCredit: number
): Promise<{ before: string | null; after: string; days: number }> {
	const company = await findCompany(tx, codigo)
	if (!company) throw notFound('Empresa não encontrada.')
	const { to, days } = extendedLicence(company.validade_licenca, todayIso(clock), credits, daysPerCredit)
	assertWithinLicenceHorizon(clock, to)
	await tx.update(companies).set({ validade_licenca: to }).where(eq(companies.codigo, codigo))
	return { before: company.validade_licenca, after: to, days }
}

/** How many companies the representative in `cnpj` owns, as SQL (the representatives list sorts by it). */
export function companyCountSql(cnpj: SQLWrapper): SQL {
	return sql`(select count(*) from ${companies} where ${companies.cnpj_representante} = ${cnpj})`
}

/** How many companies each representative owns (the representatives list shows it; one with any cannot be deleted). */
export async function companiesPerRepresentative(db: DbOrTx, cnpjs: string[]): Promise<Map<string, number>> {
	const rows = await db
		.select({ cnpj: companies.cnpj_representante, n: count() })
		.from(companies)
		.where(inArray(companies.cnpj_representante, cnpjs))
		.groupBy(companies.cnpj_representante)
	return new Map(rows.map((r) => [r.cnpj, r.n]))
}

type BulkEvent =
	| 'companies.bulk-blocked'
	| 'companies.bulk-unblocked'
	| 'companies.bulk-notices-on'
	| 'companies.bulk-notices-off'
	| 'companies.bulk-maintenance-on'
	| 'companies.bulk-maintenance-off'
interface BulkEffect {
	set: Partial<CompanyRow>
	differs: SQL
	event: BulkEvent
	done: string
}

/**
 * Every system's block flag set to `value`, by a person: it changes the companies with any flag still the other way,
 * and a block for non-payment, which becomes theirs.
 */
const allFlags = (value: 'S' | 'N', event: BulkEvent, done: string): BulkEffect => ({
	set: { ...Object.fromEntries(FLAG_COLUMNS.map((f) => [f, value])), bloqueio_inadimplencia: null },
	differs: or(...FLAG_COLUMNS.map((f) => eq(companies[f], value === 'S' ? 'N' : 'S')), isNotNull(companies.bloqueio_inadimplencia))!,
	event,
	done
})
/** One S/N column set to `value`: it changes the companies where it is not that yet. */
const oneFlag = (column: 'exibir_aviso' | 'manutencao', value: 'S' | 'N', event: BulkEvent, done: string): BulkEffect => ({
	set: { [column]: value },
	differs: ne(companies[column], value),
	event,
	done
})

/** What each bulk action writes, which companies it would change, its activity event and its words. */
const BULK: Record<BulkAction, BulkEffect> = {
	bloquear: allFlags('S', 'companies.bulk-blocked', 'Sistemas bloqueados'),
	desbloquear: allFlags('N', 'companies.bulk-unblocked', 'Sistemas desbloqueados'),
	'avisos-on': oneFlag('exibir_aviso', 'S', 'companies.bulk-notices-on', 'Avisos ativados'),
	'avisos-off': oneFlag('exibir_aviso', 'N', 'companies.bulk-notices-off', 'Avisos desativados'),
	'manutencao-on': oneFlag('manutencao', 'S', 'companies.bulk-maintenance-on', 'Manutenção ativada'),
	'manutencao-off': oneFlag('manutencao', 'N', 'companies.bulk-maintenance-off', 'Manutenção desativada')
}

const companiesWord = (n: number) => `${n} ${n === 1 ? 'empresa alterada' : 'empresas alteradas'}`

/**
 * A bulk action (issue 14): the chosen companies, or every company matching the list's filter, in the user's
 * scope, changed in ONE immediate transaction with ONE activity line. Chosen codes outside the scope answer as
 * missing, like a single company would; maintenance needs its own capability.
 */
export function bulkUpdateCompanies(db: DbOrTx, clock: Clock, user: SessionUser, body: CompanyBulkBody) {
	if (body.acao.startsWith('manutencao') && !can(user.tipo, 'companies.maintenance')) {
		throw forbidden('Apenas administradores alteram a manutenção.')
	}
	const scope = representativeScope(db, user)
	const action = BULK[body.acao]
	return writeTransaction(db, async (tx) => {
		let target: SQL | undefined
		if (body.ids) {
			const ids = [...new Set(body.ids)]
			await assertAllInScope(tx, scope, ids)
			target = inArray(companies.codigo, ids)
		} else {
			target = viewCondition(scope, body.filtro!, todayIso(clock)).where
		}
		const total = (await tx.select({ n: count() }).from(companies).where(target))[0]?.n ?? 0
		if (total === 0) throw unprocessable('Nenhuma empresa corresponde ao filtro.')
		const changed = await tx
			.update(companies)
			.set(action.set)
			.where(and(target, action.differs))
			.returning({ rep: companies.cnpj_representante })
		const reps = new Set(changed.map((c) => c.rep))
		const unchanged = total - changed.length
		await logActivity(
			tx,
			clock,
			action.event,
			{ alteradas: changed.length, total },
			{ actor: user, representanteCnpj: user.tipo === 'representante' ? user.cnpj : reps.size === 1 ? [...reps][0] : null }
		)
		const rest = unchanged === 0 ? '' : `; ${unchanged} ${unchanged === 1 ? 'já estava assim' : 'já estavam assim'}`
		return {
			message: `${action.done}: ${companiesWord(changed.length)}${rest}.`,
			total,
			alteradas: changed.length,
			inalteradas: unchanged
		}
	})
}
