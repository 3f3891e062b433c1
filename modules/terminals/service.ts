import { type SQL, and, count, eq, gte, or, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { logActivity } from '../activity'
import type { SessionUser } from '../auth'
import { type Clock, formatBrDate, csvFilename, formatCnpj, isoDateInSaoPaulo, maskMac, pagination, todayIso } from '../core'
import { type CsvColumn, conflict, contains, csvColumnsResponse, notFound, writeTransaction, sortedBy } from '../core/server'
import { companies, companyInScope, scopeCondition } from '../companies'
import { type RepresentativeScope, representativeScope } from '../resellers'
import {
	MAC_TEXT,
	type Terminal,
	type TerminalBody,
	type TerminalListQuery,
	type TerminalPage,
	type TerminalView,
	macDigits
} from './model'
import { terminals } from './schema'

const terminalColumns = {
	codigo: terminals.codigo,
	fk_empresa: terminals.fk_empresa,
	nome_computador: terminals.nome_computador,
	mac: terminals.mac,
	data: terminals.data,
	razao: companies.razao,
	nterminais: companies.nterminais,
	terminal_count: companies.terminal_count
}

function toTerminalJson(row: {
	codigo: number
	fk_empresa: number
	nome_computador: string | null
	mac: string
	data: string
	razao: string
	nterminais: number
	terminal_count: number
}): Terminal {
	return {
		codigo: row.codigo,
		fk_empresa: row.fk_empresa,
		nome_empresa: row.razao,
		nome_computador: row.nome_computador,
		mac: row.mac,
		data: row.data,
		empresa: { codigo: row.fk_empresa, razao: row.razao, nterminais: row.nterminais, terminal_count: row.terminal_count }
	}
}

/** The terminals of a view: the user's scope and the search by computer, company or MAC. */
function viewCondition(scope: RepresentativeScope, search: string): SQL | undefined {
	// Only a search made of hex digits and MAC separators looks for a MAC ("Aurora" must not match "AA").
	const mac = MAC_TEXT.test(search) ? macDigits(search) : ''
	const searchCondition = search
		? or(
				contains(terminals.nome_computador, search),
				contains(companies.razao, search),
				...(mac.length >= 2 ? [contains(terminals.mac, mac)] : [])
			)
		: undefined
	return and(scopeCondition(scope), searchCondition)
}

/** The order of a view: its column then the terminal's code, in the chosen direction. */
function viewOrder(view: Pick<TerminalView, 'sort' | 'order'>) {
	const column = view.sort === 'empresa' ? companies.razao : terminals[view.sort]
	return [sortedBy(column, view.order), sortedBy(terminals.codigo, view.order)]
}

async function viewRows(db: DbOrTx, where: SQL | undefined, view: TerminalView, limit: number, offset: number) {
	return await db
		.select({ ...terminalColumns, cnpj: companies.cnpj })
		.from(terminals)
		.innerJoin(companies, eq(companies.codigo, terminals.fk_empresa))
		.where(where)
		.orderBy(...viewOrder(view))
		.limit(limit)
		.offset(offset)
}

/** The terminals screen (2-administration §2.2): page, search, order, and the three stat cards. */
export async function listTerminals(db: DbOrTx, clock: Clock, user: SessionUser, query: TerminalListQuery): Promise<TerminalPage> {
	const scope = representativeScope(db, user)
	const where = viewCondition(scope, query.search)
	const total =
		(await db.select({ n: count() }).from(terminals).innerJoin(companies, eq(companies.codigo, terminals.fk_empresa)).where(where))[0]?.n ??
		0
	const rows = await viewRows(db, where, query, query.limit, (query.page - 1) * query.limit)

	// Brazil's midnight, as an instant, for "registered today".
	const startOfToday = new Date(`${todayIso(clock)}T03:00:00.000Z`).toISOString()
	const stats = {
		total:
			(
				await db
					.select({ n: count() })
					.from(terminals)
					.innerJoin(companies, eq(companies.codigo, terminals.fk_empresa))
					.where(scopeCondition(scope))
			)[0]?.n ?? 0,
		empresasComTerminais:
			(
				await db
					.select({ n: sql<number>`count(distinct ${terminals.fk_empresa})` })
					.from(terminals)
					.innerJoin(companies, eq(companies.codigo, terminals.fk_empresa))
					.where(scopeCondition(scope))
			)[0]?.n ?? 0,
		totalEmpresas: (await db.select({ n: count() }).from(companies).where(scopeCondition(scope)))[0]?.n ?? 0,
		hoje:
			(
				await db
					.select({ n: count() })
					.from(terminals)
					.innerJoin(companies, eq(companies.codigo, terminals.fk_empresa))
					.where(and(scopeCondition(scope), gte(terminals.data, startOfToday)))
			)[0]?.n ?? 0
	}
	return { terminals: rows.map(toTerminalJson), pagination: pagination(query.page, query.limit, total), stats }
}

const TERMINAL_CSV_COLUMNS: CsvColumn<Awaited<ReturnType<typeof viewRows>>[number]>[] = [
	['Computador', (t) => t.nome_computador],
	['Empresa', (t) => t.razao],
	['CNPJ da empresa', (t) => formatCnpj(t.cnpj)],
	['Endereço MAC', (t) => maskMac(t.mac)],
	['Cadastro', (t) => formatBrDate(isoDateInSaoPaulo(new Date(t.data)))],
	['Terminais em uso', (t) => t.terminal_count],
	['Terminais permitidos', (t) => t.nterminais]
]

/** GET /api/terminals/export: the whole filtered view, in its order, as a pt-BR spreadsheet. */
export function exportTerminals(db: DbOrTx, clock: Clock, user: SessionUser, view: TerminalView): Response {
	const where = viewCondition(representativeScope(db, user), view.search)
	return csvColumnsResponse(csvFilename('terminais', todayIso(clock)), TERMINAL_CSV_COLUMNS, (offset, limit) =>
		viewRows(db, where, view, limit, offset)
	)
}

/** The terminal and its company; another representative's terminal gets the same answer as a missing one. */
async function terminalInScope(db: DbOrTx, scope: RepresentativeScope, codigo: number) {
	const terminal = (await db.select().from(terminals).where(eq(terminals.codigo, codigo)))[0]
	if (!terminal) throw notFound('Terminal não encontrado.')
	return { terminal, company: await companyInScope(db, scope, terminal.fk_empresa, 'Terminal não encontrado.') }
}

async function assertRoom(db: DbOrTx, company: { codigo: number; razao: string; nterminais: number }) {
	const used = (await db.select({ n: count() }).from(terminals).where(eq(terminals.fk_empresa, company.codigo)))[0]?.n ?? 0
	if (used >= company.nterminais) {
		throw conflict(`Limite de terminais atingido para ${company.razao}: ${used} de ${company.nterminais} em uso.`, 'TERMINAL_LIMIT')
	}
}

async function assertMacFree(db: DbOrTx, fkEmpresa: number, mac: string, except?: number) {
	const other = (
		await db
			.select({ codigo: terminals.codigo })
			.from(terminals)
			.where(and(eq(terminals.fk_empresa, fkEmpresa), eq(terminals.mac, mac)))
	)[0]
	if (other && other.codigo !== except) throw conflict('Esta empresa já tem um terminal com este endereço MAC.', 'DUPLICATE_MAC')
}

/** Keeps companies.terminal_count equal to the real count; call in the same transaction as the change. */
async function recount(db: DbOrTx, fkEmpresa: number) {
	await db
		.update(companies)
		.set({ terminal_count: sql`(select count(*) from ${terminals} where ${terminals.fk_empresa} = ${fkEmpresa})` })
		.where(eq(companies.codigo, fkEmpresa))
}

/** The activity line of a terminal's change: its machine name (or MAC) and company, under the company's representative. */
async function logTerminal(
	tx: DbOrTx,
	clock: Clock,
	user: SessionUser,
	event: 'terminals.created' | 'terminals.updated' | 'terminals.deleted',
	codigo: number,
	terminal: { nome_computador: string | null; mac: string },
	company: { razao: string; cnpj_representante: string }
) {
	await logActivity(
		tx,
		clock,
		event,
		{ machine: terminal.nome_computador ?? terminal.mac, razao: company.razao },
		{ actor: user, entityId: codigo, representanteCnpj: company.cnpj_representante }
	)
}

export function createTerminal(db: DbOrTx, clock: Clock, user: SessionUser, body: TerminalBody) {
	const scope = representativeScope(db, user)
	return writeTransaction(db, async (tx) => {
		const company = await companyInScope(tx, scope, body.fk_empresa)
		await assertRoom(tx, company)
		await assertMacFree(tx, company.codigo, body.mac)
		const created = (
			await tx
				.insert(terminals)
				.values({ fk_empresa: company.codigo, nome_computador: body.nome_computador, mac: body.mac, data: clock.now().toISOString() })
				.returning({ codigo: terminals.codigo })
		)[0]
		await recount(tx, company.codigo)
		await logTerminal(tx, clock, user, 'terminals.created', created.codigo, body, company)
		return created.codigo
	})
}

export async function updateTerminal(db: DbOrTx, clock: Clock, user: SessionUser, codigo: number, body: TerminalBody) {
	const scope = representativeScope(db, user)
	await writeTransaction(db, async (tx) => {
		const { terminal: current } = await terminalInScope(tx, scope, codigo)
		const company = await companyInScope(tx, scope, body.fk_empresa)
		if (company.codigo !== current.fk_empresa) await assertRoom(tx, company)
		await assertMacFree(tx, company.codigo, body.mac, codigo)
		await tx
			.update(terminals)
			.set({ fk_empresa: company.codigo, nome_computador: body.nome_computador, mac: body.mac })
			.where(eq(terminals.codigo, codigo))
		await recount(tx, company.codigo)
		if (company.codigo !== current.fk_empresa) await recount(tx, current.fk_empresa)
		await logTerminal(tx, clock, user, 'terminals.updated', codigo, body, company)
	})
}

export async function deleteTerminal(db: DbOrTx, clock: Clock, user: SessionUser, codigo: number) {
	const scope = representativeScope(db, user)
	await writeTransaction(db, async (tx) => {
		const { terminal: current, company } = await terminalInScope(tx, scope, codigo)
		await tx.delete(terminals).where(eq(terminals.codigo, codigo))
		await recount(tx, current.fk_empresa)
		await logTerminal(tx, clock, user, 'terminals.deleted', codigo, current, company)
	})
}

/**
 * A machine seen by a licence check: registered when the company is below its limit (in a transaction that
 * re-checks the limit, so two first checks at once cannot both take the last place).
 */
export function registerMachine(
	db: DbOrTx,
	clock: Clock,
	codigo: number,
	machine: { mac: string; nome_computador: string | null }
): Promise<{ registered: boolean; used: number; allowed: number }> {
	return writeTransaction(db, async (tx) => {
		const company = (
			await tx
				.select({ nterminais: companies.nterminais, razao: companies.razao, rep: companies.cnpj_representante })
				.from(companies)
				.where(eq(companies.codigo, codigo))
		)[0]!
		const known = (
			await tx
				.select({ codigo: terminals.codigo })
				.from(terminals)
				.where(and(eq(terminals.fk_empresa, codigo), eq(terminals.mac, machine.mac)))
		)[0]
		const used = (await tx.select({ n: count() }).from(terminals).where(eq(terminals.fk_empresa, codigo)))[0]!.n
		if (known) return { registered: true, used, allowed: company.nterminais }
		if (used >= company.nterminais) return { registered: false, used, allowed: company.nterminais }
		await tx
			.insert(terminals)
			.values({ fk_empresa: codigo, mac: machine.mac, nome_computador: machine.nome_computador, data: clock.now().toISOString() })
		await recount(tx, codigo)
		await logActivity(
			tx,
			clock,
			'terminals.registered',
			{ machine: machine.nome_computador ?? machine.mac, razao: company.razao },
			{ representanteCnpj: company.rep }
		)
		return { registered: true, used: used + 1, allowed: company.nterminais }
	})
}
